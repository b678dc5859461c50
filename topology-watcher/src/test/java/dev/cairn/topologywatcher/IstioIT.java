package dev.cairn.topologywatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.commonmodel.validation.Problem;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Istio VirtualServices on the fabric8 mock API in CRUD mode: the CRDs appear while the watcher
 * runs, and each VirtualService is published joined with the load-balancer status of the Service
 * its Istio Gateway selects, following every change of the Gateway and of that Service.
 */
class IstioIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String KEY = "VirtualService/shop/web";

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
  void publishesAVirtualServiceWithItsGatewaysLoadBalancerAndFollowsBoth() {
    kube.resource(ingressGatewayService("istio-ingressgateway", "203.0.113.10")).create();
    kube.resource(Fixtures.service("shop", "web", "ClusterIP", null)).create();
    String prefix = "istio.";
    try (RunningWatcher watcher = RunningWatcher.start(cluster, prefix);
        TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      await().atMost(WAIT).until(() -> topics.markers().stream().anyMatch(SyncMarker::synced));
      SyncMarker synced = topics.markers().stream().filter(SyncMarker::synced).findFirst().get();
      assertThat(synced.objectCounts())
          .containsEntry("VirtualService", 0)
          .doesNotContainKey("IstioGateway");
      assertThat(watcher.get("/actuator/health").body())
          .contains(
              "\"virtualservices in networking.istio.io/v1 or networking.istio.io/v1beta1 or"
                  + " networking.istio.io/v1alpha3\"");

      // Istio is installed while the watcher runs, serving v1beta1 only.
      cluster.installIstioCrds("v1beta1");
      kube.genericKubernetesResources(GATEWAY)
          .resource(istioGateway("istio-system", "public", Map.of("istio", "ingressgateway")))
          .create();
      kube.genericKubernetesResources(VIRTUAL_SERVICE)
          .resource(
              virtualService(
                  "shop",
                  "web",
                  List.of("web.cloud.example.com", "www.cloud.example.com"),
                  List.of("mesh", "istio-system/public"),
                  List.of("web", "web-canary.shop.svc.cluster.local", "api.partner.example")))
          .create();

      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                RouteState vs = (RouteState) topics.latest(Topics.ROUTES, KEY);
                assertThat(vs).isNotNull();
                assertThat(vs.apiVersion()).isEqualTo("networking.istio.io/v1beta1");
                assertThat(vs.hostnames())
                    .containsExactly("web.cloud.example.com", "www.cloud.example.com");
                assertThat(vs.backends())
                    .containsExactly(
                        new BackendRef(null, null, null, "web", 8080, 90),
                        new BackendRef(null, null, "shop", "web-canary", 8080, 90),
                        new BackendRef(
                            "networking.istio.io",
                            "ServiceEntry",
                            null,
                            "api.partner.example",
                            8080,
                            90));
                assertThat(vs.parentRefs())
                    .containsExactly(
                        new RouteState.ParentRef(
                            "networking.istio.io", "Gateway", "istio-system", "public", null));
                assertThat(vs.loadBalancerIps()).containsExactly("203.0.113.10");
                assertThat(vs.problems()).isEmpty();
              });
      // The Istio Gateway is held, never published.
      assertThat(topics.of(Topics.ROUTES).stream().map(TopicRecorder.Message::key))
          .noneMatch(k -> k.startsWith("IstioGateway/"));

      // The load balancer's address changes: the VirtualService follows it.
      kube.resource(ingressGatewayService("istio-ingressgateway", "203.0.113.20")).update();
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(((RouteState) topics.latest(Topics.ROUTES, KEY)).loadBalancerIps())
                      .containsExactly("203.0.113.20"));

      // A second Service matches the selector: refused, naming both.
      kube.resource(ingressGatewayService("istio-ingressgateway-2", "203.0.113.30")).create();
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                RouteState vs = (RouteState) topics.latest(Topics.ROUTES, KEY);
                assertThat(vs.loadBalancerIps()).isEmpty();
                assertThat(vs.problems())
                    .extracting(Problem::field)
                    .containsExactly("IstioGateway istio-system/public spec.selector");
                assertThat(vs.problems().get(0).reason())
                    .contains(
                        "istio-system/istio-ingressgateway, istio-system/istio-ingressgateway-2");
              });
      kube.resource(ingressGatewayService("istio-ingressgateway-2", null)).delete();
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                RouteState vs = (RouteState) topics.latest(Topics.ROUTES, KEY);
                assertThat(vs.loadBalancerIps()).containsExactly("203.0.113.20");
                assertThat(vs.problems()).isEmpty();
              });

      // The Gateway is deleted: the record says which spec.gateways item names nothing.
      kube.genericKubernetesResources(GATEWAY)
          .inNamespace("istio-system")
          .withName("public")
          .delete();
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                RouteState vs = (RouteState) topics.latest(Topics.ROUTES, KEY);
                assertThat(vs.loadBalancerIps()).isEmpty();
                assertThat(vs.problems())
                    .singleElement()
                    .satisfies(
                        p -> {
                          assertThat(p.field()).isEqualTo("spec.gateways[1]");
                          assertThat(p.value()).isEqualTo("istio-system/public");
                        });
              });

      // Deleting the VirtualService deletes its record.
      kube.genericKubernetesResources(VIRTUAL_SERVICE).inNamespace("shop").withName("web").delete();
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                assertThat(topics.of(Topics.ROUTES, KEY)).isNotEmpty();
                assertThat(topics.latest(Topics.ROUTES, KEY)).isNull();
              });
    }
  }

  static final ResourceDefinitionContext VIRTUAL_SERVICE =
      new ResourceDefinitionContext.Builder()
          .withGroup("networking.istio.io")
          .withVersion("v1beta1")
          .withKind("VirtualService")
          .withPlural("virtualservices")
          .withNamespaced(true)
          .build();

  static final ResourceDefinitionContext GATEWAY =
      new ResourceDefinitionContext.Builder()
          .withGroup("networking.istio.io")
          .withVersion("v1beta1")
          .withKind("Gateway")
          .withPlural("gateways")
          .withNamespaced(true)
          .build();

  private static Service ingressGatewayService(String name, String ip) {
    Service service = Fixtures.service("istio-system", name, "LoadBalancer", ip);
    return new ServiceBuilder(service)
        .editMetadata()
        .addToLabels("istio", "ingressgateway")
        .addToLabels("app", name)
        .endMetadata()
        .build();
  }

  private static GenericKubernetesResource istioGateway(
      String namespace, String name, Map<String, String> selector) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("networking.istio.io/v1beta1")
        .withKind("Gateway")
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .addToAdditionalProperties(
            "spec",
            Map.of(
                "selector",
                selector,
                "servers",
                List.of(
                    Map.of(
                        "port",
                        Map.of("number", 80, "name", "http", "protocol", "HTTP"),
                        "hosts",
                        List.of("*.cloud.example.com")))))
        .build();
  }

  private static GenericKubernetesResource virtualService(
      String namespace,
      String name,
      List<String> hosts,
      List<String> gateways,
      List<String> destinations) {
    List<Object> routes =
        destinations.stream()
            .<Object>map(
                host ->
                    Map.of(
                        "destination",
                        Map.of("host", host, "port", Map.of("number", 8080)),
                        "weight",
                        90))
            .toList();
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("networking.istio.io/v1beta1")
        .withKind("VirtualService")
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .addToAdditionalProperties(
            "spec",
            Map.of("hosts", hosts, "gateways", gateways, "http", List.of(Map.of("route", routes))))
        .build();
  }
}
