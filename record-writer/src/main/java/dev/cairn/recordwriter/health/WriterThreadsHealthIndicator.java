package dev.cairn.recordwriter.health;

import dev.cairn.recordwriter.kafka.StateFeed;
import dev.cairn.recordwriter.reconcile.GslbStatusReconciler;
import dev.cairn.recordwriter.reconcile.RecordReconciler;
import dev.cairn.recordwriter.reconcile.WriteScheduler;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether the record-writer's own threads still run ({@code writerThreads}, in the liveness group):
 * the two planning loops (DNSEndpoints, Gslb statuses), the write dispatcher and the two topic
 * readers (decisions, statuses). A thread that an unexpected error ended does not come back, so
 * DOWN asks the orchestrator to restart the process instead of leaving it up and idle. A reader
 * stopped on a newer schema version is not a failure (readiness reports it; a restart would meet
 * the same record).
 */
public final class WriterThreadsHealthIndicator implements HealthIndicator {

  private final RecordReconciler records;
  private final GslbStatusReconciler statuses;
  private final WriteScheduler scheduler;
  private final List<StateFeed<?>> feeds;

  public WriterThreadsHealthIndicator(
      RecordReconciler records,
      GslbStatusReconciler statuses,
      WriteScheduler scheduler,
      List<StateFeed<?>> feeds) {
    this.records = records;
    this.statuses = statuses;
    this.scheduler = scheduler;
    this.feeds = List.copyOf(feeds);
  }

  @Override
  public Health health() {
    List<String> stopped = new ArrayList<>();
    add(stopped, records.failure());
    add(stopped, statuses.failure());
    add(stopped, scheduler.failure());
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
