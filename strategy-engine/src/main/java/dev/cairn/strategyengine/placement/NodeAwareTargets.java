package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.Copies;
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
 * @param dependencies what the placement read
 */
public record NodeAwareTargets(
    List<Target> targets,
    String summary,
    List<String> zones,
    List<String> candidateNodes,
    PlacementDependencies dependencies) {

  public NodeAwareTargets {
    targets = Copies.list(targets);
    Objects.requireNonNull(summary, "summary");
    zones = Copies.list(zones);
    candidateNodes = Copies.list(candidateNodes);
    Objects.requireNonNull(dependencies, "dependencies");
  }
}
