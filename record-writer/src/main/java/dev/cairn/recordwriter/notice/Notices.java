package dev.cairn.recordwriter.notice;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.notice.Notice.Reason;
import dev.cairn.recordwriter.notice.Notice.Subject;
import dev.cairn.recordwriter.plan.Conflict;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The notices a plan outcome or a Gslb status calls for. Shown on the source because the source's
 * own status is not Cairn's to write: a Gateway API route's {@code status.parents} belongs to the
 * gateway controllers, and the Gslb status schema has no conditions.
 *
 * <ul>
 *   <li>{@link Reason#RECORD_CONFLICT} on every source whose claim on a DNSEndpoint was refused
 *       (held by a foreign owner or another Cairn source), naming both owners; related to the
 *       DNSEndpoint. A claim pending the initial read of the decisions is not a conflict yet.
 *   <li>{@link Reason#INVALID_ENDPOINT} on the source whose decided records were rejected, naming
 *       each record, field and reason.
 *   <li>{@link Reason#INVALID_SPEC} on a Gslb whose status the engine decided with problems, and on
 *       any other source (an HTTPRoute) whose decision names problems (an annotation Cairn cannot
 *       read, a backend it cannot use), each with its field and value.
 * </ul>
 */
public final class Notices {

  /** The Event action of notices about DNSEndpoints. */
  public static final String PUBLISH = "PublishDNSEndpoint";

  /** The Event action of notices about Gslb statuses. */
  public static final String WRITE_STATUS = "WriteGslbStatus";

  /** The Event action of notices about a Gslb's embedded Ingress. */
  public static final String WRITE_INGRESS = "WriteEmbeddedIngress";

  /** The Event action of notices about the Gslb of an annotated Ingress. */
  public static final String WRITE_GSLB = "WriteGslbFromIngress";

  /** The apiVersion of the Gslb CRD. */
  public static final String GSLB_API_VERSION = "k8gb.io/v1beta1";

  private static final String DNS_ENDPOINT_API_VERSION = "externaldns.k8s.io/v1alpha1";

  private Notices() {}

  /**
   * The notices of one DNSEndpoint plan outcome.
   *
   * @param outcome what the plan concluded
   * @param decisions the current decision of a source key, or {@code null}; a source without a
   *     decision gets no notice (it no longer claims anything)
   */
  public static List<Notice> ofOutcome(
      Outcome outcome, Function<String, TargetDecision> decisions) {
    List<Notice> notices = new ArrayList<>();
    Subject record = dnsEndpoint(outcome.key());
    Map<String, List<Conflict>> namesHeld = new TreeMap<>();
    for (Conflict c : outcome.conflicts()) {
      if (c.kind() == Conflict.Kind.PENDING_SYNC) {
        continue;
      }
      if (c.kind() == Conflict.Kind.NAME_HELD_ELSEWHERE) {
        namesHeld.computeIfAbsent(c.claimant(), k -> new ArrayList<>()).add(c);
        continue;
      }
      TargetDecision claimant = decisions.apply(c.claimant());
      if (claimant != null) {
        notices.add(
            new Notice(source(claimant), record, Reason.RECORD_CONFLICT, PUBLISH, c.describe()));
      }
    }
    // One notice per source for the names other DNSEndpoints keep, not one per name.
    namesHeld.forEach(
        (source, held) -> {
          TargetDecision claimant = decisions.apply(source);
          if (claimant != null) {
            String names =
                held.stream()
                    .map(c -> c.name() + " (kept by " + c.holder() + ")")
                    .collect(Collectors.joining(", "));
            notices.add(
                new Notice(
                    source(claimant),
                    record,
                    Reason.RECORD_CONFLICT,
                    PUBLISH,
                    "DNSEndpoint "
                        + outcome.key()
                        + " leaves out "
                        + (held.size() == 1 ? "a name" : held.size() + " names")
                        + " that another DNSEndpoint of Cairn declares first: "
                        + names
                        + "; one DNSEndpoint per name"));
          }
        });
    if (outcome.source() != null) {
      TargetDecision source = decisions.apply(outcome.source());
      // A Gslb's problems come with its status (ofGslbStatus); a route's only with its decision.
      if (source != null && !source.problems().isEmpty() && !isGslb(source)) {
        ObjectRef ref = source.source();
        notices.add(
            new Notice(
                source(source),
                null,
                Reason.INVALID_SPEC,
                PUBLISH,
                ref.kind()
                    + " "
                    + ref.namespace()
                    + "/"
                    + ref.name()
                    + ": "
                    + source.problems().stream()
                        .map(Problem::toString)
                        .collect(Collectors.joining("; "))
                    + "; each is left out and the rest is decided without it"));
      }
    }
    if (!outcome.rejected().isEmpty() && outcome.source() != null) {
      TargetDecision source = decisions.apply(outcome.source());
      if (source != null) {
        String problems =
            outcome.rejected().stream().map(Problem::toString).collect(Collectors.joining("; "));
        String consequence =
            outcome.state() == Outcome.State.INVALID
                ? outcome.detail()
                : "the valid records are published";
        notices.add(
            new Notice(
                source(source),
                record,
                Reason.INVALID_ENDPOINT,
                PUBLISH,
                "DNSEndpoint "
                    + outcome.key()
                    + ": "
                    + outcome.rejected().size()
                    + (outcome.rejected().size() == 1 ? " record" : " records")
                    + " rejected ("
                    + problems
                    + "); "
                    + consequence));
      }
    }
    return notices;
  }

  /**
   * The notice of a Gslb status the engine decided with problems, or empty when it has none.
   *
   * @param status the desired status
   * @param liveUid the uid of the Gslb as it exists, or {@code null} to use the status's own
   */
  public static Optional<Notice> ofGslbStatus(GslbStatus status, String liveUid) {
    if (status.problems().isEmpty()) {
      return Optional.empty();
    }
    Subject gslb =
        new Subject(
            GSLB_API_VERSION,
            "Gslb",
            status.namespace(),
            status.name(),
            liveUid != null ? liveUid : status.uid());
    return Optional.of(
        new Notice(
            gslb,
            null,
            Reason.INVALID_SPEC,
            WRITE_STATUS,
            "Gslb "
                + status.namespace()
                + "/"
                + status.name()
                + ": "
                + String.join("; ", status.problems())));
  }

  /**
   * The notice of a Gslb's embedded Ingress that could not be written: the name is held by another
   * Ingress, or the API server refused it.
   *
   * @param gslb the Gslb's namespace and name
   * @param gslbUid the Gslb's uid, {@code null} when unknown
   * @param reason {@link Reason#INGRESS_CONFLICT} or {@link Reason#INVALID_INGRESS}
   * @param problem what is wrong, on the Gslb's {@code spec.ingress}
   */
  public static Notice ofIngress(ObjectKey gslb, String gslbUid, Reason reason, Problem problem) {
    return new Notice(
        new Subject(GSLB_API_VERSION, "Gslb", gslb.namespace(), gslb.name(), gslbUid),
        new Subject("networking.k8s.io/v1", "Ingress", gslb.namespace(), gslb.name(), null),
        reason,
        WRITE_INGRESS,
        "Gslb " + gslb + ": " + problem);
  }

  /**
   * The notice of an Ingress annotated {@code k8gb.io/strategy} whose Gslb was not written: its
   * annotations cannot be used, a Gslb of its name is not its own, or the API server refused it.
   *
   * @param ingress the Ingress's namespace and name (the Gslb's too)
   * @param ingressUid the Ingress's uid, {@code null} when unknown
   * @param reason {@link Reason#INVALID_ANNOTATION} or {@link Reason#GSLB_CONFLICT}
   * @param problem what is wrong, on the Ingress's annotations
   */
  public static Notice ofAnnotatedIngress(
      ObjectKey ingress, String ingressUid, Reason reason, Problem problem) {
    return new Notice(
        new Subject(
            "networking.k8s.io/v1", "Ingress", ingress.namespace(), ingress.name(), ingressUid),
        new Subject(GSLB_API_VERSION, "Gslb", ingress.namespace(), ingress.name(), null),
        reason,
        WRITE_GSLB,
        "Ingress " + ingress + ": " + problem);
  }

  private static boolean isGslb(TargetDecision d) {
    return "Gslb".equals(d.source().kind());
  }

  private static Subject source(TargetDecision d) {
    ObjectRef ref = d.source();
    return new Subject(
        d.sourceApiVersion(), ref.kind(), ref.namespace(), ref.name(), d.sourceUid());
  }

  private static Subject dnsEndpoint(ObjectKey key) {
    return new Subject(DNS_ENDPOINT_API_VERSION, "DNSEndpoint", key.namespace(), key.name(), null);
  }
}
