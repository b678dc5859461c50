package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.Gateway;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The stack's mock Kubernetes API ({@link MockKubernetesApi} with {@link IndexedCrudDispatcher})
 * through a real fabric8 client: the CRUD, optimistic concurrency, status subresource and watch
 * semantics Cairn's services rely on.
 */
class MockKubernetesApiIT {

  private static final String NS = "apps";

  private MockKubernetesApi api;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    api = MockKubernetesApi.start(0, new IndexedCrudDispatcher(8, Duration.ZERO));
    client = api.client();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void getsObjectsByNameAndListsThemBySelectorAndNamespace() {
    client.discovery().v1().endpointSlices().resource(slice(NS, "a-1", "a")).create();
    client.discovery().v1().endpointSlices().resource(slice(NS, "a-2", "a")).create();
    client.discovery().v1().endpointSlices().resource(slice(NS, "b-1", "b")).create();
    client.discovery().v1().endpointSlices().resource(slice("other", "a-1", "a")).create();
    client.nodes().resource(SampleTopology.node("n1", "z1", true, null, "10.0.0.1", null)).create();
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
        .create();

    assertThat(client.discovery().v1().endpointSlices().inNamespace(NS).withName("a-2").get())
        .extracting(s -> s.getMetadata().getName(), s -> s.getMetadata().getNamespace())
        .containsExactly("a-2", NS);
    assertThat(client.discovery().v1().endpointSlices().inNamespace(NS).withName("zz").get())
        .isNull();
    assertThat(
            names(
                client
                    .discovery()
                    .v1()
                    .endpointSlices()
                    .inNamespace(NS)
                    .withLabel("kubernetes.io/service-name", "a")
                    .list()
                    .getItems()))
        .containsExactly(NS + "/a-1", NS + "/a-2");
    assertThat(
            names(
                client
                    .discovery()
                    .v1()
                    .endpointSlices()
                    .inAnyNamespace()
                    .withLabel("kubernetes.io/service-name", "a")
                    .list()
                    .getItems()))
        .containsExactly(NS + "/a-1", NS + "/a-2", "other/a-1");
    assertThat(
            names(
                client
                    .discovery()
                    .v1()
                    .endpointSlices()
                    .inAnyNamespace()
                    .withoutLabel("kubernetes.io/service-name", "a")
                    .list()
                    .getItems()))
        .containsExactly(NS + "/b-1");
    assertThat(
            names(
                client
                    .discovery()
                    .v1()
                    .endpointSlices()
                    .inAnyNamespace()
                    .withLabelNotIn("kubernetes.io/service-name", "a")
                    .list()
                    .getItems()))
        .containsExactly(NS + "/b-1");
    assertThat(
            names(
                client
                    .discovery()
                    .v1()
                    .endpointSlices()
                    .inNamespace(NS)
                    .withLabelIn("kubernetes.io/service-name", "b", "c")
                    .list()
                    .getItems()))
        .containsExactly(NS + "/b-1");
    assertThat(
            names(client.discovery().v1().endpointSlices().inNamespace("other").list().getItems()))
        .containsExactly("other/a-1");
    assertThat(client.nodes().withName("n1").get().getMetadata().getLabels())
        .containsEntry("topology.kubernetes.io/zone", "z1");
    assertThat(client.nodes().list().getItems()).hasSize(1);
    assertThat(client.namespaces().withName(NS).get()).isNotNull();
    assertThat(client.network().v1().ingresses().inNamespace(NS).list().getItems()).isEmpty();
  }

  @Test
  void rejectsStaleWritesAndDuplicatesWithConflict() {
    Lease lease = client.leases().inNamespace(NS).resource(lease("leader", "a")).create();
    assertThat(lease.getMetadata().getResourceVersion()).isNotBlank();
    assertThatThrownBy(
            () -> client.leases().inNamespace(NS).resource(lease("leader", "b")).create())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));

    Lease renewed = new LeaseBuilder(lease).editSpec().withHolderIdentity("a2").endSpec().build();
    Lease afterRenewal = client.leases().inNamespace(NS).resource(renewed).update();
    assertThat(Long.parseLong(afterRenewal.getMetadata().getResourceVersion()))
        .isGreaterThan(Long.parseLong(lease.getMetadata().getResourceVersion()));

    Lease stale = new LeaseBuilder(lease).editSpec().withHolderIdentity("b").endSpec().build();
    assertThatThrownBy(() -> client.leases().inNamespace(NS).resource(stale).update())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    assertThat(
            client.leases().inNamespace(NS).withName("leader").get().getSpec().getHolderIdentity())
        .isEqualTo("a2");
  }

  @Test
  void aMergePatchReplacesListsAsTheApiServerDoes() {
    client
        .services()
        .inNamespace(NS)
        .resource(
            new ServiceBuilder()
                .withNewMetadata()
                .withName("web")
                .addToLabels("app", "web")
                .endMetadata()
                .withNewSpec()
                .addNewPort()
                .withName("http")
                .withPort(80)
                .endPort()
                .addNewPort()
                .withName("https")
                .withPort(443)
                .endPort()
                .endSpec()
                .build())
        .create();

    Service patched =
        client
            .services()
            .inNamespace(NS)
            .withName("web")
            .patch(
                PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"tier\":\"front\"}},"
                    + "\"spec\":{\"ports\":[{\"name\":\"grpc\",\"port\":9090}]}}");

    // RFC 7386: objects merge, a list is replaced whole (fabric8's handler merged lists by index).
    assertThat(patched.getMetadata().getLabels())
        .containsEntry("app", "web")
        .containsEntry("tier", "front");
    assertThat(patched.getSpec().getPorts()).extracting(p -> p.getName()).containsExactly("grpc");
    assertThat(client.services().inNamespace(NS).withName("web").get().getSpec().getPorts())
        .extracting(p -> p.getPort())
        .containsExactly(9090);
    assertThatThrownBy(
            () ->
                client
                    .services()
                    .inNamespace(NS)
                    .withName("absent")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{}}"))
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  @Test
  void keepsStatusBehindItsSubresourceAndCountsSpecGenerations() {
    GenericKubernetesResource created = gslbs().resource(gslb("g", "r")).create();
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);

    GenericKubernetesResource withStatus = gslbs().withName("g").get();
    withStatus.setAdditionalProperty("status", Map.of("geoTag", "eu"));
    GenericKubernetesResource statusWritten = gslbs().resource(withStatus).updateStatus();
    assertThat(statusWritten.getAdditionalProperties())
        .containsEntry("status", Map.of("geoTag", "eu"));
    assertThat(statusWritten.getMetadata().getGeneration()).isEqualTo(1L);

    GenericKubernetesResource changed = gslb("g", "r2");
    changed.setAdditionalProperty("status", Map.of("geoTag", "us"));
    changed.getMetadata().setResourceVersion(statusWritten.getMetadata().getResourceVersion());
    GenericKubernetesResource specWritten = gslbs().resource(changed).update();
    assertThat(specWritten.getMetadata().getGeneration()).isEqualTo(2L);
    assertThat(specWritten.getAdditionalProperties())
        .containsEntry("status", Map.of("geoTag", "eu"));

    GenericKubernetesResource patched =
        gslbs()
            .withName("g")
            .patch(
                PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"team\":\"dns\"}}}");
    assertThat(patched.getMetadata().getLabels()).containsEntry("team", "dns");
    assertThat(patched.getMetadata().getGeneration()).isEqualTo(2L);
    assertThat(gslbs().withLabel("team", "dns").list().getItems()).hasSize(1);
  }

  @Test
  void servesGatewaysAsTheTopologyWatcherReadsThem() {
    assertThat(client.getApiResources("gateway.networking.k8s.io/v1").getResources())
        .extracting(r -> r.getName())
        .contains("httproutes", "grpcroutes", "tlsroutes", "tcproutes", "udproutes", "gateways");
    Gateway gateway =
        new GatewayBuilder()
            .withNewMetadata()
            .withNamespace(NS)
            .withName("public")
            .endMetadata()
            .withNewSpec()
            .withGatewayClassName("example")
            .addNewListener()
            .withName("https")
            .withHostname("*.example.com")
            .withPort(443)
            .withProtocol("HTTPS")
            .endListener()
            .endSpec()
            .build();
    client.resources(Gateway.class).resource(gateway).create();

    Gateway read = client.resources(Gateway.class).inNamespace(NS).withName("public").get();
    read.setStatus(
        new GatewayStatusBuilder()
            .addNewAddress()
            .withType("IPAddress")
            .withValue("203.0.113.50")
            .endAddress()
            .build());
    client.resources(Gateway.class).resource(read).updateStatus();

    assertThat(client.resources(Gateway.class).inAnyNamespace().list().getItems())
        .singleElement()
        .satisfies(
            g -> {
              assertThat(g.getSpec().getListeners().get(0).getHostname())
                  .isEqualTo("*.example.com");
              assertThat(g.getStatus().getAddresses().get(0).getValue()).isEqualTo("203.0.113.50");
            });
  }

  @Test
  void keepsNoRecordOfTheRequestsItServed() {
    for (int i = 0; i < 100; i++) {
      dnsEndpoints().resource(dnsEndpoint("r" + i, "192.0.2.1")).create();
      assertThat(dnsEndpoints().withName("r" + i).get()).isNotNull();
    }

    assertThat(api.requestCount()).isGreaterThanOrEqualTo(200);
    assertThat(api.recordedRequestsHeld()).as("at most the last request's record").isLessThan(2);
  }

  @Test
  void deletesObjectsAndTheirTypeForgetsThem() {
    dnsEndpoints().resource(dnsEndpoint("d1", "192.0.2.1")).create();
    dnsEndpoints().resource(dnsEndpoint("d2", "192.0.2.2")).create();

    assertThat(dnsEndpoints().withName("d1").delete()).hasSize(1);

    assertThat(dnsEndpoints().withName("d1").get()).isNull();
    assertThat(dnsEndpoints().list().getItems())
        .extracting(d -> d.getMetadata().getName())
        .containsExactly("d2");
    assertThat(dnsEndpoints().withName("d1").delete()).isEmpty();
    dnsEndpoints().resource(dnsEndpoint("d1", "192.0.2.3")).create();
    assertThat(dnsEndpoints().withName("d1").get()).isNotNull();
  }

  @Test
  void watchSeesEveryChangeInResourceVersionOrder() throws Exception {
    Recorder recorder = new Recorder();
    try (Watch ignored = dnsEndpoints().watch(recorder)) {
      GenericKubernetesResource d =
          dnsEndpoints().resource(dnsEndpoint("d1", "192.0.2.1")).create();
      GenericKubernetesResource changed = dnsEndpoint("d1", "192.0.2.2");
      changed.getMetadata().setResourceVersion(d.getMetadata().getResourceVersion());
      dnsEndpoints().resource(changed).update();
      dnsEndpoints().withName("d1").delete();

      await().atMost(Duration.ofSeconds(10)).until(() -> recorder.events.size() == 3);
    }
    assertThat(recorder.types()).containsExactly("ADDED", "MODIFIED", "DELETED");
    assertThat(recorder.versions()).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void watchFromAResourceVersionReplaysOnlyLaterChanges() throws Exception {
    dnsEndpoints().resource(dnsEndpoint("old", "192.0.2.1")).create();
    String listed = dnsEndpoints().list().getMetadata().getResourceVersion();
    dnsEndpoints().resource(dnsEndpoint("new", "192.0.2.2")).create();
    dnsEndpoints().withName("old").delete();

    Recorder resumed = new Recorder();
    Recorder fromScratch = new Recorder();
    try (Watch a = dnsEndpoints().watch(options(listed), resumed);
        Watch b = dnsEndpoints().watch(options("0"), fromScratch)) {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> resumed.events.size() == 2 && fromScratch.events.size() == 1);
    }
    assertThat(resumed.types()).containsExactly("ADDED", "DELETED");
    assertThat(resumed.names()).containsExactly("new", "old");
    assertThat(resumed.versions())
        .isSorted()
        .allSatisfy(v -> assertThat(v).isGreaterThan(Long.parseLong(listed)));
    assertThat(fromScratch.names()).containsExactly("new");
  }

  @Test
  void watchFromAVersionOlderThanTheHistoryExpires() throws Exception {
    String start = dnsEndpoints().list().getMetadata().getResourceVersion();
    for (int i = 0; i < 10; i++) {
      dnsEndpoints().resource(dnsEndpoint("d" + i, "192.0.2.1")).create();
    }
    Recorder recorder = new Recorder();
    dnsEndpoints().watch(options(start), recorder);

    WatcherException closed = recorder.closed.get(10, TimeUnit.SECONDS);
    assertThat(closed.isHttpGone()).isTrue();
    assertThat(recorder.events).isEmpty();
  }

  @Test
  void labelledWatchSeesObjectsEnterAndLeaveItsSelector() throws Exception {
    Recorder recorder = new Recorder();
    GenericKubernetesResource d = dnsEndpoints().resource(dnsEndpoint("d1", "192.0.2.1")).create();
    try (Watch ignored = dnsEndpoints().withLabel("tier", "gold").watch(recorder)) {
      GenericKubernetesResource gold =
          dnsEndpoints()
              .withName("d1")
              .edit(
                  r -> {
                    r.getMetadata().getLabels().put("tier", "gold");
                    return r;
                  });
      dnsEndpoints()
          .withName("d1")
          .edit(
              r -> {
                r.getMetadata().getLabels().remove("tier");
                return r;
              });
      await().atMost(Duration.ofSeconds(10)).until(() -> recorder.events.size() == 2);
      assertThat(recorder.types()).containsExactly("ADDED", "DELETED");
      assertThat(recorder.versions().get(0))
          .isEqualTo(Long.parseLong(gold.getMetadata().getResourceVersion()));
      assertThat(recorder.versions().get(1))
          .isGreaterThan(Long.parseLong(gold.getMetadata().getResourceVersion()));
    }
    assertThat(d.getMetadata().getName()).isEqualTo("d1");
  }

  @Test
  void informersFollowCreatesUpdatesDeletesAndBookmarks() {
    dnsEndpoints().resource(dnsEndpoint("before", "192.0.2.1")).create();
    AtomicInteger deletes = new AtomicInteger();
    SharedIndexInformer<GenericKubernetesResource> all = dnsEndpoints().inform(onDelete(deletes));
    SharedIndexInformer<GenericKubernetesResource> gold =
        dnsEndpoints().withLabel("tier", "gold").inform(onDelete(new AtomicInteger()));
    try {
      await().atMost(Duration.ofSeconds(10)).until(() -> all.hasSynced() && gold.hasSynced());
      dnsEndpoints().resource(dnsEndpoint("after", "192.0.2.2")).create();
      dnsEndpoints()
          .withName("before")
          .edit(
              r -> {
                r.setAdditionalProperty(
                    "spec", Map.of("endpoints", List.of(Map.of("dnsName", "x.example.com"))));
                return r;
              });
      dnsEndpoints().withName("after").delete();
      String last =
          dnsEndpoints()
              .resource(dnsEndpoint("last", "192.0.2.3"))
              .create()
              .getMetadata()
              .getResourceVersion();

      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> {
                assertThat(all.getStore().list())
                    .extracting(r -> r.getMetadata().getName())
                    .containsExactlyInAnyOrder("before", "last");
                assertThat(all.getStore().getByKey(NS + "/before").getAdditionalProperties())
                    .containsEntry(
                        "spec", Map.of("endpoints", List.of(Map.of("dnsName", "x.example.com"))));
                assertThat(deletes).hasValue(1);
                // The gold informer saw none of these objects, only bookmarks up to the last
                // change.
                assertThat(Long.parseLong(gold.lastSyncResourceVersion()))
                    .isGreaterThanOrEqualTo(Long.parseLong(last));
              });
      assertThat(gold.getStore().list()).isEmpty();
    } finally {
      all.close();
      gold.close();
    }
  }

  @Test
  void closingAWatchDuringItsInitialEventsLeavesTheApiAnswering() throws Exception {
    for (int i = 0; i < 300; i++) {
      dnsEndpoints().resource(dnsEndpoint("d" + i, "192.0.2.1")).create();
    }
    for (int round = 0; round < 2; round++) {
      Recorder recorder = new Recorder();
      Watch watch = dnsEndpoints().watch(recorder);
      await().atMost(Duration.ofSeconds(10)).until(() -> !recorder.events.isEmpty());
      watch.close();
      // fabric8's own watch listener blocks the server's event loop here for 30 s or more (its
      // close waits for sends that wait for that event loop); the client's request timeout (10 s)
      // turns such a stall into a failure of these gets.
      for (int i = 0; i < 20; i++) {
        assertThat(dnsEndpoints().withName("d" + i).get()).isNotNull();
      }
    }
  }

  private static ListOptions options(String resourceVersion) {
    return new ListOptionsBuilder().withResourceVersion(resourceVersion).build();
  }

  private static ResourceEventHandler<GenericKubernetesResource> onDelete(AtomicInteger deletes) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource obj) {}

      @Override
      public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {}

      @Override
      public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
        deletes.incrementAndGet();
      }
    };
  }

  private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>>
      dnsEndpoints() {
    return DnsEndpoints.of(client).inNamespace(NS);
  }

  private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>>
      gslbs() {
    return client.genericKubernetesResources(SampleTopology.GSLB_CONTEXT).inNamespace(NS);
  }

  private static GenericKubernetesResource gslb(String name, String route) {
    GenericKubernetesResource g =
        SampleTopology.gslb(name, route, Map.of("type", "failover", "primaryGeoTag", "eu"));
    g.getMetadata().setNamespace(NS);
    return g;
  }

  private static GenericKubernetesResource dnsEndpoint(String name, String target) {
    GenericKubernetesResource d = new GenericKubernetesResource();
    d.setApiVersion("externaldns.k8s.io/v1alpha1");
    d.setKind("DNSEndpoint");
    d.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(NS)
            .withName(name)
            .addToLabels("app", "cairn")
            .build());
    d.setAdditionalProperty(
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
    return d;
  }

  private static EndpointSlice slice(String namespace, String name, String service) {
    return SampleTopology.endpointSlice(namespace, service, name, "worker", "10.0.0.1", true);
  }

  private static Lease lease(String name, String holder) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(NS)
        .endMetadata()
        .withNewSpec()
        .withHolderIdentity(holder)
        .withLeaseDurationSeconds(10)
        .endSpec()
        .build();
  }

  private static List<String> names(List<EndpointSlice> slices) {
    List<String> names = new ArrayList<>();
    slices.forEach(
        s -> names.add(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName()));
    return names;
  }

  /**
   * An Event recorded with events.k8s.io/v1 (as the record-writer does) is also a core v1 Event, as
   * on the API server, so {@code kubectl describe} (core Events by involvedObject) shows it.
   */
  @Test
  void servesEventsOfEventsK8sIoAsCoreEventsToo() {
    client
        .events()
        .v1()
        .events()
        .inNamespace(NS)
        .resource(
            new io.fabric8.kubernetes.api.model.events.v1.EventBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName("shop.1")
                .endMetadata()
                .withNewRegarding()
                .withApiVersion("k8gb.io/v1beta1")
                .withKind("Gslb")
                .withNamespace(NS)
                .withName("shop")
                .withUid("u-1")
                .endRegarding()
                .withType("Warning")
                .withReason("InvalidSpec")
                .withNote("Gslb apps/shop: spec.strategy.type='random': not one of ...")
                .withAction("Decide")
                .withReportingController("cairn.dev/record-writer")
                .withReportingInstance("writer-0")
                .withNewEventTime("2026-11-30T21:44:03.000000Z")
                .build())
        .create();

    List<io.fabric8.kubernetes.api.model.Event> described =
        client
            .v1()
            .events()
            .inNamespace(NS)
            .withField("involvedObject.kind", "Gslb")
            .withField("involvedObject.name", "shop")
            .list()
            .getItems();
    assertThat(described).hasSize(1);
    io.fabric8.kubernetes.api.model.Event event = described.get(0);
    assertThat(event.getInvolvedObject().getName()).isEqualTo("shop");
    assertThat(event.getInvolvedObject().getUid()).isEqualTo("u-1");
    assertThat(event.getMessage()).startsWith("Gslb apps/shop: spec.strategy.type=");
    assertThat(event.getReason()).isEqualTo("InvalidSpec");
    assertThat(event.getType()).isEqualTo("Warning");
    assertThat(event.getReportingComponent()).isEqualTo("cairn.dev/record-writer");
    assertThat(event.getEventTime().getTime()).isEqualTo("2026-11-30T21:44:03.000000Z");

    assertThat(
            client
                .v1()
                .events()
                .inNamespace(NS)
                .withField("involvedObject.name", "other")
                .list()
                .getItems())
        .isEmpty();
    assertThat(client.v1().events().inAnyNamespace().list().getItems()).hasSize(1);
    assertThat(client.v1().events().inNamespace("elsewhere").list().getItems()).isEmpty();
    assertThat(client.v1().events().inNamespace(NS).withName("shop.1").get().getMessage())
        .isEqualTo(event.getMessage());
    assertThat(client.v1().events().inNamespace(NS).withName("nope").get()).isNull();
    // The events.k8s.io view is unchanged.
    assertThat(client.events().v1().events().inNamespace(NS).list().getItems())
        .singleElement()
        .satisfies(e -> assertThat(e.getRegarding().getName()).isEqualTo("shop"));
  }

  /** Records a watch's events and how it ended. */
  private static final class Recorder implements Watcher<GenericKubernetesResource> {
    final List<Map.Entry<String, GenericKubernetesResource>> events = new CopyOnWriteArrayList<>();
    final CompletableFuture<WatcherException> closed = new CompletableFuture<>();

    @Override
    public void eventReceived(Action action, GenericKubernetesResource resource) {
      events.add(Map.entry(action.name(), resource));
    }

    @Override
    public void onClose(WatcherException cause) {
      closed.complete(cause);
    }

    List<String> types() {
      return events.stream().map(Map.Entry::getKey).toList();
    }

    List<String> names() {
      return events.stream().map(e -> e.getValue().getMetadata().getName()).toList();
    }

    List<Long> versions() {
      return events.stream()
          .map(e -> Long.parseLong(e.getValue().getMetadata().getResourceVersion()))
          .toList();
    }
  }
}
