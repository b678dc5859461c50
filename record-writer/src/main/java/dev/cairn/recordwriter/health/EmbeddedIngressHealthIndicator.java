package dev.cairn.recordwriter.health;

import dev.cairn.recordwriter.ingress.IngressPlan;
import dev.cairn.recordwriter.kube.IngressStore;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.reconcile.EmbeddedIngressReconciler;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The Ingresses created for Gslbs that embed {@code spec.ingress} ({@code embeddedIngress}): the
 * count per plan outcome, and each Gslb whose Ingress cannot be written (its name held by another
 * Ingress, or refused by the API server) with the reason. Informational: not part of readiness or
 * liveness (the loop's thread is watched by {@code writerThreads}).
 */
public final class EmbeddedIngressHealthIndicator implements HealthIndicator {

  private static final int MAX_LISTED = 20;

  private final boolean enabled;
  private final EmbeddedIngressReconciler reconciler;
  private final IngressStore store;

  /** Reports on these parts; {@code enabled} is {@code writer.embedded-ingress.enabled}. */
  public EmbeddedIngressHealthIndicator(
      boolean enabled, EmbeddedIngressReconciler reconciler, IngressStore store) {
    this.enabled = enabled;
    this.reconciler = reconciler;
    this.store = store;
  }

  @Override
  public Health health() {
    if (!enabled) {
      return Health.up().withDetail("enabled", false).build();
    }
    Map<String, Integer> counts = new TreeMap<>();
    for (IngressPlan.Action a : IngressPlan.Action.values()) {
      if (a != IngressPlan.Action.NONE) {
        counts.put(a.name(), 0);
      }
    }
    Map<String, String> attention = new TreeMap<>();
    for (Map.Entry<ObjectKey, EmbeddedIngressReconciler.State> e : reconciler.states().entrySet()) {
      EmbeddedIngressReconciler.State s = e.getValue();
      counts.merge(s.action().name(), 1, Integer::sum);
      if ((s.action() == IngressPlan.Action.CONFLICT || s.refused())
          && attention.size() < MAX_LISTED) {
        attention.put(
            e.getKey().toString(), s.refused() ? "refused: " + s.lastWrite().detail() : s.detail());
      }
    }
    return Health.up()
        .withDetail("enabled", true)
        .withDetail("caughtUp", reconciler.caughtUp())
        .withDetail("ingressesWatched", store.watching())
        .withDetail("pending", reconciler.pending())
        .withDetail("states", counts)
        .withDetail("notWritten", attention)
        .build();
  }
}
