package dev.cairn.strategyengine.stream;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The engine's record of bad input: how many malformed records were skipped, and whether a record
 * of a newer schema version stopped it (the reason is shown in the health); also the outputs Kafka
 * refused as too large.
 */
public final class InputErrors {

  private final EngineMetrics metrics;
  private final AtomicLong malformed = new AtomicLong();
  private final AtomicReference<String> stopReason = new AtomicReference<>();

  public InputErrors(EngineMetrics metrics) {
    this.metrics = metrics;
  }

  /** A malformed record of {@code topic} was skipped. */
  public void malformed(String topic) {
    malformed.incrementAndGet();
    metrics.malformedRecord(topic);
  }

  /** An output ({@code decision} or {@code status}) Kafka refused as too large was dropped. */
  public void outputTooLarge(String output) {
    metrics.outputTooLarge(output);
  }

  /** The engine stops because of {@code reason}; the first reason is kept. */
  public void stopped(String reason) {
    stopReason.compareAndSet(null, reason);
  }

  /** Malformed records skipped since start. */
  public long malformedCount() {
    return malformed.get();
  }

  /** Why the engine stopped reading, if it did. */
  public Optional<String> stopReason() {
    return Optional.ofNullable(stopReason.get());
  }
}
