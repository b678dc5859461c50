package dev.cairn.recordwriter.plan;

import dev.cairn.commonmodel.decision.TargetDecision;
import java.util.Map;

/**
 * Every decision the writer knows, keyed by the source's {@code ObjectRef.key()}, and whether that
 * view is complete: the decisions topic has been read to the end offsets seen at start. An
 * incomplete view may lack decisions that still exist, so a plan made from it deletes nothing.
 *
 * @param decisions the decisions by source key
 * @param complete true once the decisions topic has been read to its end
 * @param heldElsewhere per DNSEndpoint, the DNS names its decision publishes that another of
 *     Cairn's DNSEndpoints keeps ({@link NameHolders}), with that DNSEndpoint
 */
public record DesiredState(
    Map<String, TargetDecision> decisions,
    boolean complete,
    Map<ObjectKey, Map<DnsName, ObjectKey>> heldElsewhere) {

  public DesiredState {
    decisions = decisions == null ? Map.of() : Map.copyOf(decisions);
    heldElsewhere = heldElsewhere == null ? Map.of() : Map.copyOf(heldElsewhere);
  }

  /** Decisions whose names no other DNSEndpoint keeps. */
  public DesiredState(Map<String, TargetDecision> decisions, boolean complete) {
    this(decisions, complete, Map.of());
  }
}
