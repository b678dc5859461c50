package dev.cairn.recordwriter;

import static dev.cairn.recordwriter.TestDecisions.dnsName;
import static dev.cairn.recordwriter.TestDecisions.objectName;
import static dev.cairn.recordwriter.TestDecisions.publish;
import static dev.cairn.recordwriter.TestDecisions.withdraw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.recordwriter.MockKubernetes.Write;
import dev.cairn.recordwriter.reconcile.RecordReconciler;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The record-writer end to end against the fabric8 CRUD mock and an embedded broker: one writer for
 * the class, each test on its own namespace, writes counted at the mock.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecordWriterIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String MANAGED_BY = "app.kubernetes.io/managed-by";

  private MockKubernetes api;
  private StateProducer<TargetDecision> decisions;
  private WriterRun writer;

  @BeforeAll
  void start() {
    api = new MockKubernetes(true);
    decisions = StateProducer.decisions(EmbeddedBroker.bootstrapServers(), "rw.");
    // Present before the writer starts: an orphan it owns, a foreign object, a decision.
    api.create(owned("orphans", objectName("gone"), "HTTPRoute/orphans/gone", "192.0.2.99"));
    api.create(foreign("foreign", objectName("web"), "k8s-direct-dns"));
    decisions.send(publish("early", "web", "192.0.2.10"));
    writer = WriterRun.start(api, "rw.", "writer.grace-period=2s");
  }

  @AfterAll
  void stop() {
    if (writer != null) {
      writer.close();
    }
    decisions.close();
    api.close();
  }

  static GenericKubernetesResource owned(String ns, String name, String source, String target) {
    GenericKubernetesResource r = dnsEndpoint(ns, name, target);
    r.getMetadata().setLabels(Map.of("app.kubernetes.io/managed-by", "cairn"));
    r.getMetadata().setAnnotations(Map.of("cairn.dev/source", source));
    return r;
  }

  static GenericKubernetesResource foreign(String ns, String name, String manager) {
    GenericKubernetesResource r = dnsEndpoint(ns, name, "198.51.100.1");
    r.getMetadata().setLabels(Map.of("app.kubernetes.io/managed-by", manager));
    return r;
  }

  static GenericKubernetesResource dnsEndpoint(String ns, String name, String target) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion("externaldns.k8s.io/v1alpha1");
    r.setKind("DNSEndpoint");
    r.setMetadata(new ObjectMetaBuilder().withNamespace(ns).withName(name).build());
    r.setAdditionalProperty(
        "spec",
        Map.of(
            "endpoints",
            List.of(
                Map.of(
                    "dnsName",
                    name + ".example.com",
                    "recordType",
                    "A",
                    "targets",
                    List.of(target)))));
    return r;
  }

  @SuppressWarnings("unchecked")
  static List<String> targets(GenericKubernetesResource r) {
    Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
    List<Map<String, Object>> endpoints = (List<Map<String, Object>>) spec.get("endpoints");
    return endpoints.stream().flatMap(e -> ((List<String>) e.get("targets")).stream()).toList();
  }

  private GenericKubernetesResource awaitObject(String ns, String route) {
    return await().atMost(WAIT).until(() -> api.get(ns, objectName(route)), r -> r != null);
  }

  private GenericKubernetesResource awaitTargets(String ns, String route, String... targets) {
    return await()
        .atMost(WAIT)
        .until(
            () -> api.get(ns, objectName(route)),
            r -> r != null && targets(r).equals(List.of(targets)));
  }

  private void awaitGone(String ns, String route) {
    await().atMost(WAIT).until(() -> api.get(ns, objectName(route)) == null);
  }

  /**
   * Waits until the writer has applied everything sent before: a marker is created, then updated. A
   * batch applies its creates before its updates, so the update (planned in a later batch than the
   * create) proves that the batch holding the create, and every earlier one, is planned; writes go
   * out several at a time, so then no write may be queued or in flight either.
   */
  private void barrier(String ns) {
    String marker = "marker-" + System.nanoTime();
    decisions.send(publish(ns, marker, "192.0.2.250"));
    awaitObject(ns, marker);
    decisions.send(publish(ns, marker, "192.0.2.251"));
    awaitTargets(ns, marker, "192.0.2.251");
    await().atMost(WAIT).until(writer::writesSettled);
  }

  private List<String> methods(String ns, String route) {
    return api.writesTo(ns, objectName(route)).stream().map(Write::method).toList();
  }

  @Test
  void publishesADecisionThatWasThereBeforeItStarted() {
    GenericKubernetesResource r = awaitTargets("early", "web", "192.0.2.10");

    assertThat(methods("early", "web")).containsExactly("POST");
    assertThat(r.getMetadata().getLabels())
        .containsEntry("app.kubernetes.io/managed-by", "cairn")
        .containsEntry("k8gb.io/dnstype", "local");
  }

  @Test
  void createsADnsEndpointWithOwnershipAndAnOwnerReference() {
    decisions.send(publish("create", "web", "192.0.2.2", "192.0.2.1"));

    GenericKubernetesResource r = awaitTargets("create", "web", "192.0.2.1", "192.0.2.2");

    assertThat(r.getMetadata().getAnnotations())
        .containsEntry("cairn.dev/source", "HTTPRoute/create/web");
    OwnerReference owner = r.getMetadata().getOwnerReferences().get(0);
    assertThat(owner.getKind()).isEqualTo("HTTPRoute");
    assertThat(owner.getName()).isEqualTo("web");
    assertThat(owner.getUid()).isEqualTo("uid-web");
    assertThat(owner.getController()).isTrue();
    assertThat(owner.getBlockOwnerDeletion()).isTrue();
    assertThat(methods("create", "web")).containsExactly("POST");
  }

  @Test
  void updatesWithOneWriteWhenTheTargetsChange() {
    decisions.send(publish("update", "web", "192.0.2.1"));
    awaitTargets("update", "web", "192.0.2.1");

    decisions.send(publish("update", "web", "192.0.2.7"));

    awaitTargets("update", "web", "192.0.2.7");
    barrier("update");
    assertThat(methods("update", "web")).containsExactly("POST", "PUT");
  }

  @Test
  void measuresFromTheEventTimeHeaderToTheWrite() {
    java.time.Instant event = java.time.Instant.now().minusSeconds(3);
    long before = writer.timerCount("cairn.writer.event.to.write");
    decisions.send(publish("timed", "web", "192.0.2.30"), event);
    awaitTargets("timed", "web", "192.0.2.30");

    await()
        .atMost(WAIT)
        .until(() -> writer.timerCount("cairn.writer.event.to.write") == before + 1);
    // the event is 3 s old: the sample covers at least that (no upper bound: not a timing test)
    assertThat(writer.timerMaxMillis("cairn.writer.event.to.write")).isGreaterThanOrEqualTo(3000);

    // A decision without the header (state re-published at start, a hand-written message) is
    // written and not timed.
    decisions.send(publish("timed", "web", "192.0.2.31"));
    awaitTargets("timed", "web", "192.0.2.31");
    barrier("timed");
    assertThat(writer.timerCount("cairn.writer.event.to.write")).isEqualTo(before + 1);
  }

  @Test
  void writesNothingForADecisionThatChangesNothing() {
    TargetDecision d = publish("noop", "web", "192.0.2.1", "192.0.2.2");
    decisions.send(d);
    awaitTargets("noop", "web", "192.0.2.1", "192.0.2.2");
    barrier("noop");
    int before = api.writesTo("noop", objectName("web")).size();

    // Same records, targets in another order, another explanation: a new value on the topic.
    decisions.send(d.withExplanation(Explanation.of("recomputed, same outcome")));
    decisions.send(publish("noop", "web", "192.0.2.2", "192.0.2.1"));
    barrier("noop");

    assertThat(api.writesTo("noop", objectName("web"))).hasSize(before);
  }

  @Test
  void deletesOnATombstone() {
    decisions.send(publish("tomb", "web", "192.0.2.1"));
    awaitObject("tomb", "web");

    decisions.tombstone("HTTPRoute/tomb/web");

    awaitGone("tomb", "web");
    assertThat(methods("tomb", "web")).containsExactly("POST", "DELETE");
  }

  @Test
  void deletesAtOnceOnWithdraw() {
    decisions.send(publish("withdraw", "web", "192.0.2.1"));
    awaitObject("withdraw", "web");

    decisions.send(TestDecisions.withdraw("withdraw", "web"));

    awaitGone("withdraw", "web");
  }

  @Test
  void keepsTheLastRecordsForTheGracePeriodThenDeletes() {
    decisions.send(publish("grace", "web", "192.0.2.1"));
    awaitObject("grace", "web");

    // The writer's default grace here is 2 s; 4 s leaves the test time to see the kept object.
    decisions.send(
        TestDecisions.decision(
            "grace", "web", Disposition.NO_TARGETS, List.of(), 4L, "no targets"));

    GenericKubernetesResource kept =
        await()
            .atMost(WAIT)
            .until(
                () -> api.get("grace", objectName("web")),
                r -> r != null && r.getMetadata().getAnnotations().containsKey(STALE_SINCE));
    assertThat(targets(kept)).containsExactly("192.0.2.1");
    assertThat(Instant.parse(kept.getMetadata().getAnnotations().get(STALE_SINCE)))
        .isBeforeOrEqualTo(Instant.now());
    awaitGone("grace", "web");
    assertThat(methods("grace", "web")).containsExactly("POST", "PUT", "DELETE");
  }

  private static final String STALE_SINCE = "directdns.meisterlala.dev/stale-since";

  @Test
  void restoresAtOnceWhenTargetsReturnWithinTheGracePeriod() {
    decisions.send(publish("recover", "web", "192.0.2.1"));
    awaitObject("recover", "web");
    decisions.send(
        TestDecisions.decision(
            "recover", "web", Disposition.NO_TARGETS, List.of(), 60L, "no targets"));
    await()
        .atMost(WAIT)
        .until(
            () -> api.get("recover", objectName("web")),
            r -> r.getMetadata().getAnnotations().containsKey(STALE_SINCE));

    decisions.send(publish("recover", "web", "192.0.2.5"));

    GenericKubernetesResource restored =
        await()
            .atMost(WAIT)
            .until(
                () -> api.get("recover", objectName("web")),
                r -> !r.getMetadata().getAnnotations().containsKey(STALE_SINCE));
    assertThat(targets(restored)).containsExactly("192.0.2.5");
  }

  @Test
  void neverModifiesAForeignObjectAndExplainsTheConflict() {
    GenericKubernetesResource before = api.get("foreign", objectName("web"));

    decisions.send(publish("foreign", "web", "192.0.2.1"));

    HttpResponse<String> explain =
        await()
            .atMost(WAIT)
            .until(
                () -> writer.get("/api/v1/records/foreign/" + objectName("web")),
                r -> r.statusCode() == 200 && r.body().contains("\"CONFLICT\""));
    assertThat(explain.body())
        .contains("HTTPRoute/foreign/web")
        .contains("app.kubernetes.io/managed-by=k8s-direct-dns");
    barrier("foreign");
    GenericKubernetesResource after = api.get("foreign", objectName("web"));
    assertThat(after.getMetadata().getResourceVersion())
        .isEqualTo(before.getMetadata().getResourceVersion());
    assertThat(methods("foreign", "web")).doesNotContain("PUT", "PATCH", "DELETE");
    assertThat(writer.counter("cairn.writer.foreign.refused")).isGreaterThanOrEqualTo(1);
  }

  /**
   * A refused claim is reported while it is made and no longer once its source is gone: the name
   * leaves {@code ?state=CONFLICT}, while the foreign object holding it is still shown.
   */
  @Test
  void forgetsARefusedClaimOnceItsSourceIsGone() {
    api.create(foreign("unclaimed", objectName("web"), "k8gb"));
    decisions.send(publish("unclaimed", "web", "192.0.2.41"));
    await()
        .atMost(WAIT)
        .until(
            () -> writer.get("/api/v1/records?state=CONFLICT"),
            r -> r.body().contains("\"namespace\":\"unclaimed\""));

    decisions.tombstone("HTTPRoute/unclaimed/web");

    await()
        .atMost(WAIT)
        .until(
            () -> writer.get("/api/v1/records?state=CONFLICT"),
            r -> r.statusCode() == 200 && !r.body().contains("\"namespace\":\"unclaimed\""));
    HttpResponse<String> explain = writer.get("/api/v1/records/unclaimed/" + objectName("web"));
    assertThat(explain.statusCode()).isEqualTo(200);
    assertThat(explain.body())
        .as("no report: the writer no longer plans it")
        .doesNotContain("\"report\"")
        .contains("\"owned\":false");
  }

  /**
   * A claim refused because another Cairn source holds the name shows on the holder's report, and
   * {@code ?source=} of the refused source lists that report.
   */
  @Test
  void listsTheNameARefusedSourceClaimsUnderItsSource() {
    decisions.send(publish("claimed", "web", "192.0.2.42"));
    awaitTargets("claimed", "web", "192.0.2.42");
    String gslb = "Gslb/claimed/" + objectName("web");
    decisions.send(
        new TargetDecision(
            ObjectRef.of("Gslb", "claimed", objectName("web")),
            "k8gb.io/v1beta1",
            "uid-gslb",
            "claimed",
            objectName("web"),
            Disposition.PUBLISH,
            List.of(DnsRecord.of("gslb.claimed.example.com", "A", 30, List.of("192.0.2.43"))),
            Map.of("k8gb.io/dnstype", "local"),
            null,
            Explanation.of("published"),
            List.of()));

    HttpResponse<String> bySource =
        await()
            .atMost(WAIT)
            .until(
                () -> writer.get("/api/v1/records?source=" + gslb),
                r -> r.body().contains("CLAIMED_BY_OTHER_SOURCE"));
    assertThat(bySource.body())
        .contains("\"source\":\"HTTPRoute/claimed/web\"")
        .contains("\"claimant\":\"" + gslb + "\"");

    decisions.tombstone(gslb);

    await()
        .atMost(WAIT)
        .until(() -> writer.get("/api/v1/records?source=" + gslb), r -> r.body().equals("[]"));
  }

  /**
   * A foreign object deleted (k8gb's, when a cluster moves to Cairn) frees its name within seconds:
   * the writer reads names held by foreign objects again, backing off (ForeignRecheck), instead of
   * waiting for the next full resync (10 minutes here).
   */
  @Test
  void takesANameOverSoonAfterTheForeignObjectHoldingItIsDeleted() {
    api.create(foreign("takeover", objectName("web"), "k8gb"));
    decisions.send(publish("takeover", "web", "192.0.2.21"));
    await()
        .atMost(WAIT)
        .until(
            () -> writer.get("/api/v1/records/takeover/" + objectName("web")),
            r -> r.statusCode() == 200 && r.body().contains("\"CONFLICT\""));
    assertThat(writer.bean(RecordReconciler.class).foreignRechecks()).isGreaterThanOrEqualTo(1);

    api.client()
        .genericKubernetesResources("externaldns.k8s.io/v1alpha1", "DNSEndpoint")
        .inNamespace("takeover")
        .withName(objectName("web"))
        .delete();

    GenericKubernetesResource taken =
        await()
            .atMost(Duration.ofSeconds(20))
            .until(
                () -> api.get("takeover", objectName("web")),
                r -> r != null && "cairn".equals(r.getMetadata().getLabels().get(MANAGED_BY)));
    assertThat(targets(taken)).containsExactly("192.0.2.21");
  }

  /**
   * Two routes publishing the same DNS name: the one whose DNSEndpoint serves it keeps it, the
   * other leaves it out and its source gets a RecordConflict Event; once the first lets the name
   * go, the second publishes it.
   */
  @Test
  void oneDnsEndpointPerNameTheOtherLeavesItOutUntilItIsFree() {
    String shared = dnsName("names", "shared");
    decisions.send(
        publish("names", "first", List.of(DnsRecord.of(shared, "A", 30, List.of("192.0.2.1")))));
    awaitTargets("names", "first", "192.0.2.1");

    decisions.send(
        publish(
            "names",
            "second",
            List.of(
                DnsRecord.of(shared, "A", 30, List.of("192.0.2.2")),
                DnsRecord.of(dnsName("names", "second"), "A", 30, List.of("192.0.2.3")))));

    GenericKubernetesResource second = awaitTargets("names", "second", "192.0.2.3");
    assertThat(names(second)).containsExactly(dnsName("names", "second"));
    assertThat(targets(api.get("names", objectName("first")))).containsExactly("192.0.2.1");
    Event event = awaitEvent("names", "second");
    assertThat(event.getReason()).isEqualTo("RecordConflict");
    assertThat(event.getNote())
        .contains("A " + shared)
        .contains("DNSEndpoint names/" + objectName("first"));

    decisions.send(withdraw("names", "first"));
    awaitGone("names", "first");
    GenericKubernetesResource freed =
        await()
            .atMost(WAIT)
            .until(
                () -> api.get("names", objectName("second")),
                r -> r != null && names(r).contains(shared));
    assertThat(targets(freed)).containsExactlyInAnyOrder("192.0.2.2", "192.0.2.3");
  }

  /**
   * A record the writer rejects is never published, so it keeps no name either: a decision (sent by
   * hand, say) whose record for a name is invalid never holds that name back from a valid one, even
   * when its DNSEndpoint exists first and sorts first.
   */
  @Test
  void aRejectedRecordKeepsNoNameFromAValidOne() {
    String shared = dnsName("rejectednames", "shared");
    decisions.send(
        publish(
            "rejectednames",
            "a-bad",
            List.of(
                DnsRecord.of(dnsName("rejectednames", "a-bad"), "A", 30, List.of("192.0.2.1")),
                DnsRecord.of(shared, "A", 30, List.of("192.0.2.300")))));
    awaitTargets("rejectednames", "a-bad", "192.0.2.1");

    decisions.send(
        publish(
            "rejectednames",
            "b-good",
            List.of(DnsRecord.of(shared, "A", 30, List.of("192.0.2.2")))));

    GenericKubernetesResource good = awaitTargets("rejectednames", "b-good", "192.0.2.2");
    assertThat(names(good)).containsExactly(shared);
    assertThat(names(api.get("rejectednames", objectName("a-bad"))))
        .containsExactly(dnsName("rejectednames", "a-bad"));
  }

  /**
   * A DNSEndpoint in its grace period still serves its names, so it keeps them: a newcomer for the
   * same name leaves it out until the grace period ends and the kept object is deleted.
   */
  @Test
  void aRecordInItsGracePeriodKeepsItsNamesUntilTheGracePeriodEnds() {
    String shared = dnsName("gracenames", "shared");
    decisions.send(
        publish(
            "gracenames", "first", List.of(DnsRecord.of(shared, "A", 30, List.of("192.0.2.1")))));
    awaitTargets("gracenames", "first", "192.0.2.1");
    decisions.send(
        TestDecisions.decision(
            "gracenames", "first", Disposition.NO_TARGETS, List.of(), 4L, "no targets"));
    await()
        .atMost(WAIT)
        .until(
            () -> api.get("gracenames", objectName("first")),
            r -> r != null && r.getMetadata().getAnnotations().containsKey(STALE_SINCE));

    decisions.send(
        publish(
            "gracenames",
            "second",
            List.of(
                DnsRecord.of(shared, "A", 30, List.of("192.0.2.2")),
                DnsRecord.of(dnsName("gracenames", "second"), "A", 30, List.of("192.0.2.3")))));

    GenericKubernetesResource second = awaitTargets("gracenames", "second", "192.0.2.3");
    assertThat(names(second)).containsExactly(dnsName("gracenames", "second"));
    GenericKubernetesResource kept = api.get("gracenames", objectName("first"));
    assertThat(kept).isNotNull();
    assertThat(names(kept)).containsExactly(shared);
    assertThat(awaitEvent("gracenames", "second").getNote())
        .contains("A " + shared)
        .contains("DNSEndpoint gracenames/" + objectName("first"));

    awaitGone("gracenames", "first");
    GenericKubernetesResource freed =
        await()
            .atMost(WAIT)
            .until(
                () -> api.get("gracenames", objectName("second")),
                r -> r != null && names(r).contains(shared));
    assertThat(targets(freed)).containsExactlyInAnyOrder("192.0.2.2", "192.0.2.3");
  }

  @SuppressWarnings("unchecked")
  static List<String> names(GenericKubernetesResource r) {
    Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
    List<Map<String, Object>> endpoints = (List<Map<String, Object>>) spec.get("endpoints");
    return endpoints.stream().map(e -> (String) e.get("dnsName")).toList();
  }

  @Test
  void showsAConflictOnTheSourceAsAnEventOnceNotAtEveryResync() {
    api.create(foreign("shown", objectName("web"), "k8s-direct-dns"));

    decisions.send(publish("shown", "web", "192.0.2.1"));

    Event event = awaitEvent("shown", "web");
    assertThat(event.getType()).isEqualTo("Warning");
    assertThat(event.getReason()).isEqualTo("RecordConflict");
    assertThat(event.getRegarding().getKind()).isEqualTo("HTTPRoute");
    assertThat(event.getRegarding().getApiVersion()).isEqualTo("gateway.networking.k8s.io/v1");
    assertThat(event.getRegarding().getNamespace()).isEqualTo("shown");
    assertThat(event.getRegarding().getName()).isEqualTo("web");
    assertThat(event.getRegarding().getUid()).isEqualTo("uid-web");
    assertThat(event.getRelated().getKind()).isEqualTo("DNSEndpoint");
    assertThat(event.getRelated().getName()).isEqualTo(objectName("web"));
    assertThat(event.getNote())
        .contains("HTTPRoute/shown/web")
        .contains("app.kubernetes.io/managed-by=k8s-direct-dns");
    assertThat(event.getAction()).isEqualTo("PublishDNSEndpoint");
    assertThat(event.getReportingController()).isEqualTo("cairn.dev/record-writer");
    assertThat(event.getEventTime()).isNotNull();

    // A full resync plans the conflict again; so does an unrelated change of the decision.
    writer.bean(RecordReconciler.class).requestResync();
    decisions.send(
        publish("shown", "web", "192.0.2.1").withExplanation(Explanation.of("recomputed")));
    barrier("shown");
    // Events go out one by one, in order: once a later conflict has its Event, any Event the
    // resync caused has been sent.
    api.create(foreign("shown", objectName("fence"), "k8s-direct-dns"));
    decisions.send(publish("shown", "fence", "192.0.2.1"));
    awaitEvent("shown", "fence");

    assertThat(eventWritesAbout("shown", "web")).extracting(Write::method).containsExactly("POST");
    assertThat(api.events("shown"))
        .filteredOn(e -> "web".equals(e.getRegarding().getName()))
        .hasSize(1);
  }

  private Event awaitEvent(String ns, String route) {
    return await()
        .atMost(WAIT)
        .until(
            () ->
                api.events(ns).stream()
                    .filter(e -> route.equals(e.getRegarding().getName()))
                    .findFirst()
                    .orElse(null),
            e -> e != null);
  }

  private List<Write> eventWritesAbout(String ns, String route) {
    return api.writesOf(MockKubernetes.EVENT_WRITES, ns, null).stream()
        .filter(w -> w.name().startsWith(route + "."))
        .toList();
  }

  @Test
  void deletesAnOrphanItOwnsOnceTheDecisionsAreRead() {
    awaitGone("orphans", "gone");

    assertThat(methods("orphans", "gone"))
        .containsExactly("POST", "DELETE"); // the test's, then the writer's
  }

  @Test
  void repairsAManualEditOfAnOwnedObject() {
    decisions.send(publish("edit", "web", "192.0.2.1"));
    GenericKubernetesResource r = awaitObject("edit", "web");

    r.setAdditionalProperty(
        "spec",
        Map.of(
            "endpoints",
            List.of(
                Map.of(
                    "dnsName",
                    dnsName("edit", "web"),
                    "recordType",
                    "A",
                    "targets",
                    List.of("203.0.113.6")))));
    api.client().genericKubernetesResources(MockKubernetes.DNS_ENDPOINTS).resource(r).update();

    awaitTargets("edit", "web", "192.0.2.1");
  }

  @Test
  void recreatesAnOwnedObjectDeletedByHand() {
    decisions.send(publish("manualdelete", "web", "192.0.2.1"));
    awaitObject("manualdelete", "web");

    api.client()
        .genericKubernetesResources(MockKubernetes.DNS_ENDPOINTS)
        .inNamespace("manualdelete")
        .withName(objectName("web"))
        .delete();

    await()
        .atMost(WAIT)
        .until(() -> methods("manualdelete", "web").equals(List.of("POST", "DELETE", "POST")));
    awaitTargets("manualdelete", "web", "192.0.2.1");
  }

  @Test
  void rejectsInvalidEndpointsAndWritesTheValidRest() {
    decisions.send(
        publish(
            "invalid",
            "web",
            List.of(
                DnsRecord.of(dnsName("invalid", "web"), "A", 30, List.of("192.0.2.1")),
                DnsRecord.of("v6.invalid.example.com", "A", 30, List.of("2001:db8::1")))));

    GenericKubernetesResource r = awaitTargets("invalid", "web", "192.0.2.1");

    assertThat(targets(r)).containsExactly("192.0.2.1");
    HttpResponse<String> explain = writer.get("/api/v1/records/invalid/" + objectName("web"));
    assertThat(explain.body()).contains("records[1].targets[0]").contains("2001:db8::1");
    assertThat(explain.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    assertThat(explain.body())
        .as("encoded as the contract records: a field without a value is left out")
        .doesNotContain(":null")
        .contains("\"report\":{");
    assertThat(writer.counter("cairn.writer.endpoints.rejected")).isGreaterThanOrEqualTo(1);
    Event event = awaitEvent("invalid", "web");
    assertThat(event.getReason()).isEqualTo("InvalidEndpoint");
    assertThat(event.getRegarding().getUid()).isEqualTo("uid-web");
    assertThat(event.getNote()).contains("records[1].targets[0]").contains("2001:db8::1");
  }

  /**
   * An endpoint label without a value (a hand-written decision) rejects its own record, with the
   * field named; the other records are written. It used to make the whole DNSEndpoint violate the
   * CRD schema (labels are strings), so no write of it was sent again: its targets stopped
   * following the decisions.
   */
  @Test
  void aRecordWithALabelWithoutValueIsRejectedAndTheRestIsWritten() {
    decisions.send(publish("nulllabel", "web", "192.0.2.1"));
    awaitTargets("nulllabel", "web", "192.0.2.1");

    Map<String, String> labels = new HashMap<>();
    labels.put("strategy", null);
    decisions.send(
        publish(
            "nulllabel",
            "web",
            List.of(
                DnsRecord.of(dnsName("nulllabel", "web"), "A", 30, List.of("192.0.2.2")),
                new DnsRecord(
                    "other.nulllabel.example.com", "A", 30, List.of("192.0.2.3"), labels))));

    GenericKubernetesResource r = awaitTargets("nulllabel", "web", "192.0.2.2");
    assertThat(names(r)).containsExactly(dnsName("nulllabel", "web"));
    assertThat(writer.get("/api/v1/records/nulllabel/" + objectName("web")).body())
        .contains("records[1].labels[strategy]");
  }

  @Test
  void replansAfterAResourceVersionConflictInsteadOfRetryingTheSameWrite() {
    decisions.send(publish("conflict", "web", "192.0.2.1"));
    awaitObject("conflict", "web");
    api.beforeNextUpdate(
        "conflict",
        objectName("web"),
        sent -> {
          Map<String, String> annotations = new HashMap<>(sent.getMetadata().getAnnotations());
          annotations.put("example.com/edited-meanwhile", "yes");
          sent.getMetadata().setAnnotations(annotations);
          sent.setAdditionalProperty(
              "spec",
              Map.of(
                  "endpoints",
                  List.of(
                      Map.of(
                          "dnsName",
                          dnsName("conflict", "web"),
                          "recordType",
                          "A",
                          "targets",
                          List.of("203.0.113.9")))));
          return sent;
        });
    double conflictsBefore = writer.counter("cairn.writer.conflicts");

    decisions.send(publish("conflict", "web", "192.0.2.2"));

    GenericKubernetesResource r = awaitTargets("conflict", "web", "192.0.2.2");
    assertThat(r.getMetadata().getAnnotations())
        .containsEntry("example.com/edited-meanwhile", "yes");
    List<Write> puts =
        api.writesTo("conflict", objectName("web")).stream()
            .filter(w -> w.method().equals("PUT"))
            .toList();
    assertThat(puts).extracting(Write::status).containsExactly(409, 200);
    assertThat(writer.counter("cairn.writer.conflicts")).isEqualTo(conflictsBefore + 1);
  }

  @Test
  void explainsUnknownObjectsAndBadQueriesWithAnErrorBody() {
    var unknown = writer.get("/api/v1/records/nowhere/nothing");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body())
        .contains("\"error\":\"not-found\"")
        .contains("no DNSEndpoint nowhere/nothing");
    var badState = writer.get("/api/v1/records?state=FOO");
    assertThat(badState.statusCode()).isEqualTo(400);
    assertThat(badState.body())
        .contains("\"error\":\"bad-request\"")
        .contains("state must be one of PUBLISHED, ")
        .contains("got 'FOO'");
    var noFilter = writer.get("/api/v1/records");
    assertThat(noFilter.statusCode()).isEqualTo(400);
    assertThat(noFilter.body()).contains("?source=").contains("?state=");
  }

  @Test
  void reportsHealthAndMetrics() {
    await().atMost(WAIT).until(() -> writer.get("/actuator/health/readiness").statusCode() == 200);
    String health = writer.get("/actuator/health").body();
    assertThat(health)
        .contains("\"decisions\"")
        .contains("\"leadership\"")
        .contains("\"dnsEndpoints\"");
    var liveness = writer.get("/actuator/health/liveness");
    assertThat(liveness.statusCode()).isEqualTo(200);
    assertThat(liveness.body()).contains("\"writerThreads\"");
    String prometheus = writer.get("/actuator/prometheus").body();
    assertThat(prometheus)
        .contains("cairn_writer_writes_total")
        .contains("cairn_writer_leader 1.0")
        .contains("cairn_writer_records_in_grace")
        .contains("cairn_writer_apply_latency_seconds");
  }
}
