package dev.cairn.recordwriter.health;

import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.reconcile.WriteState;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * A loop that writes objects of its own, as health: {@code embeddedIngress} (the Ingresses of Gslbs
 * that embed {@code spec.ingress}) and {@code ingressAnnotations} (the Gslbs of Ingresses annotated
 * {@code k8gb.io/strategy}). It shows whether the loop is on and caught up, whether its informer
 * watches, the count per plan outcome, and each name whose object was not written (an outcome that
 * writes nothing and needs a user, or a refusal by the API server) with the reason. Informational:
 * always UP, not part of readiness or liveness (the loop's thread is watched by {@code
 * writerThreads}).
 *
 * @param <A> the loop's plan actions
 */
public final class WriteStatesHealthIndicator<A extends Enum<A>> implements HealthIndicator {

  private static final int MAX_LISTED = 20;

  /**
   * What the indicator reads from a loop.
   *
   * @param enabled whether the loop runs (its {@code writer.*.enabled} setting)
   * @param actions every action of its plan
   * @param unwritten the actions that write nothing and need a user (a conflict, bad input)
   * @param states the loop's last conclusion per name
   * @param caughtUp whether its informers have listed everything and planning has started
   * @param watching whether its informer is watching
   * @param pending the names waiting to be planned
   * @param <A> the plan's actions
   */
  public record Loop<A extends Enum<A>>(
      boolean enabled,
      Class<A> actions,
      Set<A> unwritten,
      Supplier<Map<ObjectKey, WriteState<A>>> states,
      BooleanSupplier caughtUp,
      BooleanSupplier watching,
      IntSupplier pending) {}

  private final Loop<A> loop;
  private final String none;

  /**
   * Reports on one loop.
   *
   * @param none the name of the plan's "nothing to do" action, not counted
   */
  public WriteStatesHealthIndicator(Loop<A> loop, String none) {
    this.loop = loop;
    this.none = none;
  }

  @Override
  public Health health() {
    if (!loop.enabled()) {
      return Health.up().withDetail("enabled", false).build();
    }
    Map<String, Integer> counts = new TreeMap<>();
    for (A a : loop.actions().getEnumConstants()) {
      if (!a.name().equals(none)) {
        counts.put(a.name(), 0);
      }
    }
    Map<String, String> attention = new TreeMap<>();
    for (Map.Entry<ObjectKey, WriteState<A>> e : loop.states().get().entrySet()) {
      WriteState<A> s = e.getValue();
      counts.merge(s.action().name(), 1, Integer::sum);
      if ((loop.unwritten().contains(s.action()) || s.refused()) && attention.size() < MAX_LISTED) {
        attention.put(
            e.getKey().toString(), s.refused() ? "refused: " + s.lastWrite().detail() : s.detail());
      }
    }
    return Health.up()
        .withDetail("enabled", true)
        .withDetail("caughtUp", loop.caughtUp().getAsBoolean())
        .withDetail("ingressesWatched", loop.watching().getAsBoolean())
        .withDetail("pending", loop.pending().getAsInt())
        .withDetail("states", counts)
        .withDetail("notWritten", attention)
        .build();
  }
}
