package dev.cairn.recordwriter.plan;

import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The result of {@link RecordPlan#plan}: the writes to make and, per object, what was concluded.
 *
 * @param changes the creates, updates and deletes
 * @param outcomes the conclusion for every object the plan looked at
 * @param invalidDecisions decisions that name no usable object, keyed by source
 */
public record Plan(
    Changes changes, Map<ObjectKey, Outcome> outcomes, Map<String, Problem> invalidDecisions) {

  public Plan {
    Objects.requireNonNull(changes, "changes");
    outcomes = Map.copyOf(outcomes);
    invalidDecisions = Map.copyOf(invalidDecisions);
  }

  /** Every refused claim. */
  public List<Conflict> conflicts() {
    return outcomes.values().stream().flatMap(o -> o.conflicts().stream()).toList();
  }

  /** The objects kept without targets, with their grace periods. */
  public Map<ObjectKey, Outcome.Grace> graceWindows() {
    return outcomes.values().stream()
        .filter(o -> o.state() == Outcome.State.IN_GRACE && o.grace() != null)
        .collect(java.util.stream.Collectors.toMap(Outcome::key, Outcome::grace));
  }
}
