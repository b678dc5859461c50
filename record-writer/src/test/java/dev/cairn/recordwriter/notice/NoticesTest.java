package dev.cairn.recordwriter.notice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.notice.Notice.Reason;
import dev.cairn.recordwriter.plan.Conflict;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Outcome;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NoticesTest {

  private static final ObjectKey KEY = ObjectKey.of("shop", "httproute-web");

  private static TargetDecision decision(String route) {
    return new TargetDecision(
        ObjectRef.of("HTTPRoute", "shop", route),
        "gateway.networking.k8s.io/v1",
        "uid-" + route,
        "shop",
        "httproute-web",
        Disposition.PUBLISH,
        List.of(DnsRecord.of("web.example.com", "A", 30, List.of("192.0.2.1"))),
        Map.of(),
        null,
        Explanation.of("published"),
        List.of());
  }

  private static final Map<String, TargetDecision> DECISIONS =
      Map.of("HTTPRoute/shop/web", decision("web"), "HTTPRoute/shop/other", decision("other"));

  private static Outcome outcome(
      Outcome.State state, String source, List<Problem> rejected, List<Conflict> conflicts) {
    return new Outcome(
        KEY, source, state, null, "detail", rejected, List.of(), conflicts, null, null);
  }

  @Test
  void aForeignObjectIsAConflictOnTheClaimantNamingBothOwners() {
    Conflict c =
        new Conflict(
            KEY,
            "HTTPRoute/shop/web",
            "app.kubernetes.io/managed-by=k8s-direct-dns",
            Conflict.Kind.FOREIGN_OBJECT);

    List<Notice> notices =
        Notices.ofOutcome(
            outcome(Outcome.State.CONFLICT, "HTTPRoute/shop/web", List.of(), List.of(c)),
            DECISIONS::get);

    assertThat(notices)
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.reason()).isEqualTo(Reason.RECORD_CONFLICT);
              assertThat(n.regarding().kind()).isEqualTo("HTTPRoute");
              assertThat(n.regarding().name()).isEqualTo("web");
              assertThat(n.regarding().uid()).isEqualTo("uid-web");
              assertThat(n.regarding().apiVersion()).isEqualTo("gateway.networking.k8s.io/v1");
              assertThat(n.related().kind()).isEqualTo("DNSEndpoint");
              assertThat(n.related().name()).isEqualTo("httproute-web");
              assertThat(n.note())
                  .contains("HTTPRoute/shop/web")
                  .contains("app.kubernetes.io/managed-by=k8s-direct-dns");
            });
  }

  @Test
  void everyRefusedClaimantGetsItsOwnNoticeButAPendingClaimNone() {
    List<Conflict> conflicts =
        List.of(
            new Conflict(
                KEY,
                "HTTPRoute/shop/other",
                "cairn source HTTPRoute/shop/web",
                Conflict.Kind.CLAIMED_BY_OTHER_SOURCE),
            new Conflict(KEY, "HTTPRoute/shop/web", "cairn source X", Conflict.Kind.PENDING_SYNC),
            new Conflict(
                KEY,
                "HTTPRoute/shop/gone",
                "cairn source HTTPRoute/shop/web",
                Conflict.Kind.CLAIMED_BY_OTHER_SOURCE));

    List<Notice> notices =
        Notices.ofOutcome(
            outcome(Outcome.State.PUBLISHED, "HTTPRoute/shop/web", List.of(), conflicts),
            DECISIONS::get);

    assertThat(notices).extracting(n -> n.regarding().name()).containsExactly("other");
  }

  @Test
  void rejectedRecordsAreAnInvalidEndpointNoticeOnTheSource() {
    Problem p = new Problem("records[1].targets[0]", "2001:db8::1", "not an IPv4 address");

    List<Notice> notices =
        Notices.ofOutcome(
            outcome(Outcome.State.PUBLISHED, "HTTPRoute/shop/web", List.of(p), List.of()),
            DECISIONS::get);

    assertThat(notices)
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.reason()).isEqualTo(Reason.INVALID_ENDPOINT);
              assertThat(n.regarding().uid()).isEqualTo("uid-web");
              assertThat(n.note())
                  .contains("records[1].targets[0]")
                  .contains("2001:db8::1")
                  .contains("1 record rejected")
                  .contains("the valid records are published");
            });
  }

  @Test
  void aRouteDecisionWithProblemsIsAnInvalidSpecNoticeOnTheRoute() {
    Problem ttl =
        new Problem(
            "metadata.annotations[directdns.meisterlala.dev/ttl]", "abc", "TTL must be digits");
    TargetDecision web = withProblems(decision("web"), List.of(ttl));

    List<Notice> notices =
        Notices.ofOutcome(
            outcome(Outcome.State.PUBLISHED, "HTTPRoute/shop/web", List.of(), List.of()),
            Map.of("HTTPRoute/shop/web", web)::get);

    assertThat(notices)
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.reason()).isEqualTo(Reason.INVALID_SPEC);
              assertThat(n.regarding().kind()).isEqualTo("HTTPRoute");
              assertThat(n.regarding().uid()).isEqualTo("uid-web");
              assertThat(n.note())
                  .isEqualTo(
                      "HTTPRoute shop/web: metadata.annotations[directdns.meisterlala.dev/ttl]='abc':"
                          + " TTL must be digits; each is left out and the rest is decided without"
                          + " it");
            });
  }

  @Test
  void aGslbDecisionsProblemsAreLeftToItsStatusNotice() {
    TargetDecision d = decision("web");
    TargetDecision gslb =
        withProblems(
            new TargetDecision(
                ObjectRef.of("Gslb", "shop", "web"),
                "k8gb.io/v1beta1",
                "uid-gslb",
                "shop",
                "web",
                d.disposition(),
                d.records(),
                Map.of(),
                null,
                d.explanation(),
                List.of()),
            List.of(new Problem("spec.strategy.type", "random", "not a strategy")));

    assertThat(
            Notices.ofOutcome(
                outcome(Outcome.State.ABSENT, "Gslb/shop/web", List.of(), List.of()),
                Map.of("Gslb/shop/web", gslb)::get))
        .isEmpty();
  }

  private static TargetDecision withProblems(TargetDecision d, List<Problem> problems) {
    return new TargetDecision(
        d.source(),
        d.sourceApiVersion(),
        d.sourceUid(),
        d.namespace(),
        d.name(),
        d.disposition(),
        d.records(),
        d.labels(),
        d.gracePeriodSeconds(),
        d.explanation(),
        problems);
  }

  @Test
  void aConvergedOutcomeHasNoNotices() {
    assertThat(
            Notices.ofOutcome(
                outcome(Outcome.State.PUBLISHED, "HTTPRoute/shop/web", List.of(), List.of()),
                DECISIONS::get))
        .isEmpty();
  }

  @Test
  void gslbProblemsAreAnInvalidSpecNoticeOnTheGslbWithItsLiveUid() {
    GslbStatus status =
        new GslbStatus(
            "shop",
            "storefront",
            "uid-decided",
            "eu",
            null,
            null,
            null,
            null,
            null,
            List.of("spec.strategy.type: 'fastest' is not a strategy"));

    Notice n = Notices.ofGslbStatus(status, "uid-live").orElseThrow();

    assertThat(n.reason()).isEqualTo(Reason.INVALID_SPEC);
    assertThat(n.regarding().kind()).isEqualTo("Gslb");
    assertThat(n.regarding().apiVersion()).isEqualTo("k8gb.io/v1beta1");
    assertThat(n.regarding().uid()).isEqualTo("uid-live");
    assertThat(n.note()).contains("shop/storefront").contains("'fastest' is not a strategy");
    assertThat(Notices.ofGslbStatus(status, null).orElseThrow().regarding().uid())
        .isEqualTo("uid-decided");
  }

  @Test
  void aGslbWithoutProblemsHasNoNotice() {
    GslbStatus status =
        new GslbStatus("shop", "storefront", null, "eu", null, null, null, null, null, null);

    assertThat(Notices.ofGslbStatus(status, null)).isEmpty();
  }
}
