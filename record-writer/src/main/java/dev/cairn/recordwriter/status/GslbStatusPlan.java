package dev.cairn.recordwriter.status;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.ObjectNames;
import dev.cairn.recordwriter.status.StatusPlan.Action;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides whether the status of one Gslb must be written: from the engine's desired status and the
 * object as it is, never from the last event, so planning a converged Gslb again gives no write.
 *
 * <ul>
 *   <li>A Gslb that does not exist is skipped: Cairn writes statuses and never creates Gslbs.
 *   <li>A status decided for another uid than the object's is skipped: the Gslb was deleted and
 *       recreated under the same name, and the engine has not decided for the new one yet. A status
 *       without a uid is applied to the object of that name.
 *   <li>Otherwise the desired status is {@linkplain GslbStatusForm#render rendered} and compared to
 *       the object's in {@linkplain GslbStatusForm#known normal form}; only a difference is
 *       written, as the object's status with Cairn's fields replaced.
 * </ul>
 */
public final class GslbStatusPlan {

  /** The kind in the key of {@code cairn.decision.gslb-status.v1}. */
  public static final String KIND = "Gslb";

  private GslbStatusPlan() {}

  /**
   * The Gslb a status-topic key names ({@code Gslb/<namespace>/<name>}), or empty when the key is
   * not one: another kind, cluster-scoped, or names that are not valid Kubernetes names.
   */
  public static Optional<ObjectKey> keyOf(String topicKey) {
    ObjectRef ref;
    try {
      ref = ObjectRef.parse(topicKey);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (!KIND.equals(ref.kind())
        || !ObjectNames.isLabel(ref.namespace())
        || !ObjectNames.isSubdomain(ref.name())) {
      return Optional.empty();
    }
    return Optional.of(ObjectKey.of(ref.namespace(), ref.name()));
  }

  /**
   * Plans one Gslb's status.
   *
   * @param key the Gslb, from the status's topic key
   * @param desired the engine's desired status
   * @param live the object as read, or {@code null} when it does not exist
   */
  public static StatusPlan plan(ObjectKey key, GslbStatus desired, LiveGslb live) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(desired, "desired");
    if (!key.namespace().equals(desired.namespace()) || !key.name().equals(desired.name())) {
      Problem problem =
          new Problem(
              "namespace/name",
              desired.namespace() + "/" + desired.name(),
              "the status is keyed " + KIND + "/" + key + " but names another Gslb");
      return skip(key, Action.INVALID, "the status does not match its key", List.of(problem));
    }
    if (live == null) {
      return skip(
          key,
          Action.MISSING_GSLB,
          "Gslb " + key + " does not exist; Cairn writes statuses and never creates Gslbs",
          List.of());
    }
    String wanted = desired.uid();
    if (wanted != null && !wanted.isBlank() && live.uid() != null && !wanted.equals(live.uid())) {
      return skip(
          key,
          Action.UID_MISMATCH,
          "the status was decided for uid "
              + wanted
              + " but Gslb "
              + key
              + " has uid "
              + live.uid()
              + " (deleted and recreated); waiting for a status for the new object",
          List.of());
    }
    GslbStatusForm.Rendered rendered = GslbStatusForm.render(desired);
    Map<String, Object> current = GslbStatusForm.known(live.status());
    if (current.equals(rendered.fields())) {
      return new StatusPlan(
          key, Action.IN_SYNC, null, null, "the status is up to date", rendered.problems());
    }
    return new StatusPlan(
        key,
        Action.WRITE,
        live.version(),
        GslbStatusForm.merge(live.status(), rendered.fields()),
        live.status() == null
            ? "the Gslb has no status yet"
            : "the status differs in " + String.join(", ", differing(current, rendered.fields())),
        rendered.problems());
  }

  /** The Cairn fields whose values differ between two statuses in normal form, sorted. */
  static List<String> differing(Map<String, Object> current, Map<String, Object> desired) {
    return GslbStatusForm.FIELDS.stream()
        .filter(f -> !Objects.equals(current.get(f), desired.get(f)))
        .sorted()
        .toList();
  }

  private static StatusPlan skip(
      ObjectKey key, Action action, String detail, List<Problem> problems) {
    return new StatusPlan(key, action, null, null, detail, problems);
  }
}
