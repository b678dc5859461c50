package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.Copies;
import dev.cairn.commonmodel.decision.Explanation.Skipped;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Objects;

/**
 * The targets a route's placement chose, for a Gslb's node-aware local targets ({@link
 * PlacementDecider#nodeAwareTargets}).
 *
 * @param targets the chosen targets, sorted by record type then value; empty when the placement
 *     publishes nothing
 * @param summary the placement's explanation in one sentence
 * @param zones the backend zones found, sorted
 * @param candidateNodes the nodes whose targets were considered, in the order considered
 * @param skipped what the placement left out and why (a node without a publishable address, an
 *     address that is not a valid literal), as the route's own decision lists it
 * @param problems the invalid inputs the placement found (a node's malformed address), without the
 *     route's own problems from the watcher
 * @param dependencies what the placement read
 */
public record NodeAwareTargets(
    List<Target> targets,
    String summary,
    List<String> zones,
    List<String> candidateNodes,
    List<Skipped> skipped,
    List<Problem> problems,
    PlacementDependencies dependencies) {

  public NodeAwareTargets {
    targets = Copies.list(targets);
    Objects.requireNonNull(summary, "summary");
    zones = Copies.list(zones);
    candidateNodes = Copies.list(candidateNodes);
    skipped = Copies.list(skipped);
    problems = Copies.list(problems);
    Objects.requireNonNull(dependencies, "dependencies");
  }
}
