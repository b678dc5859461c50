package dev.cairn.recordwriter.health;

import dev.cairn.recordwriter.kube.DnsEndpointCache;
import dev.cairn.recordwriter.lifecycle.WriterLifecycle;
import dev.cairn.recordwriter.reconcile.RecordReconciler;
import dev.cairn.recordwriter.reconcile.RecordReports;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** UP while the informer on owned DNSEndpoints is synced and watching, with the writer's counts. */
public final class DnsEndpointsHealthIndicator implements HealthIndicator {

  private final WriterLifecycle lifecycle;
  private final DnsEndpointCache cache;
  private final RecordReconciler reconciler;
  private final RecordReports reports;

  /** Reports on these parts. */
  public DnsEndpointsHealthIndicator(
      WriterLifecycle lifecycle,
      DnsEndpointCache cache,
      RecordReconciler reconciler,
      RecordReports reports) {
    this.lifecycle = lifecycle;
    this.cache = cache;
    this.reconciler = reconciler;
    this.reports = reports;
  }

  @Override
  public Health health() {
    Health.Builder b =
        lifecycle.synced() && lifecycle.watching()
            ? Health.up()
            : Health.down()
                .withDetail("reason", "the informer on owned DNSEndpoints is not watching");
    return b.withDetail("owned", cache.ownedCount())
        .withDetail("inGrace", reports.inGrace())
        .withDetail("pending", reconciler.pending())
        .withDetail("invalidDecisions", reports.invalidDecisions().size())
        .build();
  }
}
