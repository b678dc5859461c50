package dev.cairn.topologywatcher.health;

import dev.cairn.topologywatcher.state.Entity;
import dev.cairn.topologywatcher.state.TopologyView;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The watcher's Micrometer meters.
 *
 * <ul>
 *   <li>{@code cairn.watcher.events.published} (counter; {@code kind}, {@code op=upsert|delete}):
 *       records acknowledged by Kafka; {@code kind} is an {@link Entity} label or {@code
 *       SyncMarker};
 *   <li>{@code cairn.watcher.publish.failures} (counter; {@code kind}): sends that failed and will
 *       be retried;
 *   <li>{@code cairn.watcher.objects} and {@code cairn.watcher.objects.problems} (gauges; {@code
 *       kind}): keys in the view, and those whose record names a problem;
 *   <li>{@code cairn.watcher.resyncs} (counter; {@code kind}): completed full re-lists;
 *   <li>{@code cairn.watcher.sync.age} (gauge, seconds): time since the view was last confirmed
 *       complete (SYNCED published, or a round of re-lists that listed every kind again or found it
 *       not served); NaN before the first;
 *   <li>{@code cairn.watcher.leader} (gauge): 1 while this replica publishes, else 0.
 * </ul>
 */
public final class WatcherMetrics {

  /** The {@code kind} tag of sync markers. */
  public static final String SYNC_MARKER = "SyncMarker";

  private final MeterRegistry registry;
  private final Clock clock;
  private final Map<Entity, Counter> resyncs = new EnumMap<>(Entity.class);
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final AtomicBoolean leader = new AtomicBoolean();
  private final AtomicReference<Instant> lastSync = new AtomicReference<>();

  public WatcherMetrics(MeterRegistry registry, TopologyView view, Clock clock) {
    this.registry = registry;
    this.clock = clock;
    for (Entity e : Entity.values()) {
      String kind = e.label();
      published(kind, "upsert");
      published(kind, "delete");
      failures(kind);
      resyncs.put(
          e,
          Counter.builder("cairn.watcher.resyncs")
              .description("Completed full re-lists of a kind")
              .tag("kind", kind)
              .register(registry));
      Gauge.builder("cairn.watcher.objects", view, v -> v.size(e))
          .description("Keys of a kind in the watcher's view")
          .tag("kind", kind)
          .register(registry);
      Gauge.builder("cairn.watcher.objects.problems", view, v -> v.withProblems(e))
          .description("Keys of a kind whose record names at least one problem")
          .tag("kind", kind)
          .register(registry);
    }
    published(SYNC_MARKER, "upsert");
    Gauge.builder("cairn.watcher.sync.age", this, WatcherMetrics::syncAgeSeconds)
        .description("Seconds since the view was last confirmed complete")
        .baseUnit("seconds")
        .register(registry);
    Gauge.builder("cairn.watcher.leader", leader, l -> l.get() ? 1 : 0)
        .description("1 while this replica is the publishing leader")
        .register(registry);
  }

  /** A record of a kind was acknowledged. */
  public void published(String kind, boolean tombstone) {
    String op = tombstone ? "delete" : "upsert";
    counters.computeIfAbsent(kind + "|" + op, k -> published(kind, op)).increment();
  }

  /** A send of a kind failed. */
  public void publishFailed(String kind) {
    counters.computeIfAbsent(kind + "|failed", k -> failures(kind)).increment();
  }

  /** A full re-list of an entity completed. */
  public void resynced(Entity entity) {
    resyncs.get(entity).increment();
  }

  /** The view was confirmed complete now. */
  public void synced() {
    lastSync.set(clock.instant());
  }

  /** This replica started or stopped publishing. */
  public void leader(boolean isLeader) {
    leader.set(isLeader);
  }

  private Counter published(String kind, String op) {
    return Counter.builder("cairn.watcher.events.published")
        .description("Records published to the topology topics")
        .tag("kind", kind)
        .tag("op", op)
        .register(registry);
  }

  private Counter failures(String kind) {
    return Counter.builder("cairn.watcher.publish.failures")
        .description("Sends to Kafka that failed and are retried")
        .tag("kind", kind)
        .register(registry);
  }

  private double syncAgeSeconds() {
    Instant at = lastSync.get();
    if (at == null) {
      return Double.NaN;
    }
    return Duration.between(at, clock.instant()).toMillis() / 1000.0;
  }
}
