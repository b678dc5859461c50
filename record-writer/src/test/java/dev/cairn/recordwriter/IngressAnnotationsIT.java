package dev.cairn.recordwriter;

import static dev.cairn.recordwriter.MockKubernetes.GSLB_WRITES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.recordwriter.ingress.IngressTrees;
import dev.cairn.recordwriter.kube.IngressStore;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * k8gb's Ingress-annotation mode (k8gb.md §1.6) end to end against the fabric8 CRUD mock: an
 * Ingress annotated {@code k8gb.io/strategy} gets a Gslb it controls, which follows its annotations
 * and keeps what users set on it, a Gslb that is someone else's is left alone, and annotations
 * Cairn cannot use are reported on the Ingress. One writer for the class; each test on its own
 * namespace.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IngressAnnotationsIT {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private MockKubernetes api;
  private WriterRun writer;

  @BeforeAll
  void start() {
    api = new MockKubernetes(true);
    // Present before the writer starts.
    ingress("early", "app", Map.of("k8gb.io/strategy", "roundRobin"), null);
    writer = WriterRun.start(api, "ia.");
  }

  @AfterAll
  void stop() {
    if (writer != null) {
      writer.close();
    }
    api.close();
  }

  @Test
  void createsTheGslbOfAnIngressThatWasThereBeforeItStarted() {
    GenericKubernetesResource gslb = awaitGslb("early", "app", s -> s.get("strategy") != null);
    assertThat(strategy(gslb))
        .containsEntry("type", "roundRobin")
        .containsEntry("dnsTtlSeconds", 30);
  }

  @Test
  void createsTheGslbAsK8gbDoesControlledByTheIngress() {
    GenericKubernetesResource ingress =
        ingress(
            "create",
            "app",
            Map.of(
                "k8gb.io/strategy", "failover",
                "k8gb.io/primary-geotag", "eu",
                "k8gb.io/dns-ttl-seconds", "10",
                "k8gb.io/exposed-ip-addresses", "203.0.113.10"),
            null);

    GenericKubernetesResource gslb = awaitGslb("create", "app", s -> s.get("strategy") != null);

    assertThat(spec(gslb).get("resourceRef"))
        .isEqualTo(Map.of("apiVersion", "networking.k8s.io/v1", "kind", "Ingress", "name", "app"));
    assertThat(strategy(gslb))
        .containsEntry("type", "failover")
        .containsEntry("primaryGeoTag", "eu")
        .containsEntry("dnsTtlSeconds", 10);
    assertThat(gslb.getMetadata().getAnnotations())
        .containsEntry("k8gb.io/exposed-ip-addresses", "203.0.113.10");
    OwnerReference owner = gslb.getMetadata().getOwnerReferences().get(0);
    assertThat(owner.getKind()).isEqualTo("Ingress");
    assertThat(owner.getApiVersion()).isEqualTo("networking.k8s.io/v1");
    assertThat(owner.getUid()).isEqualTo(ingress.getMetadata().getUid());
    assertThat(owner.getController()).isTrue();
    assertThat(owner.getBlockOwnerDeletion()).isTrue();
  }

  @Test
  void followsTheAnnotationsKeepsWhatUsersSetAndThenWritesNoMore() {
    ingress("follow", "app", Map.of("k8gb.io/strategy", "roundRobin"), null);
    GenericKubernetesResource gslb = awaitGslb("follow", "app", s -> s.get("strategy") != null);
    // A user weights the Gslb by hand, as k8gb's docs say to.
    Map<String, Object> strategy = new LinkedHashMap<>(strategy(gslb));
    strategy.put("weight", Map.of("eu", 70, "us", 30));
    Map<String, Object> spec = new LinkedHashMap<>(spec(gslb));
    spec.put("strategy", strategy);
    gslb.setAdditionalProperty("spec", spec);
    api.client().genericKubernetesResources(MockKubernetes.GSLBS).resource(gslb).update();

    annotate("follow", "app", "k8gb.io/dns-ttl-seconds", "5");

    GenericKubernetesResource updated =
        awaitGslb(
            "follow", "app", s -> Integer.valueOf(5).equals(strategyOf(s).get("dnsTtlSeconds")));
    assertThat(strategy(updated)).containsEntry("weight", Map.of("eu", 70, "us", 30));

    // In line now: an Ingress change that leaves the annotations alone writes nothing.
    await().atMost(WAIT).until(writer::writesSettled);
    int before = api.writesOf(GSLB_WRITES, "follow", "app").size();
    annotate("follow", "app", "team.example.com/contact", "shop@example.com");
    barrier("follow");
    assertThat(api.writesOf(GSLB_WRITES, "follow", "app")).hasSize(before);
  }

  @Test
  void leavesAGslbItDoesNotControlAloneAndSaysSoOnTheIngress() {
    GenericKubernetesResource foreign = new GenericKubernetesResource();
    foreign.setApiVersion("k8gb.io/v1beta1");
    foreign.setKind("Gslb");
    foreign.setMetadata(new ObjectMetaBuilder().withNamespace("conflict").withName("app").build());
    foreign.setAdditionalProperty(
        "spec",
        Map.of(
            "ingress", IngressTrees.spec("mine.cloud.example.com", "web", 80),
            "strategy", Map.of("type", "geoip")));
    api.client().genericKubernetesResources(MockKubernetes.GSLBS).resource(foreign).create();
    int before = api.writesOf(GSLB_WRITES, "conflict", "app").size();

    GenericKubernetesResource ingress =
        ingress("conflict", "app", Map.of("k8gb.io/strategy", "roundRobin"), null);

    Event event = awaitEvent("conflict", "GslbConflict");
    assertThat(event.getType()).isEqualTo("Warning");
    assertThat(event.getRegarding().getKind()).isEqualTo("Ingress");
    assertThat(event.getRegarding().getUid()).isEqualTo(ingress.getMetadata().getUid());
    assertThat(event.getNote())
        .contains("metadata.annotations[k8gb.io/strategy]")
        .contains("this Ingress does not control it");
    assertThat(api.writesOf(GSLB_WRITES, "conflict", "app")).hasSize(before);
    assertThat(strategyOf(spec(api.getGslb("conflict", "app")))).containsEntry("type", "geoip");
    assertThat(writer.get("/actuator/health/ingressAnnotations").body())
        .contains("conflict/app")
        .contains("CONFLICT");
    assertThat(writer.get("/api/v1/gslb-status/conflict/app").body().replace(" ", ""))
        .contains("\"fromIngress\":{\"action\":\"CONFLICT\"");
  }

  @Test
  void reportsAnnotationsItCannotUseAndCreatesTheGslbOnceTheyAreFixed() {
    GenericKubernetesResource ingress =
        ingress("invalid", "app", Map.of("k8gb.io/strategy", "failover"), null);

    Event event = awaitEvent("invalid", "InvalidAnnotation");
    assertThat(event.getRegarding().getUid()).isEqualTo(ingress.getMetadata().getUid());
    assertThat(event.getNote())
        .contains("metadata.annotations[k8gb.io/primary-geotag]")
        .contains("required by the failover strategy");
    assertThat(api.getGslb("invalid", "app")).isNull();

    annotate("invalid", "app", "k8gb.io/primary-geotag", "us");

    GenericKubernetesResource gslb = awaitGslb("invalid", "app", s -> s.get("strategy") != null);
    assertThat(strategy(gslb)).containsEntry("primaryGeoTag", "us");
  }

  @Test
  void aGslbsOwnIngressAndAnUnannotatedOneGetNoGslb() {
    OwnerReference gslbOwner =
        new OwnerReferenceBuilder()
            .withApiVersion("k8gb.io/v1beta1")
            .withKind("Gslb")
            .withName("embedded")
            .withUid("some-gslb-uid")
            .withController(true)
            .build();
    ingress("skip", "embedded", Map.of("k8gb.io/strategy", "roundRobin"), gslbOwner);
    ingress("skip", "plain", Map.of("kubernetes.io/ingress.class", "nginx"), null);

    barrier("skip");

    assertThat(api.getGslb("skip", "embedded")).isNull();
    assertThat(api.getGslb("skip", "plain")).isNull();
  }

  @Test
  void keepsTheGslbWhenTheAnnotationGoes() {
    ingress("removed", "app", Map.of("k8gb.io/strategy", "roundRobin"), null);
    awaitGslb("removed", "app", s -> s.get("strategy") != null);
    await().atMost(WAIT).until(writer::writesSettled);
    int before = api.writesOf(GSLB_WRITES, "removed", "app").size();

    GenericKubernetesResource r = getIngress("removed", "app");
    Map<String, String> annotations = new LinkedHashMap<>(r.getMetadata().getAnnotations());
    annotations.remove("k8gb.io/strategy");
    r.getMetadata().setAnnotations(annotations.isEmpty() ? null : annotations);
    api.client().genericKubernetesResources(IngressStore.CONTEXT).resource(r).update();
    barrier("removed");

    assertThat(api.getGslb("removed", "app")).isNotNull();
    assertThat(api.writesOf(GSLB_WRITES, "removed", "app")).hasSize(before);
  }

  // ------------------------------------------------------------------ helpers

  /**
   * Waits until every event before it has been planned: a new annotated Ingress's Gslb exists (the
   * loop plans in order), then no write is queued or in flight.
   */
  private void barrier(String ns) {
    String marker = "marker-" + System.nanoTime();
    ingress(ns, marker, Map.of("k8gb.io/strategy", "geoip"), null);
    awaitGslb(ns, marker, s -> s.get("strategy") != null);
    await().atMost(WAIT).until(writer::writesSettled);
  }

  private GenericKubernetesResource ingress(
      String ns, String name, Map<String, String> annotations, OwnerReference owner) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion("networking.k8s.io/v1");
    r.setKind("Ingress");
    r.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(ns)
            .withName(name)
            .withAnnotations(new LinkedHashMap<>(annotations))
            .withOwnerReferences(owner == null ? null : List.of(owner))
            .build());
    r.setAdditionalProperty("spec", IngressTrees.spec(name + ".cloud.example.com", "web", 80));
    return api.client().genericKubernetesResources(IngressStore.CONTEXT).resource(r).create();
  }

  private void annotate(String ns, String name, String key, String value) {
    GenericKubernetesResource r = getIngress(ns, name);
    Map<String, String> annotations = new LinkedHashMap<>(r.getMetadata().getAnnotations());
    annotations.put(key, value);
    r.getMetadata().setAnnotations(annotations);
    api.client().genericKubernetesResources(IngressStore.CONTEXT).resource(r).update();
  }

  private GenericKubernetesResource getIngress(String ns, String name) {
    return api.client()
        .genericKubernetesResources(IngressStore.CONTEXT)
        .inNamespace(ns)
        .withName(name)
        .get();
  }

  private GenericKubernetesResource awaitGslb(
      String ns, String name, Predicate<Map<String, Object>> spec) {
    return await()
        .atMost(WAIT)
        .until(() -> api.getGslb(ns, name), g -> g != null && spec.test(spec(g)));
  }

  private Event awaitEvent(String ns, String reason) {
    return await()
        .atMost(WAIT)
        .until(
            () ->
                api.events(ns).stream()
                    .filter(e -> reason.equals(e.getReason()))
                    .findFirst()
                    .orElse(null),
            e -> e != null);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource r) {
    return (Map<String, Object>) r.getAdditionalProperties().get("spec");
  }

  private static Map<String, Object> strategy(GenericKubernetesResource r) {
    return strategyOf(spec(r));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> strategyOf(Map<String, Object> spec) {
    Object s = spec == null ? null : spec.get("strategy");
    return s == null ? Map.of() : (Map<String, Object>) s;
  }
}
