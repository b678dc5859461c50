package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.Copies;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of deciding one Gslb.
 *
 * @param decision the desired DNSEndpoint, {@code null} when the Gslb could not be decided (invalid
 *     spec, no geo tag): the previous decision must stay
 * @param status the desired status; when not decided it carries the problems only, and the adapter
 *     keeps the rest of the previous status
 * @param report the full story for the explain API
 * @param dependencies the inputs read, and when to decide again
 * @param problems every problem found (the topology-watcher's first), each naming its field
 */
public record GslbOutcome(
    TargetDecision decision,
    GslbStatus status,
    GslbReport report,
    GslbDependencies dependencies,
    List<Problem> problems) {

  public GslbOutcome {
    problems = Copies.list(problems);
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(report, "report");
    Objects.requireNonNull(dependencies, "dependencies");
  }

  /** True when the Gslb was decided (its spec is valid and the geo tag is set). */
  public boolean decided() {
    return decision != null;
  }
}
