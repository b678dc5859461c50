package dev.cairn.recordwriter.plan;

import dev.cairn.commonmodel.validation.Problem;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the plan concluded for one DNSEndpoint, for logs, metrics and the explain API.
 *
 * @param key the object
 * @param source the source whose decision was applied, or that held the object; may be {@code null}
 *     for an object without a source annotation
 * @param state the resulting state
 * @param change the planned write, or {@code null} when none is needed
 * @param detail one sentence on why
 * @param rejected the decision's records that were rejected, each with its reason
 * @param notes other problems with the decision that did not stop the write (labels, owner)
 * @param conflicts claims on this object that were refused
 * @param grace the grace period, when the object is kept without targets or just expired
 * @param staleSinceReset a recorded grace start that could not be used, or {@code null}
 */
public record Outcome(
    ObjectKey key,
    String source,
    State state,
    ChangeReason change,
    String detail,
    List<Problem> rejected,
    List<Problem> notes,
    List<Conflict> conflicts,
    Grace grace,
    StaleSinceReset staleSinceReset) {

  /** The state of the object after the plan is applied. */
  public enum State {
    /** The decision's records are (or are being) published. */
    PUBLISHED,
    /** No targets: the last records are kept until the grace period ends. */
    IN_GRACE,
    /** The object is (being) deleted. */
    REMOVED,
    /** Nothing is published and nothing needs to be. */
    ABSENT,
    /** A delete is due but held back: the decisions have not all been read yet. */
    DEFERRED,
    /** The object is held by someone else; the claim is refused. */
    CONFLICT,
    /** The decision is unusable; the object is left as it is. */
    INVALID
  }

  /**
   * A stale-endpoint grace period.
   *
   * @param staleSince when the targets went away
   * @param expiresAt when the record is deleted unless targets return
   */
  public record Grace(Instant staleSince, Instant expiresAt) {}

  /**
   * A recorded grace start that was not used, so the timer restarted at the plan time.
   *
   * @param found the annotation value found
   * @param cause why it was not used
   */
  public record StaleSinceReset(String found, Cause cause) {
    /** Why a recorded grace start was not used. */
    public enum Cause {
      /** It lies after the plan time (clock skew or a manual edit). */
      FUTURE,
      /** It is not an RFC 3339 time. */
      UNPARSEABLE
    }
  }

  public Outcome {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(detail, "detail");
    rejected = List.copyOf(rejected);
    notes = List.copyOf(notes);
    conflicts = List.copyOf(conflicts);
  }
}
