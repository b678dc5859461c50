package dev.cairn.recordwriter;

import static dev.cairn.recordwriter.MockKubernetes.INGRESS_WRITES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.recordwriter.ingress.IngressPlan;
import dev.cairn.recordwriter.ingress.IngressTrees;
import dev.cairn.recordwriter.kube.IngressStore;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The Ingress a Gslb without resourceRef gets from its {@code spec.ingress} (k8gb.md §1.5), end to
 * end against the fabric8 CRUD mock: created, kept in line with the Gslb and repaired after hand
 * edits, never taken from someone else, released or deleted when the Gslb stops embedding it. One
 * writer for the class; each test on its own namespace.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedIngressIT {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private static final ResourceDefinitionContext INGRESSES = IngressStore.CONTEXT;

  private MockKubernetes api;
  private WriterRun writer;

  @BeforeAll
  void start() {
    api = new MockKubernetes(true);
    // Present before the writer starts.
    gslb("early", "app", embedded("early.cloud.example.com", 80), Map.of());
    writer = WriterRun.start(api, "ei.");
  }

  @AfterAll
  void stop() {
    if (writer != null) {
      writer.close();
    }
    api.close();
  }

  // ------------------------------------------------------------------ tests

  @Test
  void createsTheIngressOfAGslbThatWasThereBeforeItStarted() {
    GenericKubernetesResource ingress = awaitIngress("early", "app", "early.cloud.example.com");
    assertThat(spec(ingress)).isEqualTo(embedded("early.cloud.example.com", 80));
  }

  @Test
  void createsTheIngressAsK8gbDoesWithoutTheGslbsAnnotations() {
    GenericKubernetesResource gslb =
        gslb(
            "create",
            "app",
            embedded("app.cloud.example.com", 80),
            Map.of("k8gb.io/exposed-ip-addresses", "203.0.113.10"));

    GenericKubernetesResource ingress = awaitIngress("create", "app", "app.cloud.example.com");

    assertThat(ingress.getMetadata().getLabels())
        .containsEntry("app.k8gb.io/managed-by", "gslb")
        .containsEntry("app.kubernetes.io/managed-by", "cairn");
    assertThat(ingress.getMetadata().getAnnotations())
        .doesNotContainKey("k8gb.io/exposed-ip-addresses")
        .containsKey(IngressPlan.LAST_APPLIED_ANNOTATION);
    OwnerReference owner = ingress.getMetadata().getOwnerReferences().get(0);
    assertThat(owner.getApiVersion()).isEqualTo("k8gb.io/v1beta1");
    assertThat(owner.getKind()).isEqualTo("Gslb");
    assertThat(owner.getName()).isEqualTo("app");
    assertThat(owner.getUid()).isEqualTo(gslb.getMetadata().getUid());
    assertThat(owner.getController()).isTrue();
    assertThat(owner.getBlockOwnerDeletion()).isTrue();
    assertThat(spec(ingress)).isEqualTo(embedded("app.cloud.example.com", 80));
    // The explain API shows what became of it.
    await()
        .atMost(WAIT)
        .until(
            () -> writer.get("/api/v1/gslb-status/create/app").body().replace(" ", ""),
            body ->
                body.contains("\"embeddedIngress\":{\"action\":\"IN_SYNC\"")
                    && body.contains("\"lastWrite\":{\"status\":\"DONE\",\"detail\":\"created\"}"));
  }

  @Test
  void followsTheGslbKeepingWhatOthersSetAndTheStatus() {
    gslb("follow", "app", withTls(embedded("v1.cloud.example.com", 80)), Map.of());
    GenericKubernetesResource created = awaitIngress("follow", "app", "v1.cloud.example.com");
    // What an admission plugin and the ingress controller add: a class, and the status.
    Map<String, Object> spec = new LinkedHashMap<>(spec(created));
    spec.put("ingressClassName", "nginx");
    created.setAdditionalProperty("spec", spec);
    created.setAdditionalProperty(
        "status", Map.of("loadBalancer", Map.of("ingress", List.of(Map.of("ip", "203.0.113.7")))));
    api.client().genericKubernetesResources(INGRESSES).resource(created).update();

    // The Gslb drops its tls and changes its host.
    updateGslbSpec("follow", "app", embedded("v2.cloud.example.com", 80));

    GenericKubernetesResource updated = awaitIngress("follow", "app", "v2.cloud.example.com");
    assertThat(spec(updated)).doesNotContainKey("tls").containsEntry("ingressClassName", "nginx");
    assertThat(updated.getAdditionalProperties().get("status")).isNotNull();
  }

  @Test
  void repairsAHandEditAndRecreatesAfterADeleteThenWritesNoMore() {
    gslb("repair", "app", embedded("app.cloud.example.com", 80), Map.of());
    GenericKubernetesResource created = awaitIngress("repair", "app", "app.cloud.example.com");

    created.setAdditionalProperty("spec", embedded("hijack.example.com", 8080));
    api.client().genericKubernetesResources(INGRESSES).resource(created).update();
    awaitIngress("repair", "app", "app.cloud.example.com");

    api.client()
        .genericKubernetesResources(INGRESSES)
        .inNamespace("repair")
        .withName("app")
        .delete();
    awaitIngress("repair", "app", "app.cloud.example.com");

    // In line now: a Gslb change that leaves spec.ingress alone plans it again, and nothing is
    // written (no flapping against the API server's view).
    await().atMost(WAIT).until(writer::writesSettled);
    int before = api.writesOf(INGRESS_WRITES, "repair", "app").size();
    updateGslbAnnotation("repair", "app", "touched", "yes");
    await().atMost(WAIT).until(writer::writesSettled);
    barrier("repair");
    assertThat(api.writesOf(INGRESS_WRITES, "repair", "app")).hasSize(before);
  }

  @Test
  void leavesAnotherIngressOfTheNameAloneAndSaysSoOnTheGslb() {
    GenericKubernetesResource foreign =
        ingress("conflict", "app", embedded("mine.example.com", 80));
    foreign.getMetadata().setLabels(Map.of("team", "web"));
    api.client().genericKubernetesResources(INGRESSES).resource(foreign).create();
    int before = api.writesOf(INGRESS_WRITES, "conflict", "app").size();

    GenericKubernetesResource gslb =
        gslb("conflict", "app", embedded("app.cloud.example.com", 80), Map.of());

    Event event =
        await()
            .atMost(WAIT)
            .until(
                () ->
                    api.events("conflict").stream()
                        .filter(e -> "IngressConflict".equals(e.getReason()))
                        .findFirst()
                        .orElse(null),
                e -> e != null);
    assertThat(event.getType()).isEqualTo("Warning");
    assertThat(event.getRegarding().getKind()).isEqualTo("Gslb");
    assertThat(event.getRegarding().getUid()).isEqualTo(gslb.getMetadata().getUid());
    assertThat(event.getNote()).contains("spec.ingress").contains("it has no controller");
    assertThat(api.writesOf(INGRESS_WRITES, "conflict", "app")).hasSize(before);
    assertThat(spec(getIngress("conflict", "app"))).isEqualTo(embedded("mine.example.com", 80));

    HttpResponse<String> health = writer.get("/actuator/health/embeddedIngress");
    assertThat(health.body()).contains("conflict/app").contains("CONFLICT");
  }

  @Test
  void anIngressTheApiServerRefusesIsReportedOnTheGslb() {
    api.refuseIngressesContaining(
        "refused.cloud.example.com",
        "Ingress.networking.k8s.io \"app\" is invalid: spec.rules[0].http.paths[0].pathType:"
            + " Required value");
    GenericKubernetesResource gslb =
        gslb("refused", "app", embedded("refused.cloud.example.com", 80), Map.of());

    Event event =
        await()
            .atMost(WAIT)
            .until(
                () ->
                    api.events("refused").stream()
                        .filter(e -> "InvalidIngress".equals(e.getReason()))
                        .findFirst()
                        .orElse(null),
                e -> e != null);
    assertThat(event.getType()).isEqualTo("Warning");
    assertThat(event.getRegarding().getUid()).isEqualTo(gslb.getMetadata().getUid());
    assertThat(event.getNote()).contains("spec.ingress").contains("pathType: Required value");
    assertThat(getIngress("refused", "app")).isNull();
    assertThat(writer.get("/actuator/health/embeddedIngress").body())
        .contains("refused/app")
        .contains("refused: refused by the API server (422)");
  }

  @Test
  void deletesTheIngressWhenTheGslbReferencesAnotherObjectOrIsGone() {
    gslb("switch", "app", embedded("app.cloud.example.com", 80), Map.of());
    gslb("gone", "app", embedded("app.cloud.example.com", 80), Map.of());
    awaitIngress("switch", "app", "app.cloud.example.com");
    awaitIngress("gone", "app", "app.cloud.example.com");

    replaceGslbSpec(
        "switch",
        "app",
        Map.of(
            "resourceRef",
            Map.of("apiVersion", "networking.k8s.io/v1", "kind", "Ingress", "name", "shop"),
            "strategy",
            Map.of("type", "roundRobin")));
    api.client()
        .genericKubernetesResources(MockKubernetes.GSLBS)
        .inNamespace("gone")
        .withName("app")
        .delete();

    await().atMost(WAIT).until(() -> getIngress("switch", "app") == null);
    await().atMost(WAIT).until(() -> getIngress("gone", "app") == null);
  }

  @Test
  void releasesTheIngressWhenTheGslbReferencesIt() {
    gslb("release", "app", embedded("app.cloud.example.com", 80), Map.of());
    awaitIngress("release", "app", "app.cloud.example.com");

    replaceGslbSpec(
        "release",
        "app",
        Map.of(
            "resourceRef",
            Map.of("apiVersion", "networking.k8s.io/v1", "kind", "Ingress", "name", "app"),
            "strategy",
            Map.of("type", "roundRobin")));

    GenericKubernetesResource released =
        await()
            .atMost(WAIT)
            .until(
                () -> getIngress("release", "app"),
                r -> r != null && r.getMetadata().getOwnerReferences().isEmpty());
    assertThat(released.getMetadata().getLabels())
        .doesNotContainKey("app.k8gb.io/managed-by")
        .doesNotContainKey("app.kubernetes.io/managed-by");
    assertThat(released.getMetadata().getAnnotations())
        .doesNotContainKey(IngressPlan.LAST_APPLIED_ANNOTATION);
    assertThat(spec(released)).isEqualTo(embedded("app.cloud.example.com", 80));

    // Embedding it again takes it back (it is not someone else's Ingress).
    replaceGslbSpec(
        "release",
        "app",
        Map.of(
            "ingress",
            embedded("app.cloud.example.com", 80),
            "strategy",
            Map.of("type", "roundRobin")));
    GenericKubernetesResource taken = awaitIngress("release", "app", "app.cloud.example.com");
    assertThat(taken.getMetadata().getOwnerReferences().get(0).getUid())
        .isEqualTo(api.getGslb("release", "app").getMetadata().getUid());
    assertThat(taken.getMetadata().getAnnotations())
        .doesNotContainKey(IngressPlan.RELEASED_FROM_ANNOTATION);
    assertThat(api.events("release")).noneMatch(e -> "IngressConflict".equals(e.getReason()));
  }

  @Test
  void keepsTheIngressOfAGslbThatBecameInvalid() {
    gslb("invalid", "app", embedded("app.cloud.example.com", 80), Map.of());
    awaitIngress("invalid", "app", "app.cloud.example.com");

    replaceGslbSpec("invalid", "app", Map.of("strategy", Map.of("type", "roundRobin")));
    barrier("invalid");

    assertThat(getIngress("invalid", "app")).isNotNull();
  }

  // ------------------------------------------------------------------ fixtures

  /**
   * Waits until every Gslb change made before has been planned: the loop takes events in order, so
   * once a new Gslb's Ingress exists, every earlier event has been planned; then no write may be
   * queued or in flight.
   */
  private void barrier(String ns) {
    String marker = "marker-" + System.nanoTime();
    gslb(ns, marker, embedded(marker + ".cloud.example.com", 80), Map.of());
    awaitIngress(ns, marker, marker + ".cloud.example.com");
    await().atMost(WAIT).until(writer::writesSettled);
  }

  private static Map<String, Object> embedded(String host, int port) {
    return IngressTrees.spec(host, "web", port);
  }

  private static Map<String, Object> withTls(Map<String, Object> spec) {
    Map<String, Object> out = new LinkedHashMap<>(spec);
    out.put("tls", List.of(Map.of("hosts", List.of("v1.cloud.example.com"), "secretName", "c")));
    return out;
  }

  private GenericKubernetesResource gslb(
      String ns, String name, Map<String, Object> ingress, Map<String, String> annotations) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion("k8gb.io/v1beta1");
    r.setKind("Gslb");
    r.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(ns)
            .withName(name)
            .withAnnotations(annotations.isEmpty() ? null : annotations)
            .build());
    r.setAdditionalProperty(
        "spec", Map.of("ingress", ingress, "strategy", Map.of("type", "roundRobin")));
    return api.client().genericKubernetesResources(MockKubernetes.GSLBS).resource(r).create();
  }

  private void replaceGslbSpec(String ns, String name, Map<String, Object> spec) {
    GenericKubernetesResource r = api.getGslb(ns, name);
    r.setAdditionalProperty("spec", spec);
    api.client().genericKubernetesResources(MockKubernetes.GSLBS).resource(r).update();
  }

  @SuppressWarnings("unchecked")
  private void updateGslbSpec(String ns, String name, Map<String, Object> ingress) {
    GenericKubernetesResource r = api.getGslb(ns, name);
    Map<String, Object> spec =
        new LinkedHashMap<>((Map<String, Object>) r.getAdditionalProperties().get("spec"));
    spec.put("ingress", ingress);
    r.setAdditionalProperty("spec", spec);
    api.client().genericKubernetesResources(MockKubernetes.GSLBS).resource(r).update();
  }

  private void updateGslbAnnotation(String ns, String name, String key, String value) {
    GenericKubernetesResource r = api.getGslb(ns, name);
    Map<String, String> annotations =
        new LinkedHashMap<>(
            r.getMetadata().getAnnotations() == null ? Map.of() : r.getMetadata().getAnnotations());
    annotations.put(key, value);
    r.getMetadata().setAnnotations(annotations);
    api.client().genericKubernetesResources(MockKubernetes.GSLBS).resource(r).update();
  }

  private static GenericKubernetesResource ingress(String ns, String name, Object spec) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion("networking.k8s.io/v1");
    r.setKind("Ingress");
    r.setMetadata(new ObjectMetaBuilder().withNamespace(ns).withName(name).build());
    r.setAdditionalProperty("spec", spec);
    return r;
  }

  private GenericKubernetesResource getIngress(String ns, String name) {
    return api.client().genericKubernetesResources(INGRESSES).inNamespace(ns).withName(name).get();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource r) {
    return (Map<String, Object>) r.getAdditionalProperties().get("spec");
  }

  @SuppressWarnings("unchecked")
  private static String host(GenericKubernetesResource r) {
    List<Map<String, Object>> rules = (List<Map<String, Object>>) spec(r).get("rules");
    return rules == null || rules.isEmpty() ? null : (String) rules.get(0).get("host");
  }

  private GenericKubernetesResource awaitIngress(String ns, String name, String host) {
    return await()
        .atMost(WAIT)
        .until(
            () -> getIngress(ns, name),
            r ->
                r != null
                    && host.equals(host(r))
                    && r.getMetadata().getOwnerReferences() != null
                    && !r.getMetadata().getOwnerReferences().isEmpty());
  }
}
