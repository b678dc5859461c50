package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;

/**
 * One output of the decision processor, routed to its topic by type, as the bytes it was stored
 * with ({@link EncodedStore}); a {@code null} value is a tombstone.
 */
sealed interface EngineOutput {

  /** The encoded value, {@code null} for a tombstone. */
  byte[] value();

  /** An encoded {@link TargetDecision} for {@code cairn.decision.targets.v1}. */
  record DecisionOutput(byte[] value) implements EngineOutput {}

  /** An encoded {@link GslbStatus} for {@code cairn.decision.gslb-status.v1}. */
  record StatusOutput(byte[] value) implements EngineOutput {}
}
