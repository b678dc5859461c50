package dev.cairn.recordwriter.reconcile;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.status.StatusPlan;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest {@link GslbStatusReport} of every Gslb whose status the writer planned. Written by the
 * status reconciler, read by the explain API and health. Thread-safe.
 */
public final class GslbStatusReports {

  private final Map<ObjectKey, GslbStatusReport> reports = new ConcurrentHashMap<>();

  /** The report of one Gslb. */
  public Optional<GslbStatusReport> get(ObjectKey key) {
    return Optional.ofNullable(reports.get(key));
  }

  /** The number of Gslbs per state of their last plan. */
  public Map<StatusPlan.Action, Integer> countByState() {
    Map<StatusPlan.Action, Integer> counts = new EnumMap<>(StatusPlan.Action.class);
    reports.values().forEach(r -> counts.merge(r.state(), 1, Integer::sum));
    return counts;
  }

  /** Records a plan; returns the report it replaces, or {@code null}. */
  GslbStatusReport planned(StatusPlan plan, GslbStatus desired, Instant at) {
    GslbStatusReport before = reports.get(plan.key());
    reports.put(
        plan.key(),
        GslbStatusReport.of(plan, desired, before == null ? null : before.lastWrite(), at));
    return before;
  }

  void written(ObjectKey key, GslbStatusReport.LastWrite write) {
    reports.computeIfPresent(key, (k, r) -> r.withLastWrite(write));
  }

  void remove(ObjectKey key) {
    reports.remove(key);
  }

  /** Drops the reports of Gslbs that have no status any more. */
  void retainOnly(Collection<ObjectKey> keys) {
    Set<ObjectKey> keep = Set.copyOf(keys);
    reports.keySet().removeIf(k -> !keep.contains(k));
  }
}
