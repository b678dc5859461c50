package dev.cairn.dnsresponder.health;

import dev.cairn.dnsresponder.answer.ServingState;
import dev.cairn.dnsresponder.store.ZoneCache;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Health of the responder ({@code dnsResponder}, part of readiness). UP when serving records:
 * {@code state} is {@code synced}, or {@code from-snapshot} (degraded: the API server was not
 * reachable at start, the local copy is served). DOWN while {@code unsynced}: in-zone names get
 * SERVFAIL. Details show the snapshot size and age, the last rebuild failure and whether the
 * watches are connected.
 */
@Component("dnsResponderHealthIndicator")
class ResponderHealthIndicator implements HealthIndicator {

  private final ZoneCache cache;

  ResponderHealthIndicator(ZoneCache cache) {
    this.cache = cache;
  }

  @Override
  public Health health() {
    return health(cache.status());
  }

  /** The health of a cache in {@code status}. */
  static Health health(ZoneCache.Status status) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("state", status.state().label());
    details.put(
        "detail",
        switch (status.state()) {
          case SYNCED ->
              status.lastFailure() == null
                  ? "serving the cluster's DNSEndpoints"
                  : "serving the last view that could be built from the cluster's DNSEndpoints:"
                      + " the latest changes are not served (lastRebuildFailure)";
          case FROM_SNAPSHOT -> "serving from snapshot: the API server has not synced";
          case UNSYNCED -> "not synced and no snapshot: in-zone queries get SERVFAIL";
        });
    if (status.builtAt() != null) {
      details.put("builtAt", status.builtAt().toString());
      details.put("names", status.names());
      details.put("records", status.records());
      details.put("problems", status.problems());
    }
    details.put("watching", status.watching());
    if (status.snapshotWrittenAt() != null) {
      details.put("snapshotWrittenAt", status.snapshotWrittenAt().toString());
    }
    if (status.lastFailure() != null) {
      details.put("lastRebuildFailure", status.lastFailure());
    }
    Health.Builder builder = status.state() == ServingState.UNSYNCED ? Health.down() : Health.up();
    return builder.withDetails(details).build();
  }
}
