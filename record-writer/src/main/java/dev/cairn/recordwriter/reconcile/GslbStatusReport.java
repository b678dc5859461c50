package dev.cairn.recordwriter.reconcile;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.status.StatusPlan;
import java.time.Instant;
import java.util.List;

/**
 * What the writer last concluded and did for the status of one Gslb; part of the explain API.
 *
 * @param namespace the Gslb namespace
 * @param name the Gslb name
 * @param state the conclusion of the last plan
 * @param detail why, in one sentence
 * @param desiredUid the uid the status was decided for, or {@code null}
 * @param problems the problems the engine reported with the Gslb (shown as an {@code InvalidSpec}
 *     Event on it, since the status schema has no field for them)
 * @param notWritten values of the desired status the writer could not write as they are
 * @param lastWrite the last status write sent, or {@code null}
 * @param plannedAt when the last plan ran
 */
public record GslbStatusReport(
    String namespace,
    String name,
    StatusPlan.Action state,
    String detail,
    String desiredUid,
    List<String> problems,
    List<Problem> notWritten,
    LastWrite lastWrite,
    Instant plannedAt) {

  public GslbStatusReport {
    problems = List.copyOf(problems);
    notWritten = List.copyOf(notWritten);
  }

  /**
   * A status write sent to the API server.
   *
   * @param result the result status ({@code DONE}, {@code CONFLICT}, ...)
   * @param detail the result in words
   * @param at when
   */
  public record LastWrite(String result, String detail, Instant at) {}

  static GslbStatusReport of(
      StatusPlan plan, GslbStatus desired, LastWrite lastWrite, Instant plannedAt) {
    return new GslbStatusReport(
        plan.key().namespace(),
        plan.key().name(),
        plan.action(),
        plan.detail(),
        desired.uid(),
        desired.problems(),
        plan.problems(),
        lastWrite,
        plannedAt);
  }

  GslbStatusReport withLastWrite(LastWrite write) {
    return new GslbStatusReport(
        namespace, name, state, detail, desiredUid, problems, notWritten, write, plannedAt);
  }
}
