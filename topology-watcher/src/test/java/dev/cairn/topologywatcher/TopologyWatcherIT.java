package dev.cairn.topologywatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.commonmodel.validation.Problem;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.Gateway;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ParentReferenceBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One watcher against the CRUD mock API server and the embedded broker. */
class TopologyWatcherIT {

  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static final Duration WAIT = Duration.ofSeconds(60);

  private MockCluster cluster;
  private KubernetesClient kube;
  private String prefix;

  @BeforeEach
  void startCluster() {
    cluster = new MockCluster();
    kube = cluster.client();
    prefix = "watcher" + PREFIXES.incrementAndGet() + ".";
  }

  @AfterEach
  void stopCluster() {
    cluster.close();
  }

  @Test
  void publishesEveryKindThenUpdatesAndDeletes() {
    cluster.installHttpRouteCrd("v1");
    cluster.installGslbCrd();
    kube.resource(Fixtures.node("node-a", "eu-1a", true, "10.0.0.1")).create();
    kube.resource(Fixtures.service("shop", "web", "LoadBalancer", "203.0.113.10")).create();
    kube.resource(Fixtures.slice("shop", "web-2", "web", Map.of("10.1.0.2", "node-a"))).create();
    kube.resource(Fixtures.slice("shop", "web-1", "web", Map.of("10.1.0.1", "node-a"))).create();
    kube.resource(Fixtures.ingress("shop", "web-ing", "shop.example.com", "web")).create();
    kube.resource(Fixtures.httpRoute("shop", "web-route", List.of("www.example.com"), "web"))
        .create();
    kube.genericKubernetesResources(Fixtures.GSLB)
        .resource(Fixtures.gslb("shop", "web-gslb", "gslb.example.com", "web"))
        .create();

    try (RunningWatcher watcher = RunningWatcher.start(cluster, prefix);
        TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      await().atMost(WAIT).until(() -> topics.markers().stream().anyMatch(SyncMarker::synced));
      List<SyncMarker> markers = topics.markers();
      assertThat(markers)
          .extracting(SyncMarker::phase)
          .containsExactly(SyncMarker.Phase.SYNCING, SyncMarker.Phase.SYNCED);
      assertThat(markers.get(1).generation()).isEqualTo(markers.get(0).generation());
      assertThat(markers.get(1).objectCounts())
          .containsExactlyInAnyOrderEntriesOf(
              Map.ofEntries(
                  Map.entry("HTTPRoute", 1),
                  Map.entry("Ingress", 1),
                  Map.entry("Service", 1),
                  Map.entry("ServiceEndpoints", 1),
                  Map.entry("Node", 1),
                  Map.entry("Gslb", 1),
                  Map.entry("Gateway", 0),
                  Map.entry("GRPCRoute", 0),
                  Map.entry("TLSRoute", 0),
                  Map.entry("TCPRoute", 0),
                  Map.entry("UDPRoute", 0),
                  Map.entry("VirtualService", 0)));
      assertThat(topics.state()).hasSize(6);

      RouteState route = (RouteState) topics.latest(Topics.ROUTES, "HTTPRoute/shop/web-route");
      assertThat(route.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1");
      assertThat(route.hostnames()).containsExactly("www.example.com");
      assertThat(route.backends()).extracting(b -> b.name()).containsExactly("web");
      assertThat(route.annotations()).containsOnlyKeys("directdns.meisterlala.dev/ttl");
      RouteState ingress = (RouteState) topics.latest(Topics.ROUTES, "Ingress/shop/web-ing");
      assertThat(ingress.hostnames()).containsExactly("shop.example.com");
      assertThat(ingress.annotations()).containsEntry("k8gb.io/strategy", "roundRobin");
      assertThat(ingress.loadBalancerIps()).containsExactly("203.0.113.30", "2001:db8::30");
      assertThat(ingress.controller())
          .isEqualTo(
              new RouteState.Controller("k8gb.io/v1beta1", "Gslb", "web-ing", "uid-gslb-web-ing"));
      ServiceState service = (ServiceState) topics.latest(Topics.SERVICES, "Service/shop/web");
      assertThat(service.type()).isEqualTo("LoadBalancer");
      assertThat(service.loadBalancerIps()).containsExactly("203.0.113.10");
      ServiceEndpoints endpoints =
          (ServiceEndpoints) topics.latest(Topics.ENDPOINTS, "Service/shop/web");
      assertThat(endpoints.endpoints())
          .extracting(e -> e.addresses().get(0))
          .containsExactly("10.1.0.1", "10.1.0.2");
      NodeState node = (NodeState) topics.latest(Topics.NODES, "Node/node-a");
      assertThat(node.ingress()).isTrue();
      assertThat(node.zone()).isEqualTo("eu-1a");
      assertThat(node.addresses()).extracting(a -> a.type()).containsExactly("InternalIP");
      GslbState gslb = (GslbState) topics.latest(Topics.GSLBS, "Gslb/shop/web-gslb");
      assertThat(gslb.strategy().type()).isEqualTo("failover");
      assertThat(gslb.ingressRules()).extracting(r -> r.host()).containsExactly("gslb.example.com");
      assertThat(watcher.readiness()).isEqualTo(200);

      // Updates: one new record per changed object.
      kube.resource(Fixtures.node("node-a", "eu-1b", true, "10.0.0.1")).update();
      kube.resource(Fixtures.service("shop", "web", "LoadBalancer", "203.0.113.20")).update();
      kube.resource(Fixtures.slice("shop", "web-2", "web", Map.of("10.1.0.3", "node-a"))).update();
      kube.resource(Fixtures.ingress("shop", "web-ing", "shop2.example.com", "web")).update();
      kube.resource(
              Fixtures.httpRoute(
                  "shop", "web-route", List.of("www.example.com", "*.example.org"), "web"))
          .update();
      kube.genericKubernetesResources(Fixtures.GSLB)
          .resource(Fixtures.gslb("shop", "web-gslb", "gslb2.example.com", "web"))
          .update();
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                assertThat(((NodeState) topics.latest(Topics.NODES, "Node/node-a")).zone())
                    .isEqualTo("eu-1b");
                assertThat(
                        ((ServiceState) topics.latest(Topics.SERVICES, "Service/shop/web"))
                            .loadBalancerIps())
                    .containsExactly("203.0.113.20");
                assertThat(
                        ((ServiceEndpoints) topics.latest(Topics.ENDPOINTS, "Service/shop/web"))
                            .endpoints())
                    .extracting(e -> e.addresses().get(0))
                    .containsExactly("10.1.0.1", "10.1.0.3");
                assertThat(
                        ((RouteState) topics.latest(Topics.ROUTES, "Ingress/shop/web-ing"))
                            .hostnames())
                    .containsExactly("shop2.example.com");
                assertThat(
                        ((RouteState) topics.latest(Topics.ROUTES, "HTTPRoute/shop/web-route"))
                            .hostnames())
                    .containsExactly("www.example.com", "*.example.org");
                assertThat(
                        ((GslbState) topics.latest(Topics.GSLBS, "Gslb/shop/web-gslb"))
                            .ingressRules())
                    .extracting(r -> r.host())
                    .containsExactly("gslb2.example.com");
              });
      assertThat(topics.state()).hasSize(12);

      // Deletes: tombstones; the endpoints key only goes when its last slice does.
      kube.resource(Fixtures.slice("shop", "web-1", "web", Map.of())).delete();
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(
                          ((ServiceEndpoints) topics.latest(Topics.ENDPOINTS, "Service/shop/web"))
                              .endpoints())
                      .extracting(e -> e.addresses().get(0))
                      .containsExactly("10.1.0.3"));
      kube.resource(Fixtures.slice("shop", "web-2", "web", Map.of())).delete();
      kube.resource(Fixtures.node("node-a", "eu-1b", true, "10.0.0.1")).delete();
      kube.resource(Fixtures.service("shop", "web", "LoadBalancer", null)).delete();
      kube.resource(Fixtures.ingress("shop", "web-ing", "x", "web")).delete();
      kube.resource(Fixtures.httpRoute("shop", "web-route", List.of(), "web")).delete();
      kube.genericKubernetesResources(Fixtures.GSLB)
          .resource(Fixtures.gslb("shop", "web-gslb", "x", "web"))
          .delete();
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                assertThat(topics.of(Topics.ENDPOINTS, "Service/shop/web"))
                    .last()
                    .extracting(TopicRecorder.Message::value)
                    .isNull();
                assertThat(topics.of(Topics.NODES, "Node/node-a"))
                    .last()
                    .extracting(TopicRecorder.Message::value)
                    .isNull();
                assertThat(topics.of(Topics.SERVICES, "Service/shop/web"))
                    .last()
                    .extracting(TopicRecorder.Message::value)
                    .isNull();
                assertThat(topics.of(Topics.ROUTES, "Ingress/shop/web-ing"))
                    .last()
                    .extracting(TopicRecorder.Message::value)
                    .isNull();
                assertThat(topics.of(Topics.ROUTES, "HTTPRoute/shop/web-route"))
                    .last()
                    .extracting(TopicRecorder.Message::value)
                    .isNull();
                assertThat(topics.of(Topics.GSLBS, "Gslb/shop/web-gslb"))
                    .last()
                    .extracting(TopicRecorder.Message::value)
                    .isNull();
              });
      assertThat(topics.state()).hasSize(19);
    }
  }

  @Test
  void publishesGatewaysGrpcRoutesAndTheParentRefsOfRoutes() {
    cluster.installHttpRouteCrd("v1");
    cluster.installGatewayCrd("v1");
    cluster.installGrpcRouteCrd("v1");
    kube.resource(Fixtures.grpcRoute("shop", "orders", List.of("orders.example.com"), "orders"))
        .create();
    kube.resource(
            Fixtures.gateway(
                "edge",
                "public",
                List.of("*.example.com", "bad_host.example.com"),
                List.of(
                    "IPAddress=203.0.113.50",
                    "=2001:db8::50",
                    "Hostname=lb-1.example.net",
                    "NamedAddress=pool-a")))
        .create();
    HTTPRoute route = Fixtures.httpRoute("shop", "web-route", List.of("www.example.com"), "web");
    route
        .getSpec()
        .setParentRefs(
            List.of(
                new ParentReferenceBuilder()
                    .withNamespace("edge")
                    .withName("public")
                    .withSectionName("l0")
                    .build()));
    kube.resource(route).create();

    try (RunningWatcher watcher = RunningWatcher.start(cluster, prefix);
        TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      await().atMost(WAIT).until(() -> topics.markers().stream().anyMatch(SyncMarker::synced));
      assertThat(topics.markers().get(1).objectCounts())
          .containsEntry("Gateway", 1)
          .containsEntry("HTTPRoute", 1)
          .containsEntry("GRPCRoute", 1);
      RouteState grpc = (RouteState) topics.latest(Topics.ROUTES, "GRPCRoute/shop/orders");
      assertThat(grpc.kind()).isEqualTo("GRPCRoute");
      assertThat(grpc.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1");
      assertThat(grpc.hostnames()).containsExactly("orders.example.com");
      assertThat(grpc.backends())
          .containsExactly(new BackendRef(null, null, null, "orders", 50051, null));
      assertThat(grpc.parentRefs())
          .containsExactly(new RouteState.ParentRef(null, null, "edge", "public", null));
      assertThat(grpc.labels()).isEqualTo(Map.of("app", "grpc"));
      String uid =
          kube.resources(Gateway.class)
              .inNamespace("edge")
              .withName("public")
              .get()
              .getMetadata()
              .getUid();

      RouteState gateway = (RouteState) topics.latest(Topics.ROUTES, "Gateway/edge/public");
      assertThat(gateway)
          .isEqualTo(
              new RouteState(
                  "Gateway",
                  "gateway.networking.k8s.io/v1",
                  "edge",
                  "public",
                  uid,
                  List.of("*.example.com"),
                  List.of(),
                  List.of("203.0.113.50", "2001:db8::50"),
                  List.of("lb-1.example.net"),
                  Map.of("k8gb.io/strategy", "failover"),
                  List.of(
                      new Problem(
                          "spec.listeners[1].hostname",
                          "bad_host.example.com",
                          "label 'bad_host' has the character '_'; only letters, digits and '-'"
                              + " are allowed"),
                      new Problem(
                          "status.addresses[3].type",
                          "NamedAddress",
                          "address type is neither IPAddress nor Hostname; the address is left"
                              + " out")),
                  null,
                  Map.of("app", "web"),
                  List.of()));
      RouteState published = (RouteState) topics.latest(Topics.ROUTES, "HTTPRoute/shop/web-route");
      assertThat(published.parentRefs())
          .containsExactly(new RouteState.ParentRef(null, null, "edge", "public", "l0"));
      assertThat(published.parentRefs().get(0).gatewayKey("shop")).isEqualTo("Gateway/edge/public");
      assertThat(watcher.get("/actuator/health").body())
          .contains("\"Gateway\":{\"phase\":\"WATCHING\"")
          .contains("\"missingCrds\":[\"tlsroutes in gateway.networking.k8s.io/v1 or")
          .contains("\"gslbs in k8gb.io/v1beta1\"]");

      // The Gateway's address changes: one new record with the new address.
      kube.resource(
              Fixtures.gateway(
                  "edge", "public", List.of("*.example.com"), List.of("IPAddress=203.0.113.51")))
          .update();
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                RouteState updated =
                    (RouteState) topics.latest(Topics.ROUTES, "Gateway/edge/public");
                assertThat(updated.loadBalancerIps()).containsExactly("203.0.113.51");
                assertThat(updated.loadBalancerHostnames()).isEmpty();
                assertThat(updated.hostnames()).containsExactly("*.example.com");
                assertThat(updated.problems()).isEmpty();
              });
      assertThat(topics.of(Topics.ROUTES, "Gateway/edge/public")).hasSize(2);

      // Deleting it publishes a tombstone; the route is untouched.
      kube.resources(Gateway.class).inNamespace("edge").withName("public").delete();
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(topics.of(Topics.ROUTES, "Gateway/edge/public"))
                      .hasSize(3)
                      .last()
                      .extracting(TopicRecorder.Message::value)
                      .isNull());
      assertThat(topics.of(Topics.ROUTES, "HTTPRoute/shop/web-route")).hasSize(1);
    }
  }

  @Test
  void heartbeatsAndResourceVersionOnlyUpdatesPublishNothing() {
    kube.resource(Fixtures.node("node-a", "eu-1a", true, "10.0.0.1")).create();
    kube.resource(Fixtures.node("node-b", "eu-1a", false, "10.0.0.2")).create();
    kube.resource(Fixtures.service("shop", "web", "ClusterIP", null)).create();
    kube.resource(Fixtures.service("shop", "api", "ClusterIP", null)).create();
    kube.resource(Fixtures.ingress("shop", "web-ing", "shop.example.com", "web")).create();
    kube.resource(Fixtures.ingress("shop", "api-ing", "api.example.com", "api")).create();

    try (RunningWatcher watcher = RunningWatcher.start(cluster, prefix);
        TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      await().atMost(WAIT).until(() -> topics.markers().stream().anyMatch(SyncMarker::synced));
      int before = topics.state().size();
      assertThat(before).isEqualTo(6);

      for (int i = 1; i <= 5; i++) {
        Node heartbeat = kube.nodes().withName("node-a").get();
        heartbeat
            .getStatus()
            .getConditions()
            .get(0)
            .setLastHeartbeatTime("2026-11-29T12:0" + i + ":00Z");
        kube.resource(heartbeat).update();
      }
      Service unchanged = kube.services().inNamespace("shop").withName("web").get();
      kube.resource(unchanged).update();
      Ingress annotated =
          kube.network().v1().ingresses().inNamespace("shop").withName("web-ing").get();
      annotated
          .getMetadata()
          .getAnnotations()
          .put("kubectl.kubernetes.io/last-applied-configuration", "{\"x\":1}");
      kube.resource(annotated).update();

      // Barriers: one real change per informer; their records arrive after the no-ops were handled.
      kube.resource(Fixtures.node("node-b", "eu-1c", false, "10.0.0.2")).update();
      kube.resource(Fixtures.service("shop", "api", "NodePort", null)).update();
      kube.resource(Fixtures.ingress("shop", "api-ing", "api2.example.com", "api")).update();
      await().atMost(WAIT).until(() -> topics.state().size() == before + 3);
      assertThat(topics.state().subList(before, before + 3))
          .extracting(TopicRecorder.Message::key)
          .containsExactlyInAnyOrder("Node/node-b", "Service/shop/api", "Ingress/shop/api-ing");
      assertThat(topics.of(Topics.NODES, "Node/node-a")).hasSize(1);
      assertThat(topics.of(Topics.SERVICES, "Service/shop/web")).hasSize(1);
      assertThat(topics.of(Topics.ROUTES, "Ingress/shop/web-ing")).hasSize(1);
    }
  }

  @Test
  void readinessIsDownUntilSyncedIsPublished() {
    cluster
        .server()
        .expect()
        .get()
        .withPath("/apis/k8gb.io/v1beta1")
        .andReturn(403, "{\"kind\":\"Status\",\"code\":403,\"reason\":\"Forbidden\"}")
        .always();
    kube.resource(Fixtures.node("node-a", "eu-1a", true, "10.0.0.1")).create();

    try (RunningWatcher watcher = RunningWatcher.start(cluster, prefix);
        TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      await()
          .atMost(WAIT)
          .until(
              () ->
                  !topics.markers().isEmpty()
                      && watcher
                          .get("/actuator/health")
                          .body()
                          .contains("\"Gslb\":{\"phase\":\"UNKNOWN\""));
      assertThat(watcher.readiness()).isEqualTo(503);
      assertThat(topics.markers())
          .extracting(SyncMarker::phase)
          .containsExactly(SyncMarker.Phase.SYNCING);
      assertThat(watcher.get("/actuator/health/liveness").statusCode()).isEqualTo(200);

      cluster.server().clearExpectations();

      await().atMost(WAIT).until(() -> topics.markers().stream().anyMatch(SyncMarker::synced));
      await().atMost(WAIT).until(() -> watcher.readiness() == 200);
      SyncMarker synced = topics.markers().get(1);
      assertThat(synced.generation()).isEqualTo(topics.markers().get(0).generation());
      assertThat(synced.objectCounts()).containsEntry("Node", 1).containsEntry("Gslb", 0);
      assertThat(watcher.get("/actuator/health").body())
          .contains("\"missingCrds\":[")
          .contains("\"gslbs in k8gb.io/v1beta1\"");
    }
  }

  @Test
  void invalidObjectsArePublishedWithProblemsAndNeighboursAreUnaffected() {
    cluster.installHttpRouteCrd("v1");
    kube.resource(
            new NodeBuilder(Fixtures.node("node-bad", "eu-1a", true, "10.0.0.9"))
                .editMetadata()
                .addToAnnotations("k3s.io/external-ip", "not-an-ip")
                .endMetadata()
                .build())
        .create();
    kube.resource(Fixtures.node("node-good", "eu-1a", true, "10.0.0.1")).create();
    HTTPRoute badRoute =
        Fixtures.httpRoute("shop", "bad", List.of("ok.example.com", "bad_host.example.com"), "web");
    badRoute.getMetadata().getAnnotations().put("directdns.meisterlala.dev/ttl", "60s");
    kube.resource(badRoute).create();
    kube.resource(Fixtures.httpRoute("shop", "good", List.of("good.example.com"), "web")).create();

    try (RunningWatcher watcher = RunningWatcher.start(cluster, prefix);
        TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      await().atMost(WAIT).until(() -> topics.markers().stream().anyMatch(SyncMarker::synced));

      NodeState badNode = (NodeState) topics.latest(Topics.NODES, "Node/node-bad");
      assertThat(badNode.problems())
          .containsExactly(
              new Problem(
                  "metadata.annotations[k3s.io/external-ip]",
                  "not-an-ip",
                  "not a strict IPv4 or IPv6 address literal"));
      assertThat(badNode.annotations()).containsEntry("k3s.io/external-ip", "not-an-ip");
      assertThat(((NodeState) topics.latest(Topics.NODES, "Node/node-good")).problems()).isEmpty();

      RouteState bad = (RouteState) topics.latest(Topics.ROUTES, "HTTPRoute/shop/bad");
      assertThat(bad.hostnames()).containsExactly("ok.example.com");
      assertThat(bad.problems())
          .extracting(Problem::field, Problem::value)
          .containsExactly(
              tuple("spec.hostnames[1]", "bad_host.example.com"),
              tuple("metadata.annotations[directdns.meisterlala.dev/ttl]", "60s"));
      RouteState good = (RouteState) topics.latest(Topics.ROUTES, "HTTPRoute/shop/good");
      assertThat(good.problems()).isEmpty();
      assertThat(good.hostnames()).containsExactly("good.example.com");

      assertThat(watcher.get("/actuator/prometheus").body())
          .contains("cairn_watcher_objects_problems{kind=\"Node\"} 1.0")
          .contains("cairn_watcher_objects_problems{kind=\"HTTPRoute\"} 1.0")
          .contains("cairn_watcher_events_published_total{kind=\"Node\",op=\"upsert\"} 2.0");

      // Fixing the object publishes it again without problems.
      Node fixed = kube.nodes().withName("node-bad").get();
      fixed.getMetadata().getAnnotations().put("k3s.io/external-ip", "203.0.113.9");
      kube.resource(fixed).update();
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(((NodeState) topics.latest(Topics.NODES, "Node/node-bad")).problems())
                      .isEmpty());
    }
  }

  @Test
  void namespacesAndLabelSelectorLimitWhatIsWatched() {
    kube.resource(labelled(Fixtures.service("shop", "web", "ClusterIP", null), "web")).create();
    kube.resource(labelled(Fixtures.service("shop", "other", "ClusterIP", null), "other")).create();
    kube.resource(labelled(Fixtures.service("blog", "web", "ClusterIP", null), "web")).create();
    EndpointSlice slice = Fixtures.slice("shop", "web-1", "web", Map.of("10.1.0.1", "node-a"));
    slice.getMetadata().getLabels().put("app", "web");
    kube.resource(slice).create();
    kube.resource(Fixtures.node("node-a", "eu-1a", false, "10.0.0.1")).create();
    cluster.installGatewayCrd("v1");
    List<String> address = List.of("IPAddress=203.0.113.50");
    kube.resource(Fixtures.gateway("shop", "gw-web", List.of("a.example.com"), address)).create();
    Gateway unlabelled = Fixtures.gateway("shop", "gw-other", List.of("b.example.com"), address);
    unlabelled.getMetadata().getLabels().put("app", "other");
    kube.resource(unlabelled).create();
    kube.resource(Fixtures.gateway("blog", "gw-web", List.of("c.example.com"), address)).create();

    try (RunningWatcher watcher =
            RunningWatcher.start(
                cluster,
                prefix,
                "watcher.namespaces[0]=shop",
                "watcher.label-selector=app=web",
                "watcher.leader-election.enabled=false");
        TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      await().atMost(WAIT).until(() -> topics.markers().stream().anyMatch(SyncMarker::synced));
      assertThat(topics.state())
          .extracting(TopicRecorder.Message::key)
          .containsExactlyInAnyOrder(
              "Service/shop/web", "Service/shop/web", "Node/node-a", "Gateway/shop/gw-web");
      assertThat(topics.of(Topics.ENDPOINTS))
          .extracting(TopicRecorder.Message::key)
          .containsExactly("Service/shop/web");
      assertThat(watcher.status().electionEnabled()).isFalse();
    }
  }

  @Test
  void periodicReListsPublishOnlyRealDifferences() {
    kube.resource(Fixtures.node("node-a", "eu-1a", true, "10.0.0.1")).create();
    kube.resource(Fixtures.service("shop", "web", "ClusterIP", null)).create();
    kube.resource(Fixtures.slice("shop", "web-1", "web", Map.of("10.1.0.1", "node-a"))).create();

    try (RunningWatcher watcher =
            RunningWatcher.start(cluster, prefix, "watcher.resync-period=500ms");
        TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      await().atMost(WAIT).until(() -> topics.markers().stream().anyMatch(SyncMarker::synced));
      assertThat(topics.state()).hasSize(3);

      await()
          .atMost(WAIT)
          .until(
              () ->
                  resyncs(watcher, "Node") >= 2
                      && resyncs(watcher, "ServiceEndpoints") >= 2
                      && resyncs(watcher, "Service") >= 2);
      moveNodeToZoneAndAwaitIt(topics, "eu-1b");
      int afterChange = resyncs(watcher, "Node");
      await().atMost(WAIT).until(() -> resyncs(watcher, "Node") >= afterChange + 2);

      assertThat(topics.state()).hasSize(4);
      assertThat(topics.markers()).hasSize(2);
      assertThat(watcher.get("/actuator/health").body()).contains("\"lastList\"");
    }
  }

  @Test
  void aReListThatFailsNeitherConfirmsTheViewNorHoldsUpTheOtherKinds() {
    kube.resource(Fixtures.node("node-a", "eu-1a", true, "10.0.0.1")).create();
    kube.resource(Fixtures.service("shop", "web", "ClusterIP", null)).create();

    try (RunningWatcher watcher =
            RunningWatcher.start(cluster, prefix, "watcher.resync-period=300ms");
        TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      await()
          .atMost(WAIT)
          .until(
              () ->
                  resyncs(watcher, "Node") >= 1
                      && meter(watcher, "cairn_watcher_sync_age_seconds ") < 1.0);

      // The next Node lists are refused (as when RBAC is changed; a 5xx is the same after the
      // client's own retries); the current Node informer keeps its watch.
      cluster
          .server()
          .expect()
          .get()
          .withPath("/api/v1/nodes?limit=500")
          .andReturn(
              403,
              "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                  + "\"reason\":\"Forbidden\",\"code\":403,"
                  + "\"message\":\"nodes is forbidden: cannot list resource nodes\"}")
          .times(12);
      await()
          .atMost(WAIT)
          .until(() -> watcher.get("/actuator/health").body().contains("re-list failed"));
      double ageBefore = meter(watcher, "cairn_watcher_sync_age_seconds ");
      long before = System.nanoTime();
      int nodeResyncs = resyncs(watcher, "Node");
      int serviceResyncs = resyncs(watcher, "Service");

      await()
          .atMost(WAIT)
          .alias("the other kinds are re-listed while the Node lists fail")
          .until(() -> resyncs(watcher, "Service") >= serviceResyncs + 3);
      double elapsed = (System.nanoTime() - before) / 1e9;
      double ageAfter = meter(watcher, "cairn_watcher_sync_age_seconds ");
      assertThat(ageAfter - ageBefore)
          .as("the sync age grows through three rounds in which Node could not be listed again")
          .isGreaterThanOrEqualTo(elapsed - 0.01);
      assertThat(resyncs(watcher, "Node")).isEqualTo(nodeResyncs);

      // The live informer still watches: a change is published while the re-lists fail.
      moveNodeToZoneAndAwaitIt(topics, "eu-1b");

      // Once the lists work again, the next round confirms the view.
      await().atMost(WAIT).until(() -> meter(watcher, "cairn_watcher_sync_age_seconds ") < 1.0);
      assertThat(resyncs(watcher, "Node")).isGreaterThan(nodeResyncs);
      assertThat(topics.latest(Topics.NODES, "Node/node-a")).isNotNull();
    }
  }

  /** Moves node-a to a zone and waits until the nodes topic says so. */
  private void moveNodeToZoneAndAwaitIt(TopicRecorder topics, String zone) {
    kube.resource(Fixtures.node("node-a", zone, true, "10.0.0.1")).update();
    await()
        .atMost(WAIT)
        .until(() -> zone.equals(((NodeState) topics.latest(Topics.NODES, "Node/node-a")).zone()));
  }

  private static int resyncs(RunningWatcher watcher, String kind) {
    double value = meter(watcher, "cairn_watcher_resyncs_total{kind=\"" + kind + "\"} ");
    return Double.isNaN(value) ? 0 : (int) value;
  }

  /** The value of the first Prometheus line that starts with the prefix; NaN when none does. */
  private static double meter(RunningWatcher watcher, String linePrefix) {
    String prometheus = watcher.get("/actuator/prometheus").body();
    int at = prometheus.startsWith(linePrefix) ? 0 : prometheus.indexOf("\n" + linePrefix);
    if (at < 0) {
      return Double.NaN;
    }
    int start = at == 0 ? linePrefix.length() : at + 1 + linePrefix.length();
    int end = prometheus.indexOf('\n', start);
    return Double.parseDouble(
        prometheus.substring(start, end < 0 ? prometheus.length() : end).trim());
  }

  private static Service labelled(Service service, String app) {
    return new ServiceBuilder(service).editMetadata().addToLabels("app", app).endMetadata().build();
  }
}
