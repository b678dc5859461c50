package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.decision.TargetDecision;
import java.util.Objects;

/**
 * The outcome of placing one route: the desired decision and the inputs it depended on.
 *
 * @param decision the desired DNSEndpoint state
 * @param dependencies what the decision was computed from, besides the route
 */
public record Placement(TargetDecision decision, PlacementDependencies dependencies) {

  public Placement {
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(dependencies, "dependencies");
  }
}
