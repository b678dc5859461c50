package dev.cairn.recordwriter.reconcile;

import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Outcome;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest {@link RecordReport} of every DNSEndpoint the writer planned, and the decisions it
 * could not use. Written by the reconciler, read by the explain API. Thread-safe.
 */
public final class RecordReports {

  private final Map<ObjectKey, RecordReport> reports = new ConcurrentHashMap<>();
  private final Map<String, Problem> invalidDecisions = new ConcurrentHashMap<>();

  /** The report of one object. */
  public Optional<RecordReport> get(ObjectKey key) {
    return Optional.ofNullable(reports.get(key));
  }

  /**
   * The reports of every object a source wants or holds: its own, and those of the names it claims
   * that another source holds (the refused claim is in their {@code conflicts}).
   */
  public List<RecordReport> ofSource(String source) {
    return reports.values().stream()
        .filter(
            r ->
                source.equals(r.source())
                    || r.conflicts().stream().anyMatch(c -> source.equals(c.claimant())))
        .toList();
  }

  /** Every report in a given state. */
  public List<RecordReport> inState(Outcome.State state) {
    return reports.values().stream().filter(r -> r.state() == state).toList();
  }

  /** The number of objects kept in a grace period. */
  public long inGrace() {
    return reports.values().stream().filter(r -> r.state() == Outcome.State.IN_GRACE).count();
  }

  /** The decisions that name no valid object, by source key. */
  public Map<String, Problem> invalidDecisions() {
    return Map.copyOf(invalidDecisions);
  }

  RecordReport previous(ObjectKey key) {
    return reports.get(key);
  }

  void planned(Outcome outcome, Instant at) {
    RecordReport before = reports.get(outcome.key());
    reports.put(
        outcome.key(), RecordReport.of(outcome, before == null ? null : before.lastWrite(), at));
  }

  void written(ObjectKey key, RecordReport.LastWrite write) {
    reports.computeIfPresent(key, (k, r) -> r.withLastWrite(write));
  }

  /** Records a decision as invalid; true if this is news (not the same problem as before). */
  boolean invalidDecision(String source, Problem problem) {
    return !problem.equals(invalidDecisions.put(source, problem));
  }

  void decisionChanged(String source) {
    invalidDecisions.remove(source);
  }

  /**
   * Drops the report of a refused claim once nothing claims the name any more: it would go on
   * listing a claim that no longer exists under {@code ?state=CONFLICT}.
   */
  void unclaimed(ObjectKey key) {
    reports.computeIfPresent(key, (k, r) -> r.state() == Outcome.State.CONFLICT ? null : r);
  }

  /** Drops the reports of objects that no longer exist and that nothing wants. */
  void retainOnly(Collection<ObjectKey> keys) {
    Set<ObjectKey> keep = Set.copyOf(keys);
    reports.keySet().removeIf(k -> !keep.contains(k));
  }
}
