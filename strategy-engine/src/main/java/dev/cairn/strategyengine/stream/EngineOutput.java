package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;

/**
 * One output of the decision processor, routed to its topic by type. A {@code null} value is a
 * tombstone. Never serialised.
 */
sealed interface EngineOutput {

  /** For {@code cairn.decision.targets.v1}. */
  record DecisionOutput(TargetDecision value) implements EngineOutput {}

  /** For {@code cairn.decision.gslb-status.v1}. */
  record StatusOutput(GslbStatus value) implements EngineOutput {}
}
