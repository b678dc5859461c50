package dev.cairn.healthprober.schedule;

import dev.cairn.commonmodel.health.ProbeStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The prober's meters that carry a peer tag: {@code cairn.prober.probe.latency} (histogram of reply
 * round trips), {@code cairn.prober.results} (host probes per status) and {@code
 * cairn.prober.probes.skipped} (host probes not sent while the peer's circuit was open).
 */
public final class ProbeMetrics {

  private final MeterRegistry registry;
  private final ConcurrentHashMap<String, Timer> latency = new ConcurrentHashMap<>();

  /** Per peer, one counter per status (by ordinal), registered on first use. */
  private final ConcurrentHashMap<String, AtomicReferenceArray<Counter>> results =
      new ConcurrentHashMap<>();

  private final ConcurrentHashMap<String, Counter> skipped = new ConcurrentHashMap<>();

  public ProbeMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void latency(String peer, long nanos) {
    Timer t = latency.get(peer); // no lambda allocated on the hot path
    if (t == null) {
      t = latencyTimer(peer);
    }
    t.record(nanos, TimeUnit.NANOSECONDS);
  }

  private Timer latencyTimer(String peer) {
    return latency.computeIfAbsent(
        peer,
        p ->
            Timer.builder("cairn.prober.probe.latency")
                .description("round trip of a DNS reply from a peer")
                .tag("peer", p)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(20_000))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry));
  }

  void result(String peer, ProbeStatus status) {
    AtomicReferenceArray<Counter> byStatus =
        results.computeIfAbsent(peer, p -> new AtomicReferenceArray<>(ProbeStatus.values().length));
    Counter c = byStatus.get(status.ordinal());
    if (c == null) {
      // the registry hands racing callers the same counter
      c =
          Counter.builder("cairn.prober.results")
              .description("host probes by outcome")
              .tag("peer", peer)
              .tag("status", status.name())
              .register(registry);
      byStatus.set(status.ordinal(), c);
    }
    c.increment();
  }

  void skipped(String peer, int probes) {
    skipped
        .computeIfAbsent(
            peer,
            p ->
                Counter.builder("cairn.prober.probes.skipped")
                    .description("host probes not sent because the peer's circuit was open")
                    .tag("peer", p)
                    .register(registry))
        .increment(probes);
  }

  /** Removes the meters of a peer that is gone. */
  void forget(String peer) {
    Timer t = latency.remove(peer);
    if (t != null) {
      registry.remove(t);
    }
    Counter s = skipped.remove(peer);
    if (s != null) {
      registry.remove(s);
    }
    AtomicReferenceArray<Counter> byStatus = results.remove(peer);
    if (byStatus != null) {
      for (int i = 0; i < byStatus.length(); i++) {
        if (byStatus.get(i) != null) {
          registry.remove(byStatus.get(i));
        }
      }
    }
  }
}
