package dev.cairn.recordwriter.health;

import dev.cairn.recordwriter.ingress.GslbFromIngressPlan;
import dev.cairn.recordwriter.kube.AnnotatedIngressStore;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.reconcile.IngressAnnotationReconciler;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The Gslbs of Ingresses annotated {@code k8gb.io/strategy} ({@code ingressAnnotations}): the count
 * per plan outcome, and each Ingress whose Gslb was not written (annotations Cairn cannot use, a
 * Gslb of its name that is not its own, a refusal by the API server) with the reason.
 * Informational: not part of readiness or liveness (the loop's thread is watched by {@code
 * writerThreads}).
 */
public final class IngressAnnotationsHealthIndicator implements HealthIndicator {

  private static final int MAX_LISTED = 20;

  private final boolean enabled;
  private final IngressAnnotationReconciler reconciler;
  private final AnnotatedIngressStore store;

  /** Reports on these parts; {@code enabled} is {@code writer.ingress-annotations.enabled}. */
  public IngressAnnotationsHealthIndicator(
      boolean enabled, IngressAnnotationReconciler reconciler, AnnotatedIngressStore store) {
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
    for (GslbFromIngressPlan.Action a : GslbFromIngressPlan.Action.values()) {
      if (a != GslbFromIngressPlan.Action.NONE) {
        counts.put(a.name(), 0);
      }
    }
    Map<String, String> attention = new TreeMap<>();
    for (Map.Entry<ObjectKey, IngressAnnotationReconciler.State> e :
        reconciler.states().entrySet()) {
      IngressAnnotationReconciler.State s = e.getValue();
      counts.merge(s.action().name(), 1, Integer::sum);
      boolean notWritten =
          s.action() == GslbFromIngressPlan.Action.CONFLICT
              || s.action() == GslbFromIngressPlan.Action.INVALID
              || s.refused();
      if (notWritten && attention.size() < MAX_LISTED) {
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
