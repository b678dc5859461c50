package dev.cairn.healthprober.schedule;

import dev.cairn.commonmodel.health.ProbeStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The prober's meters that carry a peer tag: {@code cairn.prober.probe.latency} (histogram of reply
 * round trips), {@code cairn.prober.results} (host probes per status) and {@code
 * cairn.prober.probes.skipped} (host probes not sent while the peer's circuit was open).
 */
public final class ProbeMetrics {

  private final MeterRegistry registry;
  private final ConcurrentHashMap<String, Timer> latency = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Counter> results = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Counter> skipped = new ConcurrentHashMap<>();

  public ProbeMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void latency(String peer, long nanos) {
    latency
        .computeIfAbsent(
            peer,
            p ->
                Timer.builder("cairn.prober.probe.latency")
                    .description("round trip of a DNS reply from a peer")
                    .tag("peer", p)
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofNanos(20_000))
                    .maximumExpectedValue(Duration.ofSeconds(10))
                    .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  void result(String peer, ProbeStatus status) {
    results
        .computeIfAbsent(
            peer + "|" + status,
            k ->
                Counter.builder("cairn.prober.results")
                    .description("host probes by outcome")
                    .tag("peer", peer)
                    .tag("status", status.name())
                    .register(registry))
        .increment();
  }

  void skipped(String peer) {
    skipped
        .computeIfAbsent(
            peer,
            p ->
                Counter.builder("cairn.prober.probes.skipped")
                    .description("host probes not sent because the peer's circuit was open")
                    .tag("peer", p)
                    .register(registry))
        .increment();
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
    results
        .entrySet()
        .removeIf(
            e -> {
              if (e.getKey().startsWith(peer + "|")) {
                registry.remove(e.getValue());
                return true;
              }
              return false;
            });
  }
}
