package dev.cairn.recordwriter.reconcile;

import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.plan.ChangeReason;
import dev.cairn.recordwriter.plan.Conflict;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Outcome;
import java.time.Instant;
import java.util.List;

/**
 * What the writer last concluded and did for one DNSEndpoint; the body of the explain API.
 *
 * @param namespace the DNSEndpoint namespace
 * @param name the DNSEndpoint name
 * @param source the source whose decision applies (or that holds the object)
 * @param state the state after the last plan
 * @param detail why, in one sentence
 * @param plannedChange the write the last plan called for, or {@code null}
 * @param rejectedEndpoints the decision's records that were rejected, with reasons
 * @param notes other problems with the decision that did not stop the write
 * @param conflicts refused claims on this object, naming both parties
 * @param staleSince when targets went away, while in grace
 * @param graceExpiresAt when the record will be deleted unless targets return
 * @param staleSinceReset a recorded grace start that was not usable, or {@code null}
 * @param lastWrite the last write sent for this object, or {@code null}
 * @param plannedAt when the last plan ran
 */
public record RecordReport(
    String namespace,
    String name,
    String source,
    Outcome.State state,
    String detail,
    ChangeReason plannedChange,
    List<Problem> rejectedEndpoints,
    List<Problem> notes,
    List<ConflictView> conflicts,
    Instant staleSince,
    Instant graceExpiresAt,
    Outcome.StaleSinceReset staleSinceReset,
    LastWrite lastWrite,
    Instant plannedAt) {

  /**
   * A refused claim.
   *
   * @param claimant the source that was refused
   * @param holder who holds the object
   * @param kind why
   * @param message both parties in one sentence
   */
  public record ConflictView(String claimant, String holder, Conflict.Kind kind, String message) {
    static ConflictView of(Conflict c) {
      return new ConflictView(c.claimant(), c.holder(), c.kind(), c.describe());
    }
  }

  /**
   * A write sent to the API server.
   *
   * @param operation create, update or delete
   * @param reason why it was planned
   * @param result the result status
   * @param detail the result in words
   * @param at when
   */
  public record LastWrite(
      String operation, ChangeReason reason, String result, String detail, Instant at) {}

  static RecordReport of(Outcome o, LastWrite lastWrite, Instant at) {
    ObjectKey key = o.key();
    return new RecordReport(
        key.namespace(),
        key.name(),
        o.source(),
        o.state(),
        o.detail(),
        o.change(),
        o.rejected(),
        o.notes(),
        o.conflicts().stream().map(ConflictView::of).toList(),
        o.grace() == null ? null : o.grace().staleSince(),
        o.grace() == null ? null : o.grace().expiresAt(),
        o.staleSinceReset(),
        lastWrite,
        at);
  }

  RecordReport withLastWrite(LastWrite write) {
    return new RecordReport(
        namespace,
        name,
        source,
        state,
        detail,
        plannedChange,
        rejectedEndpoints,
        notes,
        conflicts,
        staleSince,
        graceExpiresAt,
        staleSinceReset,
        write,
        plannedAt);
  }
}
