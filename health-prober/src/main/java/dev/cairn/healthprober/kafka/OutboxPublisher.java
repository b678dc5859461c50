package dev.cairn.healthprober.kafka;

import dev.cairn.commonmodel.runtime.CriticalThread;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaOperations;

/**
 * Sends what the {@link Outbox} holds to Kafka on its own thread. A failed send is put back (unless
 * a newer value for the key is waiting) and tried again a second later; failures are logged when
 * they start and when they end, not per record.
 */
public final class OutboxPublisher implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(OutboxPublisher.class);

  private final Outbox outbox;
  private final KafkaOperations<String, Object> kafka;
  private final MeterRegistry meters;
  private final ConcurrentHashMap<String, Counter> published = new ConcurrentHashMap<>();
  private final Counter failures;
  private final ScheduledExecutorService retries;
  private final AtomicBoolean failing = new AtomicBoolean();
  private final AtomicReference<String> lastError = new AtomicReference<>();
  private final CriticalThread thread;
  private volatile boolean running = true;

  public OutboxPublisher(
      Outbox outbox, KafkaOperations<String, Object> kafka, MeterRegistry meters) {
    this.outbox = outbox;
    this.kafka = kafka;
    this.meters = meters;
    this.failures = meters.counter("cairn.prober.publish.failures");
    this.retries =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "cairn-prober-publish-retry");
              t.setDaemon(true);
              return t;
            });
    this.thread =
        new CriticalThread(
            "cairn-prober-publisher",
            this::run,
            log,
            "no probe answer is published any more; liveness is DOWN");
  }

  /** Starts the sending thread. */
  public void start() {
    thread.start();
  }

  /** True while the sending thread runs. */
  public boolean alive() {
    return thread.isAlive();
  }

  /** True when the sending thread ended while the publisher is open (an unexpected error). */
  public boolean stopped() {
    return running && thread.failure() != null;
  }

  /** The last send error while sends fail, else {@code null}. */
  public String lastError() {
    return failing.get() ? lastError.get() : null;
  }

  private void run() {
    while (running) {
      try {
        for (Outbox.Entry e : outbox.take(1, TimeUnit.SECONDS)) {
          send(e);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        log.atError().setCause(e).log("publisher loop failed; continuing");
      }
    }
    try {
      for (Outbox.Entry e : outbox.take(0, TimeUnit.SECONDS)) {
        send(e);
      }
      kafka.flush();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.atWarn().setCause(e).log("could not flush the last records on shutdown");
    }
  }

  private void send(Outbox.Entry e) {
    CompletableFuture<?> future;
    try {
      future = kafka.send(e.slot().topic(), e.slot().key(), e.value());
    } catch (RuntimeException ex) {
      failed(e, ex);
      return;
    }
    future.whenComplete(
        (ok, ex) -> {
          if (ex != null) {
            failed(e, ex);
          } else {
            outbox.delivered(e);
            published
                .computeIfAbsent(
                    e.slot().topic(), t -> meters.counter("cairn.prober.published", "topic", t))
                .increment();
            if (failing.compareAndSet(true, false)) {
              log.atInfo().log("publishing to Kafka works again");
            }
          }
        });
  }

  private void failed(Outbox.Entry e, Throwable ex) {
    failures.increment();
    lastError.set(e.slot().topic() + ": " + ex);
    if (failing.compareAndSet(false, true)) {
      log.atWarn()
          .addKeyValue("topic", e.slot().topic())
          .addKeyValue("key", e.slot().key())
          .setCause(ex)
          .log("publishing to Kafka fails; records are kept and retried");
    }
    if (running) {
      retries.schedule(() -> outbox.retry(e), 1, TimeUnit.SECONDS);
    }
  }

  /** Stops after sending what is waiting (bounded by ten seconds). */
  @Override
  public void close() {
    running = false;
    try {
      thread.thread().join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    retries.shutdownNow();
  }
}
