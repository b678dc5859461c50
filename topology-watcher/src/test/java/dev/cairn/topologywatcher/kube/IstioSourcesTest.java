package dev.cairn.topologywatcher.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.topologywatcher.normalize.IstioGatewayState;
import dev.cairn.topologywatcher.normalize.IstioNormalizer;
import dev.cairn.topologywatcher.state.TopologyView;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

/** A VirtualService's fields of another type than Istio's are problems naming them. */
class IstioSourcesTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private static RouteState digest(String spec) {
    return ((IstioNormalizer.VirtualServiceRecord)
            digest(
                IstioSources.virtualServices(new TopologyView()).get(0),
                "VirtualService",
                "shop",
                "web",
                spec))
        .route();
  }

  private static IstioGatewayState gateway(String spec) {
    return (IstioGatewayState)
        digest(IstioSources.gateways().get(0), "Gateway", "istio-system", "public", spec);
  }

  /** What {@code source} makes of an Istio object of {@code kind} with {@code spec}. */
  private static Object digest(
      KindSource<?> kindSource, String kind, String namespace, String name, String spec) {
    @SuppressWarnings("unchecked")
    KindSource<GenericKubernetesResource> source =
        (KindSource<GenericKubernetesResource>) kindSource;
    return source.digest(
        JSON.unmarshal(
            """
            {"apiVersion": "networking.istio.io/v1", "kind": "%s",
             "metadata": {"namespace": "%s", "name": "%s"},
             "spec": %s}
            """
                .formatted(kind, namespace, name, spec),
            GenericKubernetesResource.class));
  }

  @Test
  void aGatewaySelectorOfTheWrongTypeIsAProblemNamingIt() {
    assertThat(gateway("{\"selector\": \"istio=ingressgateway\"}").problems())
        .containsExactly(
            new Problem(
                "spec.selector", "istio=ingressgateway", "expected an object, found a string"));
    assertThat(gateway("\"not-a-spec\"").problems())
        .containsExactly(new Problem("spec", "not-a-spec", "expected an object, found a string"));
  }

  @Test
  void aGatewaySelectorValueThatIsNotAStringIsNamedAndTheOthersAreKept() {
    IstioGatewayState gateway =
        gateway(
            """
            {"selector": {"istio": "ingressgateway", "version": 2, "zone": {"a": "b"},
                          "empty": null}}
            """);

    assertThat(gateway.selector()).isEqualTo(java.util.Map.of("istio", "ingressgateway"));
    assertThat(gateway.problems())
        .containsExactly(
            new Problem("spec.selector[version]", "2", "expected a string, found a number"),
            new Problem("spec.selector[zone]", "{a=b}", "expected a string, found an object"),
            new Problem("spec.selector[empty]", null, "not a label and value; it is left out"));
  }

  @Test
  void aStringWhereAListBelongsIsAProblem() {
    RouteState route =
        digest(
            """
            {"hosts": "x.cloud.example.com", "gateways": {"a": 1}, "tcp": "string",
             "http": [{"route": [{"destination": {"host": "web"}}]}]}
            """);

    assertThat(route.problems())
        .containsExactly(
            new Problem(
                "spec.hosts", "x.cloud.example.com", "expected a list of strings, found a string"),
            new Problem("spec.gateways", "{a=1}", "expected a list of strings, found an object"),
            new Problem("spec.tcp", "string", "expected a list of objects, found a string"));
    assertThat(route.hostnames()).isEmpty();
    assertThat(route.parentRefs()).isEmpty();
    assertThat(route.backends())
        .containsExactly(new BackendRef(null, null, null, "web", null, null));
  }

  @Test
  void anItemOfTheWrongTypeIsNamedByItsIndexAndTheGoodItemsAreUsed() {
    RouteState route =
        digest(
            """
            {"hosts": [1, null, {"x": "y"}, "ok.cloud.example.com", "bad_host.example.com"],
             "gateways": [7, "istio-system/public"],
             "http": ["not-a-route",
                      {"route": [{"destination": {"host": 5}},
                                 {"destination": "web"},
                                 {"destination": {"host": "web", "port": {"number": "80"}},
                                  "weight": 50},
                                 {"destination": {"host": "api", "port": {"number": 8080}},
                                  "weight": "half"}]}]}
            """);

    assertThat(route.problems())
        .containsExactly(
            new Problem("spec.hosts[0]", "1", "expected a string, found a number"),
            new Problem("spec.hosts[1]", null, "expected a string, found null"),
            new Problem("spec.hosts[2]", "{x=y}", "expected a string, found an object"),
            new Problem("spec.gateways[0]", "7", "expected a string, found a number"),
            new Problem("spec.http[0]", "not-a-route", "expected an object, found a string"),
            new Problem(
                "spec.http[1].route[0].destination.host", "5", "expected a string, found a number"),
            new Problem(
                "spec.http[1].route[1].destination", "web", "expected an object, found a string"),
            new Problem(
                "spec.http[1].route[2].destination.port.number",
                "80",
                "expected an integer, found a string"),
            new Problem(
                "spec.http[1].route[3].weight", "half", "expected an integer, found a string"),
            new Problem(
                "spec.hosts[4]",
                "bad_host.example.com",
                "label 'bad_host' has the character '_'; only letters, digits and '-' are"
                    + " allowed"));
    assertThat(route.hostnames()).containsExactly("ok.cloud.example.com");
    assertThat(route.parentRefs())
        .containsExactly(
            new RouteState.ParentRef(
                "networking.istio.io", "Gateway", "istio-system", "public", null));
    assertThat(route.backends())
        .containsExactly(
            new BackendRef(null, null, null, "web", null, 50),
            new BackendRef(null, null, null, "api", 8080, null));
  }
}
