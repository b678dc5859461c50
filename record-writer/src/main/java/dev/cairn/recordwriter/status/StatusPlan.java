package dev.cairn.recordwriter.status;

import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.plan.ObjectKey;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link GslbStatusPlan} concluded for one Gslb: write its status, leave it, or skip it, and
 * why.
 *
 * @param key the Gslb
 * @param action what to do
 * @param version for {@link Action#WRITE}, the resourceVersion the write is conditional on
 * @param status for {@link Action#WRITE}, the complete status to write; otherwise {@code null}
 * @param detail one sentence on why
 * @param problems values of the desired status that could not be written as they are (the rest is
 *     written), or why the status is unusable ({@link Action#INVALID})
 */
public record StatusPlan(
    ObjectKey key,
    Action action,
    String version,
    Map<String, Object> status,
    String detail,
    List<Problem> problems) {

  /** The outcome for one Gslb. */
  public enum Action {
    /** The status differs from the desired one: write it through the status subresource. */
    WRITE,
    /** The status already is the desired one: nothing to write. */
    IN_SYNC,
    /** No Gslb of that name exists: skipped (Cairn never creates Gslbs). */
    MISSING_GSLB,
    /** The status was decided for another object of the same name: skipped. */
    UID_MISMATCH,
    /** The status names no valid Gslb or does not match its key: skipped. */
    INVALID
  }

  public StatusPlan {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(detail, "detail");
    problems = List.copyOf(problems);
    if ((action == Action.WRITE) != (status != null)) {
      throw new IllegalArgumentException("a status to write goes with WRITE, and only with it");
    }
  }

  /** True when the status is skipped (missing Gslb, uid mismatch, invalid). */
  public boolean skipped() {
    return action == Action.MISSING_GSLB
        || action == Action.UID_MISMATCH
        || action == Action.INVALID;
  }
}
