package dev.cairn.recordwriter.health;

import dev.cairn.recordwriter.kafka.StateFeed;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether the record-writer's own threads still run ({@code writerThreads}, in the liveness group):
 * the planning loops (DNSEndpoints, Gslb statuses, embedded Ingresses), the write dispatcher and
 * the two topic readers (decisions, statuses). A thread that an unexpected error ended does not
 * come back, so DOWN asks the orchestrator to restart the process instead of leaving it up and
 * idle. A reader stopped on a newer schema version is not a failure (readiness reports it; a
 * restart would meet the same record).
 */
public final class WriterThreadsHealthIndicator implements HealthIndicator {

  private final List<Supplier<String>> threads;
  private final List<StateFeed<?>> feeds;

  /**
   * An indicator.
   *
   * @param threads what ended each critical thread unexpectedly, {@code null} while it runs
   * @param feeds the topic readers
   */
  public WriterThreadsHealthIndicator(List<Supplier<String>> threads, List<StateFeed<?>> feeds) {
    this.threads = List.copyOf(threads);
    this.feeds = List.copyOf(feeds);
  }

  @Override
  public Health health() {
    List<String> stopped = new ArrayList<>();
    threads.forEach(t -> add(stopped, t.get()));
    for (StateFeed<?> feed : feeds) {
      add(stopped, feed.failure());
    }
    if (stopped.isEmpty()) {
      return Health.up().build();
    }
    return Health.down()
        .withDetail("stopped", stopped)
        .withDetail(
            "reason", "a record-writer thread stopped on an unexpected error; restart the process")
        .build();
  }

  private static void add(List<String> stopped, String failure) {
    if (failure != null) {
      stopped.add(failure);
    }
  }
}
