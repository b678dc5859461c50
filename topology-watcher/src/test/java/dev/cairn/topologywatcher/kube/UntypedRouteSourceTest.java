package dev.cairn.topologywatcher.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.RouteState;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UntypedRouteSourceTest {

  private static GenericKubernetesResource route(String kind, Object spec) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("gateway.networking.k8s.io/v1alpha2")
        .withKind(kind)
        .withNewMetadata()
        .withNamespace("shop")
        .withName("r")
        .withUid("uid-r")
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", spec))
        .build();
  }

  @Test
  void readsTheVersionServedAndEveryPartDnsNeeds() {
    KindSource<?> tlsV1alpha3 = UntypedRouteSource.tls().get(1);
    @SuppressWarnings("unchecked")
    KindSource<GenericKubernetesResource> source =
        (KindSource<GenericKubernetesResource>) tlsV1alpha3;

    RouteState route =
        (RouteState)
            source.digest(
                route(
                    "TLSRoute",
                    Map.of(
                        "hostnames",
                        List.of("tls.example.com"),
                        "rules",
                        List.of(
                            Map.of(
                                "backendRefs",
                                List.of(
                                    Map.of("name", "web", "port", 443, "weight", 5),
                                    Map.of("kind", "Bucket", "group", "x.io", "name", "b")))),
                        "parentRefs",
                        List.of(Map.of("name", "public", "namespace", "edge")))));

    assertThat(route.kind()).isEqualTo("TLSRoute");
    assertThat(route.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1alpha3");
    assertThat(route.ref().key()).isEqualTo("TLSRoute/shop/r");
    assertThat(route.hostnames()).containsExactly("tls.example.com");
    assertThat(route.backends())
        .containsExactly(
            new BackendRef(null, null, null, "web", 443, 5),
            new BackendRef("x.io", "Bucket", null, "b", null, null));
    assertThat(route.parentRefs())
        .containsExactly(new RouteState.ParentRef(null, null, "edge", "public", null));
    assertThat(route.problems()).isEmpty();
  }

  /**
   * A field of another type (a CRD without a schema lets it through) is read as absent and is a
   * problem that names it, the value and what was found; the good parts are still used.
   */
  @Test
  void fieldsOfAnotherTypeAreProblemsThatNameThemAndANamelessBackendIsAProblem() {
    @SuppressWarnings("unchecked")
    KindSource<GenericKubernetesResource> tcp =
        (KindSource<GenericKubernetesResource>) UntypedRouteSource.tcp().get(0);

    RouteState route =
        (RouteState)
            tcp.digest(
                route(
                    "TCPRoute",
                    Map.of(
                        "hostnames", "not-a-list",
                        "rules",
                            List.of(
                                "not-a-map",
                                Map.of("backendRefs", List.of(Map.of())),
                                Map.of(
                                    "backendRefs",
                                    List.of(
                                        Map.of("name", 7, "port", 80),
                                        Map.of("name", "db", "port", "eighty")))),
                        "parentRefs", Map.of())));

    assertThat(route.kind()).isEqualTo("TCPRoute");
    assertThat(route.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1");
    assertThat(route.hostnames()).isEmpty();
    assertThat(route.backends()).extracting(b -> b.name()).containsExactly("db");
    assertThat(route.parentRefs()).isEmpty();
    assertThat(route.problems())
        .extracting(p -> p.field() + ": " + p.reason())
        .containsExactlyInAnyOrder(
            "spec.hostnames: expected a list of strings, found a string",
            "spec.rules[0]: expected an object, found a string",
            "spec.rules[1].backendRefs[0].name: backend has no name; it is left out",
            "spec.rules[2].backendRefs[0].name: expected a string, found a number",
            "spec.rules[2].backendRefs[1].port: expected an integer, found a string",
            "spec.parentRefs: expected a list of objects, found an object");
  }

  @Test
  void aRouteWithoutSpecHasNothing() {
    @SuppressWarnings("unchecked")
    KindSource<GenericKubernetesResource> udp =
        (KindSource<GenericKubernetesResource>) UntypedRouteSource.udp().get(1);
    GenericKubernetesResource bare = route("UDPRoute", Map.of());
    bare.setAdditionalProperties(Map.of());

    RouteState route = (RouteState) udp.digest(bare);

    assertThat(route.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1alpha2");
    assertThat(route.hostnames()).isEmpty();
    assertThat(route.backends()).isEmpty();
  }
}
