package dev.cairn.topologywatcher.health;

import dev.cairn.topologywatcher.kube.KindStatus;
import dev.cairn.topologywatcher.kube.KubeWatcher;
import dev.cairn.topologywatcher.lifecycle.WatcherStatus;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the watcher, part of the readiness group.
 *
 * <p>UP when the leader has published SYNCED for its current generation, or when a standby's
 * informers have all finished their initial list (it is a warm standby that can take over; were it
 * DOWN, a two-replica Deployment would never become available and rolling updates would stall).
 * DOWN otherwise, e.g. a leader between SYNCING and SYNCED.
 *
 * <p>Details: cluster, identity, role, observed leader, generation and phase, every kind's informer
 * state, and the kinds whose CRD is not installed.
 */
public final class WatcherHealthIndicator implements HealthIndicator {

  private final WatcherStatus status;
  private final KubeWatcher kube;
  private final String clusterName;
  private final String lease;

  public WatcherHealthIndicator(
      WatcherStatus status, KubeWatcher kube, String clusterName, String lease) {
    this.status = status;
    this.kube = kube;
    this.clusterName = clusterName;
    this.lease = lease;
  }

  @Override
  public Health health() {
    boolean leader = status.role() == WatcherStatus.Role.LEADER;
    boolean ready = leader ? status.leaderSynced() : kube.initialSync().isDone();
    Health.Builder health = ready ? Health.up() : Health.down();
    health.withDetail("cluster", clusterName);
    health.withDetail("identity", status.identity());
    health.withDetail("role", status.role().name().toLowerCase(Locale.ROOT));
    health.withDetail("leaderElection", status.electionEnabled() ? lease : "disabled");
    if (status.leaderIdentity() != null) {
      health.withDetail("leader", status.leaderIdentity());
    }
    if (status.generation() != null) {
      health.withDetail("generation", status.generation());
      health.withDetail("phase", String.valueOf(status.phase()));
    }
    if (status.syncedAt() != null) {
      health.withDetail("syncedAt", status.syncedAt().toString());
    }
    if (status.problem() != null) {
      health.withDetail("problem", status.problem());
    }
    Map<String, Object> kinds = new LinkedHashMap<>();
    for (KindStatus k : kube.status()) {
      Map<String, Object> detail = new LinkedHashMap<>();
      detail.put("phase", k.phase());
      detail.put("synced", k.synced());
      detail.put("watching", k.watching());
      if (k.apiVersion() != null) {
        detail.put("apiVersion", k.apiVersion());
      }
      detail.put("objects", k.objects());
      if (k.lastList() != null) {
        detail.put("lastList", k.lastList().toString());
      }
      if (k.message() != null) {
        detail.put("message", k.message());
      }
      kinds.put(k.kind(), detail);
    }
    health.withDetail("kinds", kinds);
    health.withDetail("missingCrds", kube.missingKinds());
    return health.build();
  }
}
