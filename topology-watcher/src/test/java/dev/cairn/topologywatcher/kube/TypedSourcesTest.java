package dev.cairn.topologywatcher.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.topologywatcher.normalize.BackendRefInput;
import dev.cairn.topologywatcher.normalize.HttpRouteInput;
import dev.cairn.topologywatcher.normalize.Meta;
import dev.cairn.topologywatcher.normalize.RouteNormalizer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * HTTPRoutes, GRPCRoutes and Gateways are read untyped and converted one object at a time: a field
 * of the wrong type (which a CRD without a schema lets through) is a problem of that object only.
 */
class TypedSourcesTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /** An object of the Gateway API as the API server would send it, from its JSON text. */
  private static GenericKubernetesResource object(String kind, String version, String spec) {
    return JSON.unmarshal(
        """
        {"apiVersion": "gateway.networking.k8s.io/%s", "kind": "%s",
         "metadata": {"namespace": "shop", "name": "r", "uid": "uid-r",
                      "annotations": {"directdns.meisterlala.dev/ttl": "30"}},
         %s}
        """
            .formatted(version, kind, spec),
        GenericKubernetesResource.class);
  }

  private static RouteState digest(KindSource<GenericKubernetesResource> source, Object object) {
    return (RouteState) source.digest((GenericKubernetesResource) object);
  }

  @Test
  void aGoodRouteGivesTheRecordItsTypedFieldsGive() {
    HTTPRoute typed =
        new HTTPRouteBuilder()
            .withNewMetadata()
            .withNamespace("shop")
            .withName("web")
            .withUid("uid-web")
            .addToLabels("app", "web")
            .addToAnnotations("directdns.meisterlala.dev/ttl", "30")
            .endMetadata()
            .withNewSpec()
            .withHostnames("www.example.com", "bad_host.example.com")
            .addNewRule()
            .addNewBackendRef()
            .withName("web")
            .withPort(80)
            .withWeight(3)
            .endBackendRef()
            .endRule()
            .addNewParentRef()
            .withNamespace("edge")
            .withName("public")
            .withSectionName("l0")
            .endParentRef()
            .endSpec()
            .build();

    RouteState route =
        digest(RouteSource.httpV1(), JSON.convertValue(typed, GenericKubernetesResource.class));

    assertThat(route)
        .isEqualTo(
            RouteNormalizer.httpRoute(
                new HttpRouteInput(
                    new Meta(
                        "shop",
                        "web",
                        "uid-web",
                        Map.of("app", "web"),
                        Map.of("directdns.meisterlala.dev/ttl", "30")),
                    "gateway.networking.k8s.io/v1",
                    List.of("www.example.com", "bad_host.example.com"),
                    List.of(
                        new HttpRouteInput.Rule(
                            List.of(new BackendRefInput(null, null, null, "web", 80, 3)))),
                    List.of(new RouteState.ParentRef(null, null, "edge", "public", "l0")))));
    assertThat(route.problems()).extracting(Problem::field).containsExactly("spec.hostnames[1]");
  }

  @Test
  void aFieldOfTheWrongTypeIsAProblemNamingItAndTheRestIsRead() {
    RouteState route =
        digest(
            RouteSource.httpV1(),
            object(
                "HTTPRoute",
                "v1",
                """
                "spec": {"hostnames": 12345, "parentRefs": "public",
                         "rules": [{"backendRefs": [{"name": 7, "port": "eighty"},
                                                    {"name": "web", "port": 80}]}]}
                """));

    assertThat(route.ref().key()).isEqualTo("HTTPRoute/shop/r");
    assertThat(route.problems())
        .containsExactly(
            new Problem("spec.hostnames", "12345", "expected a list of strings, found a number"),
            new Problem("spec.parentRefs", "public", "expected a list of objects, found a string"),
            new Problem(
                "spec.rules[0].backendRefs[0].port",
                "eighty",
                "expected an integer, found a string"));
    assertThat(route.hostnames()).isEmpty();
    assertThat(route.parentRefs()).isEmpty();
    // A number where a name belongs is read as its text, as a typed informer read it.
    assertThat(route.backends())
        .containsExactly(
            new BackendRef(null, null, null, "7", null, null),
            new BackendRef(null, null, null, "web", 80, null));
    assertThat(route.annotations()).containsEntry("directdns.meisterlala.dev/ttl", "30");
  }

  @Test
  void aListItemOfTheWrongTypeIsNamedByItsIndexAndTheOthersKeepTheirs() {
    RouteState route =
        digest(
            RouteSource.grpcV1alpha2(),
            object(
                "GRPCRoute",
                "v1alpha2",
                """
                "spec": {"hostnames": [{"x": "y"}, "bad_host.example.com", "ok.example.com"],
                         "rules": ["not-a-rule", {"backendRefs": [{"name": "orders"}]}]}
                """));

    assertThat(route.kind()).isEqualTo("GRPCRoute");
    assertThat(route.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1alpha2");
    assertThat(route.problems())
        .extracting(Problem::field, Problem::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "spec.hostnames[0]", "expected a string, found an object"),
            org.assertj.core.groups.Tuple.tuple(
                "spec.rules[0]", "expected an object, found a string"),
            org.assertj.core.groups.Tuple.tuple(
                "spec.hostnames[1]",
                "label 'bad_host' has the character '_'; only letters, digits and '-' are"
                    + " allowed"));
    assertThat(route.hostnames()).containsExactly("ok.example.com");
    assertThat(route.backends()).extracting(BackendRef::name).containsExactly("orders");
  }

  @Test
  void aSpecThatIsNoObjectLeavesARecordWithItsProblem() {
    RouteState route =
        digest(RouteSource.httpV1beta1(), object("HTTPRoute", "v1beta1", "\"spec\": \"public\""));

    assertThat(route.ref().key()).isEqualTo("HTTPRoute/shop/r");
    assertThat(route.problems())
        .containsExactly(new Problem("spec", "public", "expected an object, found a string"));
    assertThat(route.hostnames()).isEmpty();
  }

  @Test
  void manyWrongFieldsAreEachNamed() {
    StringBuilder refs = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      refs.append(i == 0 ? "" : ",").append("{\"name\": \"b").append(i).append("\", \"port\": []}");
    }
    RouteState route =
        digest(
            RouteSource.httpV1(),
            object(
                "HTTPRoute", "v1", "\"spec\": {\"rules\": [{\"backendRefs\": [" + refs + "]}]}"));

    // The first 20 are named one by one; then the object is read without its spec.
    assertThat(route.problems()).hasSize(21);
    assertThat(route.problems().get(19))
        .isEqualTo(
            new Problem(
                "spec.rules[0].backendRefs[19].port", "[]", "expected an integer, found a list"));
    assertThat(route.problems().get(20).field()).isEqualTo("spec.rules[0].backendRefs[20].port");
    assertThat(route.problems().get(20).reason())
        .startsWith("cannot be read as a HTTPRoute (")
        .endsWith("); the object is read without its spec and status");
    assertThat(route.backends()).isEmpty();
  }

  @Test
  void aGatewayWithFieldsOfTheWrongTypeKeepsTheRest() {
    RouteState gateway =
        digest(
            GatewaySource.v1(),
            object(
                "Gateway",
                "v1",
                """
                "spec": {"gatewayClassName": "example",
                         "listeners": [{"name": "l0", "hostname": "*.example.com", "port": 443},
                                       {"name": "l1", "hostname": ["a"], "port": 443}]},
                "status": {"addresses": [{"type": "IPAddress", "value": "203.0.113.50"},
                                         {"type": "IPAddress", "value": {"ip": "x"}}]}
                """));

    assertThat(gateway.ref().key()).isEqualTo("Gateway/shop/r");
    assertThat(gateway.hostnames()).containsExactly("*.example.com");
    assertThat(gateway.loadBalancerIps()).containsExactly("203.0.113.50");
    assertThat(gateway.problems())
        .extracting(Problem::field, Problem::value, Problem::reason)
        .startsWith(
            org.assertj.core.groups.Tuple.tuple(
                "spec.listeners[1].hostname", "[a]", "expected a string, found a list"),
            org.assertj.core.groups.Tuple.tuple(
                "status.addresses[1].value", "{ip=x}", "expected a string, found an object"));
  }

  @Test
  void describesTheExpectedType() {
    assertThat(TypedConversion.describe(String.class)).isEqualTo("a string");
    assertThat(TypedConversion.describe(Integer.class)).isEqualTo("an integer");
    assertThat(TypedConversion.describe(Boolean.class)).isEqualTo("a boolean");
    assertThat(TypedConversion.describe(LinkedHashMap.class)).isEqualTo("an object");
    assertThat(TypedConversion.describe(HTTPRoute.class)).isEqualTo("an object");
    assertThat(TypedConversion.describe(Arrays.asList().getClass())).isEqualTo("a list");
  }
}
