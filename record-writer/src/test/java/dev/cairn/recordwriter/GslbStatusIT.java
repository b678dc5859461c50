package dev.cairn.recordwriter;

import static dev.cairn.recordwriter.MockKubernetes.EVENT_WRITES;
import static dev.cairn.recordwriter.MockKubernetes.GSLB_STATUS_WRITES;
import static dev.cairn.recordwriter.MockKubernetes.GSLB_WRITES;
import static dev.cairn.recordwriter.TestStatuses.healthy;
import static dev.cairn.recordwriter.TestStatuses.host;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.recordwriter.MockKubernetes.Write;
import dev.cairn.recordwriter.reconcile.GslbStatusReconciler;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Gslb statuses end to end against the fabric8 CRUD mock (with the Gslb CRD, so the status
 * subresource is on) and an embedded broker: one writer for the class, each test on its own
 * namespace, status writes counted at the mock.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GslbStatusIT {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private MockKubernetes api;
  private StateProducer<GslbStatus> statuses;
  private WriterRun writer;

  @BeforeAll
  void start() {
    api = new MockKubernetes(true);
    statuses = StateProducer.gslbStatuses(EmbeddedBroker.bootstrapServers(), "gs.");
    // Present before the writer starts: a Gslb and its status.
    String uid = uid(api.createGslb("early", "web"));
    statuses.send(healthy("early", "web", uid, "192.0.2.10"));
    writer = WriterRun.start(api, "gs.");
  }

  @AfterAll
  void stop() {
    if (writer != null) {
      writer.close();
    }
    statuses.close();
    api.close();
  }

  private static String uid(GenericKubernetesResource r) {
    return r.getMetadata().getUid();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> status(GenericKubernetesResource r) {
    return (Map<String, Object>) r.getAdditionalProperties().get("status");
  }

  @SuppressWarnings("unchecked")
  private static List<String> healthyRecords(GenericKubernetesResource r, String name) {
    Map<String, Object> status = status(r);
    if (status == null) {
      return null;
    }
    return (List<String>) ((Map<String, Object>) status.get("healthyRecords")).get(host(name));
  }

  private GenericKubernetesResource awaitRecords(String ns, String name, String... targets) {
    return await()
        .atMost(WAIT)
        .until(
            () -> api.getGslb(ns, name),
            r -> r != null && List.of(targets).equals(healthyRecords(r, name)));
  }

  private List<Write> statusWrites(String ns, String name) {
    return api.writesOf(GSLB_STATUS_WRITES, ns, name);
  }

  /**
   * Waits until the writer has planned every status sent before: statuses are planned one by one in
   * the order they arrive (one partition), so once a new marker Gslb has its status, every earlier
   * status has been planned; writes go out several at a time, so then no write may be queued or in
   * flight either.
   */
  private void barrier(String ns) {
    String marker = "marker-" + System.nanoTime();
    String uid = uid(api.createGslb(ns, marker));
    statuses.send(healthy(ns, marker, uid, "192.0.2.250"));
    awaitRecords(ns, marker, "192.0.2.250");
    await().atMost(WAIT).until(writer::writesSettled);
  }

  /**
   * Waits until every Event due before has been sent: Events go out one by one in order, so once a
   * new Gslb with problems has its Event, every earlier one has been sent.
   */
  private void eventBarrier(String ns) {
    String fence = "fence-" + System.nanoTime();
    String uid = uid(api.createGslb(ns, fence));
    statuses.send(
        TestStatuses.status(ns, fence, uid, List.of("192.0.2.251"), List.of("a fence problem")));
    await()
        .atMost(WAIT)
        .until(
            () -> api.events(ns).stream().anyMatch(e -> fence.equals(e.getRegarding().getName())));
  }

  private HttpResponse<String> awaitExplained(String ns, String name, String text) {
    return await()
        .atMost(WAIT)
        .until(
            () -> writer.get("/api/v1/gslb-status/" + ns + "/" + name),
            r -> r.statusCode() == 200 && r.body().contains(text));
  }

  @Test
  void writesAStatusThatWasThereBeforeItStarted() {
    awaitRecords("early", "web", "192.0.2.10");

    assertThat(statusWrites("early", "web")).extracting(Write::method).containsExactly("PUT");
  }

  @Test
  void writesTheStatusOnceThroughTheStatusSubresource() {
    GenericKubernetesResource created = api.createGslb("once", "web");
    statuses.send(healthy("once", "web", uid(created), "192.0.2.2", "192.0.2.1"));

    GenericKubernetesResource r = awaitRecords("once", "web", "192.0.2.1", "192.0.2.2");
    barrier("once");

    Map<String, Object> status = status(r);
    assertThat(status)
        .containsEntry("geoTag", "eu")
        .containsEntry("hosts", host("web"))
        .containsEntry("serviceHealth", Map.of(host("web"), "Healthy"))
        .containsEntry("loadBalancer", Map.of("exposedIps", List.of("192.0.2.1", "192.0.2.2")))
        .doesNotContainKey("problems");
    assertThat(r.getAdditionalProperties().get("spec"))
        .isEqualTo(created.getAdditionalProperties().get("spec"));
    assertThat(statusWrites("once", "web"))
        .extracting(Write::method, Write::status)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("PUT", 200));
    assertThat(api.writesOf(GSLB_WRITES, "once", "web"))
        .extracting(Write::method)
        .containsExactly("POST"); // the test's own create; the writer never writes the Gslb
  }

  @Test
  void writesNothingForAStatusThatChangesNothingAndOnceMoreForAChange() {
    String uid = uid(api.createGslb("noop", "web"));
    GslbStatus status = healthy("noop", "web", uid, "192.0.2.1", "192.0.2.2");
    statuses.send(status);
    awaitRecords("noop", "web", "192.0.2.1", "192.0.2.2");
    barrier("noop");
    assertThat(statusWrites("noop", "web")).hasSize(1);

    // Lists in another order: a new value on the topic, the same status.
    statuses.send(TestStatuses.reordered(status));
    writer.bean(GslbStatusReconciler.class).requestResync();
    barrier("noop");
    assertThat(statusWrites("noop", "web")).hasSize(1);

    statuses.send(healthy("noop", "web", uid, "192.0.2.1"));
    awaitRecords("noop", "web", "192.0.2.1");
    barrier("noop");
    assertThat(statusWrites("noop", "web")).hasSize(2);
  }

  @Test
  void skipsAStatusDecidedForAnotherUid() {
    api.createGslb("uid", "web");
    double skippedBefore = writer.counter("cairn.writer.gslb.status.skipped");

    statuses.send(healthy("uid", "web", "uid-of-a-deleted-gslb", "192.0.2.1"));

    HttpResponse<String> explain = awaitExplained("uid", "web", "\"UID_MISMATCH\"");
    barrier("uid");
    assertThat(explain.body()).contains("uid-of-a-deleted-gslb");
    assertThat(statusWrites("uid", "web")).isEmpty();
    assertThat(status(api.getGslb("uid", "web"))).isNull();
    assertThat(writer.counter("cairn.writer.gslb.status.skipped")).isEqualTo(skippedBefore + 1);
  }

  @Test
  void skipsAStatusForAMissingGslbNeverCreatesItAndWritesItOnceItExists() {
    statuses.send(healthy("missing", "web", null, "192.0.2.1"));

    awaitExplained("missing", "web", "\"MISSING_GSLB\"");
    barrier("missing");
    assertThat(api.getGslb("missing", "web")).isNull();
    assertThat(api.writesOf(GSLB_WRITES, "missing", "web")).isEmpty();
    assertThat(statusWrites("missing", "web")).isEmpty();

    api.createGslb("missing", "web");

    awaitRecords("missing", "web", "192.0.2.1");
  }

  @Test
  void replansAfterAConflictOnTheStatusInsteadOfRetryingTheSameWrite() {
    String uid = uid(api.createGslb("conflict", "web"));
    statuses.send(healthy("conflict", "web", uid, "192.0.2.1"));
    awaitRecords("conflict", "web", "192.0.2.1");
    api.beforeNextStatusUpdate(
        "conflict",
        "web",
        stored -> {
          Map<String, String> labels = new HashMap<>();
          labels.put("example.com/edited-meanwhile", "yes");
          stored.getMetadata().setLabels(labels);
          return stored;
        });

    statuses.send(healthy("conflict", "web", uid, "192.0.2.2"));

    GenericKubernetesResource r = awaitRecords("conflict", "web", "192.0.2.2");
    assertThat(r.getMetadata().getLabels()).containsEntry("example.com/edited-meanwhile", "yes");
    assertThat(statusWrites("conflict", "web"))
        .extracting(Write::status)
        .containsExactly(200, 409, 200);
    assertThat(writer.get("/api/v1/gslb-status/conflict/web").body().replace(" ", ""))
        .contains("\"result\":\"DONE\"");
  }

  @Test
  void writesNothingMoreWhenAConcurrentWriteAlreadyMadeTheStatusRight() {
    String uid = uid(api.createGslb("race", "web"));
    statuses.send(healthy("race", "web", uid, "192.0.2.1"));
    awaitRecords("race", "web", "192.0.2.1");
    api.beforeNextStatusUpdate(
        "race",
        "web",
        stored -> {
          Map<String, Object> status = new HashMap<>(status(stored));
          status.put("healthyRecords", Map.of(host("web"), List.of("192.0.2.2")));
          status.put("loadBalancer", Map.of("exposedIps", List.of("192.0.2.2")));
          stored.setAdditionalProperty("status", status);
          return stored;
        });

    statuses.send(healthy("race", "web", uid, "192.0.2.2"));

    awaitRecords("race", "web", "192.0.2.2");
    barrier("race");
    assertThat(statusWrites("race", "web")).extracting(Write::status).containsExactly(200, 409);
  }

  @Test
  void repairsAStatusEditedByHand() {
    String uid = uid(api.createGslb("repair", "web"));
    statuses.send(healthy("repair", "web", uid, "192.0.2.1"));
    GenericKubernetesResource r = awaitRecords("repair", "web", "192.0.2.1");

    Map<String, Object> edited = new HashMap<>(status(r));
    edited.put("geoTag", "edited-by-hand");
    r.setAdditionalProperty("status", edited);
    api.client().genericKubernetesResources(MockKubernetes.GSLBS).resource(r).updateStatus();

    await()
        .atMost(WAIT)
        .until(() -> status(api.getGslb("repair", "web")).get("geoTag"), "eu"::equals);
  }

  @Test
  void recordsTheEnginesProblemsAsAnEventOnTheGslbOnce() {
    String uid = uid(api.createGslb("problems", "web"));
    statuses.send(
        TestStatuses.status(
            "problems",
            "web",
            uid,
            List.of("192.0.2.1"),
            List.of("spec.strategy.type: 'fastest' is not a strategy")));

    Event event =
        await()
            .atMost(WAIT)
            .until(
                () ->
                    api.events("problems").stream()
                        .filter(e -> "web".equals(e.getRegarding().getName()))
                        .findFirst()
                        .orElse(null),
                e -> e != null);
    assertThat(event.getType()).isEqualTo("Warning");
    assertThat(event.getReason()).isEqualTo("InvalidSpec");
    assertThat(event.getRegarding().getKind()).isEqualTo("Gslb");
    assertThat(event.getRegarding().getApiVersion()).isEqualTo("k8gb.io/v1beta1");
    assertThat(event.getRegarding().getUid()).isEqualTo(uid);
    assertThat(event.getNote()).contains("'fastest' is not a strategy");
    assertThat(event.getReportingController()).isEqualTo("cairn.dev/record-writer");
    // The problems are not a status field (a real API server would prune them).
    assertThat(status(api.getGslb("problems", "web"))).doesNotContainKey("problems");

    writer.bean(GslbStatusReconciler.class).requestResync();
    barrier("problems");
    eventBarrier("problems");

    assertThat(api.writesOf(EVENT_WRITES, "problems", null))
        .filteredOn(w -> w.name().startsWith("web."))
        .hasSize(1);
    assertThat(awaitExplained("problems", "web", "IN_SYNC").body())
        .contains("'fastest' is not a strategy");
  }

  @Test
  void explainsTheDesiredAndLiveStatusAndTheLastWrite() {
    String uid = uid(api.createGslb("explain", "web"));
    statuses.send(healthy("explain", "web", uid, "192.0.2.1"));
    awaitRecords("explain", "web", "192.0.2.1");

    String body = awaitExplained("explain", "web", "IN_SYNC").body();

    assertThat(body)
        .contains("\"desired\"")
        .contains("\"desiredStatus\"")
        .contains("\"live\"")
        .contains(uid)
        .contains("\"lastWrite\"")
        .contains("DONE");
    // neither an embedded ingress nor an annotated Ingress: the two parts are left out
    assertThat(body).doesNotContain("\"embeddedIngress\"").doesNotContain("\"fromIngress\"");
    var unknown = writer.get("/api/v1/gslb-status/nowhere/nothing");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body()).contains("\"error\":\"not-found\"").contains("Gslb nowhere/nothing");
  }

  @Test
  void reportsHealthAndMetrics() {
    await().atMost(WAIT).until(() -> writer.get("/actuator/health/readiness").statusCode() == 200);
    String health = writer.get("/actuator/health").body();
    assertThat(health).contains("\"gslbStatus\"").contains("\"gslbApiServed\":true");
    awaitRecords("early", "web", "192.0.2.10");
    String prometheus = writer.get("/actuator/prometheus").body();
    assertThat(prometheus)
        .contains("cairn_writer_gslb_status_writes_total{result=\"ok\"}")
        .contains("cairn_writer_gslb_status_caught_up 1.0")
        .contains("cairn_writer_gslb_status_write_latency_seconds");
  }
}
