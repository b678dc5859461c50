package dev.cairn.topologywatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.SyncMarker;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.Gateway;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Kinds whose CRD is installed while the watcher runs. */
class LateCrdIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  private MockCluster cluster;
  private KubernetesClient kube;

  @BeforeEach
  void startCluster() {
    cluster = new MockCluster();
    kube = cluster.client();
  }

  @AfterEach
  void stopCluster() {
    cluster.close();
  }

  @Test
  void watchesKindsAsSoonAsTheirCrdsAreInstalled() {
    kube.resource(Fixtures.node("node-a", "eu-1a", true, "10.0.0.1")).create();
    String prefix = "late.";
    try (RunningWatcher watcher = RunningWatcher.start(cluster, prefix);
        TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      await().atMost(WAIT).until(() -> topics.markers().stream().anyMatch(SyncMarker::synced));
      assertThat(topics.markers().get(1).objectCounts())
          .containsEntry("HTTPRoute", 0)
          .containsEntry("Gslb", 0)
          .containsEntry("Gateway", 0)
          .containsEntry("GRPCRoute", 0)
          .containsEntry("TCPRoute", 0)
          .containsEntry("Node", 1);
      assertThat(watcher.get("/actuator/health").body())
          .contains("\"gslbs in k8gb.io/v1beta1\"")
          .contains(
              "\"gateways in gateway.networking.k8s.io/v1 or gateway.networking.k8s.io/v1beta1\"")
          .contains(
              "\"httproutes in gateway.networking.k8s.io/v1 or gateway.networking.k8s.io/v1beta1\"")
          .contains(
              "\"grpcroutes in gateway.networking.k8s.io/v1 or"
                  + " gateway.networking.k8s.io/v1alpha2\"");

      // Only v1beta1 is served at first: the routes are read with it.
      cluster.installHttpRouteCrd("v1beta1");
      kube.resource(v1beta1Route()).create();
      cluster.installGslbCrd();
      kube.genericKubernetesResources(Fixtures.GSLB)
          .resource(Fixtures.gslb("shop", "web-gslb", "gslb.example.com", "web"))
          .create();
      cluster.installGatewayCrd("v1beta1");
      kube.resource(v1beta1Gateway()).create();
      cluster.installGrpcRouteCrd("v1alpha2");
      kube.resource(v1alpha2GrpcRoute()).create();
      // The experimental channel's versions: TLSRoute v1alpha3, TCPRoute and UDPRoute v1alpha2.
      cluster.installTlsTcpUdpRouteCrds("v1alpha3", "v1alpha2", "v1alpha2");
      // Istio's VirtualService and Gateway (IstioIT follows their records).
      cluster.installIstioCrds("v1");
      kube.resource(
              new io.fabric8.kubernetes.api.model.gatewayapi.v1alpha3.TLSRouteBuilder()
                  .withNewMetadata()
                  .withNamespace("shop")
                  .withName("tls")
                  .endMetadata()
                  .withNewSpec()
                  .withHostnames("tls.example.com")
                  .addNewRule()
                  .addNewBackendRef()
                  .withName("web")
                  .withPort(443)
                  .endBackendRef()
                  .endRule()
                  .endSpec()
                  .build())
          .create();
      kube.resource(
              new io.fabric8.kubernetes.api.model.gatewayapi.v1alpha2.TCPRouteBuilder()
                  .withNewMetadata()
                  .withNamespace("shop")
                  .withName("db")
                  .endMetadata()
                  .withNewSpec()
                  .addNewParentRef()
                  .withName("public")
                  .endParentRef()
                  .addNewRule()
                  .addNewBackendRef()
                  .withName("db")
                  .withPort(5432)
                  .endBackendRef()
                  .endRule()
                  .endSpec()
                  .build())
          .create();
      kube.resource(
              new io.fabric8.kubernetes.api.model.gatewayapi.v1alpha2.UDPRouteBuilder()
                  .withNewMetadata()
                  .withNamespace("shop")
                  .withName("dns")
                  .endMetadata()
                  .withNewSpec()
                  .addNewRule()
                  .addNewBackendRef()
                  .withName("dns")
                  .withPort(53)
                  .endBackendRef()
                  .endRule()
                  .endSpec()
                  .build())
          .create();

      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                RouteState route =
                    (RouteState) topics.latest(Topics.ROUTES, "HTTPRoute/shop/web-route");
                assertThat(route).isNotNull();
                assertThat(route.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1beta1");
                assertThat(route.hostnames()).containsExactly("www.example.com");
                assertThat((GslbState) topics.latest(Topics.GSLBS, "Gslb/shop/web-gslb"))
                    .isNotNull();
                RouteState gateway =
                    (RouteState) topics.latest(Topics.ROUTES, "Gateway/edge/public");
                assertThat(gateway).isNotNull();
                assertThat(gateway.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1beta1");
                assertThat(gateway.loadBalancerIps()).containsExactly("203.0.113.50");
                RouteState grpc =
                    (RouteState) topics.latest(Topics.ROUTES, "GRPCRoute/shop/orders");
                assertThat(grpc).isNotNull();
                assertThat(grpc.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1alpha2");
                assertThat(grpc.hostnames()).containsExactly("orders.example.com");
                RouteState tls = (RouteState) topics.latest(Topics.ROUTES, "TLSRoute/shop/tls");
                assertThat(tls).isNotNull();
                assertThat(tls.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1alpha3");
                assertThat(tls.hostnames()).containsExactly("tls.example.com");
                RouteState tcp = (RouteState) topics.latest(Topics.ROUTES, "TCPRoute/shop/db");
                assertThat(tcp).isNotNull();
                assertThat(tcp.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1alpha2");
                assertThat(tcp.hostnames()).isEmpty();
                assertThat(tcp.backends())
                    .containsExactly(new BackendRef(null, null, null, "db", 5432, null));
                assertThat(tcp.parentRefs())
                    .containsExactly(new RouteState.ParentRef(null, null, null, "public", null));
                RouteState udp = (RouteState) topics.latest(Topics.ROUTES, "UDPRoute/shop/dns");
                assertThat(udp).isNotNull();
                assertThat(udp.backends()).extracting(BackendRef::name).containsExactly("dns");
              });
      await()
          .atMost(WAIT)
          .until(() -> watcher.get("/actuator/health").body().contains("\"missingCrds\":[]"));
      assertThat(watcher.readiness()).isEqualTo(200);

      // The CRD is upgraded to serve v1: the watcher re-lists with v1 and republishes the route
      // once with the new apiVersion (the mock keeps versions apart, so the object is written at
      // v1 too, as a real API server would show it).
      HTTPRoute v1 = Fixtures.httpRoute("shop", "web-route", List.of("www.example.com"), "web");
      kube.resource(v1).create();
      cluster.installHttpRouteCrd("v1", "v1beta1");
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(
                          ((RouteState) topics.latest(Topics.ROUTES, "HTTPRoute/shop/web-route"))
                              .apiVersion())
                      .isEqualTo("gateway.networking.k8s.io/v1"));
      assertThat(topics.of(Topics.ROUTES, "HTTPRoute/shop/web-route"))
          .hasSize(2)
          .allSatisfy(m -> assertThat(m.value()).isNotNull());
    }
  }

  private static io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.Gateway v1beta1Gateway() {
    Gateway v1 =
        Fixtures.gateway(
            "edge", "public", List.of("*.example.com"), List.of("IPAddress=203.0.113.50"));
    return new io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.GatewayBuilder()
        .withMetadata(v1.getMetadata())
        .withSpec(v1.getSpec())
        .withStatus(v1.getStatus())
        .build();
  }

  private static io.fabric8.kubernetes.api.model.gatewayapi.v1alpha2.GRPCRoute v1alpha2GrpcRoute() {
    GRPCRoute v1 = Fixtures.grpcRoute("shop", "orders", List.of("orders.example.com"), "orders");
    return new io.fabric8.kubernetes.api.model.gatewayapi.v1alpha2.GRPCRouteBuilder()
        .withMetadata(v1.getMetadata())
        .withSpec(v1.getSpec())
        .build();
  }

  private static io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.HTTPRoute v1beta1Route() {
    HTTPRoute v1 = Fixtures.httpRoute("shop", "web-route", List.of("www.example.com"), "web");
    return new io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.HTTPRouteBuilder()
        .withMetadata(v1.getMetadata())
        .withSpec(v1.getSpec())
        .build();
  }
}
