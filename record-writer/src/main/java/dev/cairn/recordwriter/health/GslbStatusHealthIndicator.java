package dev.cairn.recordwriter.health;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.recordwriter.kafka.StateFeed;
import dev.cairn.recordwriter.kube.GslbStore;
import dev.cairn.recordwriter.reconcile.GslbStatusReports;
import dev.cairn.recordwriter.status.StatusPlan;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * DOWN when the Gslb status reader stopped on a newer schema version, OUT_OF_SERVICE until the
 * status topic has been read to its end (until then no status is written), UP after. Gslbs are
 * optional: an API server without the Gslb CRD is reported, not a failure.
 */
public final class GslbStatusHealthIndicator implements HealthIndicator {

  private final StateFeed<GslbStatus> feed;
  private final GslbStore store;
  private final GslbStatusReports reports;

  /** Reports on these parts. */
  public GslbStatusHealthIndicator(
      StateFeed<GslbStatus> feed, GslbStore store, GslbStatusReports reports) {
    this.feed = feed;
    this.store = store;
    this.reports = reports;
  }

  @Override
  public Health health() {
    Map<String, Integer> states = new TreeMap<>();
    reports.countByState().forEach((k, v) -> states.put(k.name(), v));
    for (StatusPlan.Action a : StatusPlan.Action.values()) {
      states.putIfAbsent(a.name(), 0);
    }
    return FeedHealth.of(feed, "Gslb status topic")
        .withDetail("statuses", feed.size())
        .withDetail("malformedSkipped", feed.malformedCount())
        .withDetail("gslbApiServed", store.served())
        .withDetail("gslbsWatched", store.watching())
        .withDetail("states", states)
        .build();
  }
}
