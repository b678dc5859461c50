package dev.cairn.topologywatcher.normalize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IstioNormalizerTest {

  private static final String V1 = "networking.istio.io/v1";

  private static IstioNormalizer.VirtualServiceRecord vs(
      List<String> hosts, List<String> gateways, IstioInput.Destination... destinations) {
    return IstioNormalizer.virtualService(
        new IstioInput.VirtualService(
            new Meta(
                "shop",
                "web",
                "uid-1",
                Map.of("app", "web"),
                Map.of("k8gb.io/strategy", "roundRobin", "unrelated", "x")),
            V1,
            hosts,
            gateways,
            List.of(destinations)));
  }

  private static IstioInput.Destination to(String host) {
    return new IstioInput.Destination("spec.http[0].route[0].destination", host, 80, null);
  }

  private static IstioGatewayState gateway(String namespace, String name, Map<String, String> s) {
    return IstioNormalizer.gateway(
        new IstioInput.Gateway(new Meta(namespace, name, null, Map.of(), Map.of()), V1, s, null));
  }

  private static ServiceState service(String namespace, String name, Map<String, String> labels) {
    return new ServiceState(
        namespace,
        name,
        null,
        "LoadBalancer",
        List.of("203.0.113.10", "2001:db8::10"),
        List.of("lb.example.net"),
        List.of(),
        Map.of(),
        List.of(),
        labels);
  }

  @Test
  void readsHostsDestinationsAndGatewaysAsKgbDoesWithItsMisreadingsFixed() {
    IstioNormalizer.VirtualServiceRecord record =
        vs(
            List.of("web.cloud.example.com", "*", "Web.Cloud.Example.com", "bad_host.example.com"),
            List.of("mesh", "istio-system/public", "edge"),
            to("web"),
            to("canary.shop.svc.cluster.local"),
            to("api.other.svc"),
            to("api.partner.example"),
            to(" "));
    RouteState route = record.route();

    assertThat(route.kind()).isEqualTo("VirtualService");
    assertThat(route.ref().key()).isEqualTo("VirtualService/shop/web");
    assertThat(route.apiVersion()).isEqualTo(V1);
    assertThat(route.labels()).isEqualTo(Map.of("app", "web"));
    assertThat(route.annotations()).containsOnlyKeys("k8gb.io/strategy");
    assertThat(route.hostnames())
        .containsExactly("web.cloud.example.com", "*", "Web.Cloud.Example.com");
    assertThat(route.backends())
        .containsExactly(
            new BackendRef(null, null, null, "web", 80, null),
            new BackendRef(null, null, "shop", "canary", 80, null),
            new BackendRef(null, null, "other", "api", 80, null),
            new BackendRef(
                "networking.istio.io", "ServiceEntry", null, "api.partner.example", 80, null));
    // "mesh" is the sidecars, not a gateway; a bare name is in the VirtualService's namespace.
    assertThat(route.parentRefs())
        .containsExactly(
            new RouteState.ParentRef(
                "networking.istio.io", "Gateway", "istio-system", "public", null),
            new RouteState.ParentRef("networking.istio.io", "Gateway", null, "edge", null));
    assertThat(record.parentFields()).containsExactly("spec.gateways[1]", "spec.gateways[2]");
    assertThat(route.problems())
        .extracting(Problem::field, Problem::value)
        .containsExactly(
            tuple("spec.hosts[3]", "bad_host.example.com"),
            tuple("spec.http[0].route[0].destination.host", " "));
    assertThat(route.loadBalancerIps()).isEmpty();
  }

  @Test
  void reportsUnusableGatewayNamesAndLeavesThemOut() {
    RouteState route =
        vs(
                List.of("web.cloud.example.com"),
                Arrays.asList("ns/", "/name", "a/b/c", "Upper/Case", null, "mesh", "ok"),
                to("web"))
            .route();
    assertThat(route.problems())
        .extracting(Problem::field)
        .containsExactly(
            "spec.gateways[0]",
            "spec.gateways[1]",
            "spec.gateways[2]",
            "spec.gateways[3]",
            "spec.gateways[4]");
    assertThat(route.parentRefs()).extracting(RouteState.ParentRef::name).containsExactly("ok");
  }

  @Test
  void keepsAGatewaysSelectorAndReportsAnUnusableEntry() {
    Map<String, String> selector = new HashMap<>();
    selector.put("istio", "ingressgateway");
    selector.put("broken", null);
    IstioGatewayState g = gateway("istio-system", "public", selector);
    assertThat(g.selector()).isEqualTo(Map.of("istio", "ingressgateway"));
    assertThat(g.problems()).extracting(Problem::field).containsExactly("spec.selector[broken]");
    assertThat(gateway("istio-system", "public", null).selector()).isEmpty();
  }

  @Test
  void joinTakesTheLoadBalancerOfTheOneServiceTheGatewaySelects() {
    IstioNormalizer.VirtualServiceRecord record =
        vs(List.of("web.cloud.example.com"), List.of("mesh", "istio-system/public"), to("web"));
    IstioGatewayState g = gateway("istio-system", "public", Map.of("istio", "ingressgateway"));
    List<ServiceState> services =
        List.of(
            service(
                "istio-system",
                "istio-ingressgateway",
                Map.of("istio", "ingressgateway", "app", "x")),
            service("istio-system", "istiod", Map.of("istio", "pilot")),
            service("shop", "web", Map.of()));

    RouteState joined =
        IstioJoin.join(
            record, key -> key.equals("IstioGateway/istio-system/public") ? g : null, services);

    assertThat(joined.loadBalancerIps()).containsExactly("203.0.113.10", "2001:db8::10");
    assertThat(joined.loadBalancerHostnames()).containsExactly("lb.example.net");
    assertThat(joined.problems()).isEmpty();
    assertThat(joined.hostnames()).isEqualTo(record.route().hostnames());
    assertThat(joined.parentRefs()).isEqualTo(record.route().parentRefs());
  }

  @Test
  void joinSaysWhyTheChainBreaks() {
    List<ServiceState> two =
        List.of(
            service("istio-system", "b", Map.of("istio", "ingressgateway")),
            service("istio-system", "a", Map.of("istio", "ingressgateway")));
    IstioGatewayState g = gateway("istio-system", "public", Map.of("istio", "ingressgateway"));
    IstioNormalizer.VirtualServiceRecord one =
        vs(List.of("web.cloud.example.com"), List.of("mesh", "istio-system/public"), to("web"));

    // No gateway but mesh, and two gateways: a configuration error of the VirtualService.
    assertThat(
            IstioJoin.join(vs(List.of("h.example.com"), List.of("mesh"), to("web")), k -> g, two)
                .problems())
        .extracting(Problem::field, Problem::value)
        .containsExactly(tuple("spec.gateways", "0"));
    RouteState both =
        IstioJoin.join(
            vs(List.of("h.example.com"), List.of("a", "istio-system/public"), to("web")),
            k -> g,
            two);
    assertThat(both.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.field()).isEqualTo("spec.gateways");
              assertThat(p.reason()).contains("shop/a, istio-system/public");
            });

    // The Gateway is not held: an absence, named by the spec.gateways item.
    assertThat(IstioJoin.join(one, k -> null, two).problems())
        .extracting(Problem::field, Problem::value)
        .containsExactly(tuple("spec.gateways[1]", "istio-system/public"));

    // Several Services, an empty selector: configuration errors of the Gateway.
    RouteState several = IstioJoin.join(one, k -> g, two);
    assertThat(several.loadBalancerIps()).isEmpty();
    assertThat(several.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.field()).isEqualTo("IstioGateway istio-system/public spec.selector");
              assertThat(p.value()).isEqualTo("istio=ingressgateway");
              assertThat(p.reason()).contains("2 Services (istio-system/a, istio-system/b)");
            });
    IstioGatewayState empty = gateway("istio-system", "public", Map.of());
    assertThat(IstioJoin.join(one, k -> empty, two).problems())
        .extracting(Problem::field)
        .containsExactly("IstioGateway istio-system/public spec.selector");

    // A selector entry that cannot be read: refused, not narrowed to the entries left, which
    // would select a Service the Gateway does not.
    Map<String, String> partly = new HashMap<>();
    partly.put("istio", "ingressgateway");
    partly.put("version", null);
    IstioGatewayState unreadable = gateway("istio-system", "public", partly);
    RouteState refused = IstioJoin.join(one, k -> unreadable, List.of(two.get(0)));
    assertThat(refused.loadBalancerIps()).isEmpty();
    assertThat(refused.problems())
        .extracting(Problem::field)
        .containsExactly("IstioGateway istio-system/public spec.selector[version]");

    // No Service matches: an absence.
    assertThat(IstioJoin.join(one, k -> g, List.of(service("shop", "web", Map.of()))).problems())
        .extracting(Problem::field)
        .containsExactly("spec.gateways[1]");
  }

  @Test
  void tellsWhichVirtualServicesAChangeCanTouch() {
    IstioGatewayState g = gateway("istio-system", "public", Map.of("istio", "ingressgateway"));
    IstioGatewayState other = gateway("istio-system", "internal", Map.of("istio", "internal"));
    List<Object> gateways = new ArrayList<>(List.of(g, other));
    ServiceState lb = service("istio-system", "lb", Map.of("istio", "ingressgateway"));
    ServiceState plain = service("shop", "web", Map.of());

    assertThat(IstioJoin.gatewaysSelecting(gateways, null, lb))
        .containsExactly("IstioGateway/istio-system/public");
    assertThat(IstioJoin.gatewaysSelecting(gateways, lb, plain))
        .containsExactly("IstioGateway/istio-system/public");
    assertThat(IstioJoin.gatewaysSelecting(gateways, plain, null)).isEmpty();

    IstioNormalizer.VirtualServiceRecord bound =
        vs(List.of("h.example.com"), List.of("istio-system/public"), to("web"));
    assertThat(IstioJoin.references(bound, Set.of("IstioGateway/istio-system/public"))).isTrue();
    assertThat(IstioJoin.references(bound, Set.of("IstioGateway/istio-system/internal"))).isFalse();
    assertThat(IstioJoin.references("not a record", Set.of("IstioGateway/istio-system/public")))
        .isFalse();
  }
}
