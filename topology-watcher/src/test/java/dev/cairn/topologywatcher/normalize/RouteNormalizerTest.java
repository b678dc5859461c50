package dev.cairn.topologywatcher.normalize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouteNormalizerTest {

  private static final String V1 = "gateway.networking.k8s.io/v1";

  private static Meta meta(Map<String, String> annotations) {
    return new Meta("shop", "web", "uid-1", Map.of("app", "web"), annotations);
  }

  @Test
  void keepsHostnamesAsWrittenAndEveryBackendOfEveryRuleInOrder() {
    HttpRouteInput input =
        new HttpRouteInput(
            meta(Map.of()),
            V1,
            List.of("WWW.Example.com.", "*.example.org", "WWW.Example.com."),
            List.of(
                new HttpRouteInput.Rule(
                    List.of(
                        new BackendRefInput("", "Service", null, "web", 80, 90),
                        new BackendRefInput(null, null, "other", "canary", 8080, 10))),
                new HttpRouteInput.Rule(
                    List.of(new BackendRefInput(null, null, null, "api", null, null)))));

    RouteState route = RouteNormalizer.httpRoute(input);

    assertThat(route.kind()).isEqualTo("HTTPRoute");
    assertThat(route.apiVersion()).isEqualTo(V1);
    assertThat(route.ref().key()).isEqualTo("HTTPRoute/shop/web");
    assertThat(route.uid()).isEqualTo("uid-1");
    assertThat(route.labels()).isEqualTo(Map.of("app", "web"));
    assertThat(route.hostnames()).containsExactly("WWW.Example.com.", "*.example.org");
    assertThat(route.backends())
        .containsExactly(
            new BackendRef("", "Service", null, "web", 80, 90),
            new BackendRef(null, null, "other", "canary", 8080, 10),
            new BackendRef(null, null, null, "api", null, null));
    assertThat(route.problems()).isEmpty();
  }

  @Test
  void readsAGrpcRouteAsAnHttpRouteUnderItsOwnKind() {
    HttpRouteInput input =
        new HttpRouteInput(
            meta(Map.of()),
            "gateway.networking.k8s.io/v1alpha2",
            List.of("orders.example.com", "bad_host.example.com"),
            List.of(
                new HttpRouteInput.Rule(
                    List.of(new BackendRefInput(null, null, null, "orders", 50051, null)))),
            List.of(
                new RouteState.ParentRef(null, null, null, "public", null),
                new RouteState.ParentRef(null, null, null, " ", null)));

    RouteState route = RouteNormalizer.grpcRoute(input);

    assertThat(route.kind()).isEqualTo("GRPCRoute");
    assertThat(route.ref().key()).isEqualTo("GRPCRoute/shop/web");
    assertThat(route.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1alpha2");
    assertThat(route.hostnames()).containsExactly("orders.example.com");
    assertThat(route.backends())
        .containsExactly(new BackendRef(null, null, null, "orders", 50051, null));
    assertThat(route.parentRefs())
        .containsExactly(new RouteState.ParentRef(null, null, null, "public", null));
    assertThat(route.rules()).isEmpty();
    assertThat(route.problems())
        .extracting(Problem::field)
        .containsExactly("spec.hostnames[1]", "spec.parentRefs[1].name");
  }

  @Test
  void leavesOutInvalidHostnamesAndNamelessBackendsAndNamesThem() {
    HttpRouteInput input =
        new HttpRouteInput(
            meta(Map.of()),
            V1,
            List.of("good.example.com", "bad_host.example.com", "-x.example.com"),
            List.of(
                new HttpRouteInput.Rule(
                    List.of(new BackendRefInput(null, null, null, "", 80, null)))));

    RouteState route = RouteNormalizer.httpRoute(input);

    assertThat(route.hostnames()).containsExactly("good.example.com");
    assertThat(route.backends()).isEmpty();
    assertThat(route.problems())
        .extracting(Problem::field, Problem::value)
        .containsExactly(
            tuple("spec.hostnames[1]", "bad_host.example.com"),
            tuple("spec.hostnames[2]", "-x.example.com"),
            tuple("spec.rules[0].backendRefs[0].name", ""));
  }

  @Test
  void keepsOnlyTheRelevantAnnotationsVerbatimAndChecksTheKnownOnes() {
    Map<String, String> annotations =
        Map.of(
            "directdns.meisterlala.dev/ttl", "60s",
            "directdns.meisterlala.dev/enabled", "maybe",
            "directdns.meisterlala.dev/target-nodes", " odin, baldr ,,",
            "external-dns.alpha.kubernetes.io/hostname", "a.example.com, b_c.example.com",
            "k8gb.io/strategy", "failover",
            "kubectl.kubernetes.io/last-applied-configuration", "{}",
            "external-dns.alpha.kubernetes.io/ttl", "30");

    RouteState route =
        RouteNormalizer.httpRoute(new HttpRouteInput(meta(annotations), V1, List.of(), List.of()));

    assertThat(route.annotations())
        .containsOnlyKeys(
            "directdns.meisterlala.dev/ttl",
            "directdns.meisterlala.dev/enabled",
            "directdns.meisterlala.dev/target-nodes",
            "external-dns.alpha.kubernetes.io/hostname",
            "k8gb.io/strategy")
        .containsEntry("directdns.meisterlala.dev/ttl", "60s");
    assertThat(route.problems())
        .extracting(Problem::field, Problem::value)
        .containsExactlyInAnyOrder(
            tuple("metadata.annotations[directdns.meisterlala.dev/ttl]", "60s"),
            tuple("metadata.annotations[directdns.meisterlala.dev/enabled]", "maybe"),
            tuple(
                "metadata.annotations[external-dns.alpha.kubernetes.io/hostname]",
                "b_c.example.com"));
  }

  @Test
  void readsIngressRuleHostsOnceAndEveryPathBackend() {
    IngressInput input =
        new IngressInput(
            meta(Map.of()),
            List.of(
                new IngressInput.Rule(
                    "shop.example.com",
                    List.of(
                        BackendRefInput.service("web", 80), BackendRefInput.service("api", null))),
                new IngressInput.Rule(
                    "shop.example.com",
                    List.of(
                        new BackendRefInput(
                            "storage.k8s.io", "Bucket", null, "assets", null, null))),
                new IngressInput.Rule(null, List.of(BackendRefInput.service("fallback", 80))),
                new IngressInput.Rule("bad host", List.of())));

    RouteState route = RouteNormalizer.ingress(input);

    assertThat(route.kind()).isEqualTo("Ingress");
    assertThat(route.apiVersion()).isEqualTo("networking.k8s.io/v1");
    assertThat(route.hostnames()).containsExactly("shop.example.com");
    assertThat(route.labels()).isEqualTo(Map.of("app", "web"));
    assertThat(route.backends())
        .extracting(BackendRef::name)
        .containsExactly("web", "api", "assets", "fallback");
    assertThat(route.backends().get(0).isService()).isTrue();
    assertThat(route.backends().get(2).isService()).isFalse();
    assertThat(route.problems()).extracting(Problem::field).containsExactly("spec.rules[3].host");
    assertThat(route.rules())
        .extracting(RouteState.Rule::host)
        .containsExactly("shop.example.com", "shop.example.com");
    assertThat(route.rules().get(0).backends())
        .extracting(BackendRef::name)
        .containsExactly("web", "api");
    assertThat(route.rules().get(1).backends())
        .extracting(BackendRef::name)
        .containsExactly("assets");
  }

  @Test
  void keepsEachIngressRuleWithTheBackendsOfItsOwnPaths() {
    IngressInput input =
        new IngressInput(
            meta(Map.of()),
            List.of(
                new IngressInput.Rule(
                    "app.example.com", List.of(BackendRefInput.service("web", 80))),
                new IngressInput.Rule(
                    "api.example.com",
                    List.of(
                        BackendRefInput.service("api", 8080),
                        new BackendRefInput(null, null, null, " ", null, null))),
                new IngressInput.Rule("docs.example.com", List.of())));

    RouteState route = RouteNormalizer.ingress(input);

    assertThat(route.rules())
        .containsExactly(
            new RouteState.Rule(
                "app.example.com", List.of(new BackendRef(null, null, null, "web", 80, null))),
            new RouteState.Rule(
                "api.example.com", List.of(new BackendRef(null, null, null, "api", 8080, null))),
            new RouteState.Rule("docs.example.com", List.of()));
    assertThat(route.backends())
        .containsExactly(
            new BackendRef(null, null, null, "web", 80, null),
            new BackendRef(null, null, null, "api", 8080, null));
    assertThat(route.problems())
        .extracting(Problem::field)
        .containsExactly("spec.rules[1].http.paths[1].backend.name");
  }

  @Test
  void reportsAnIngressPathWithoutBackend() {
    IngressInput input =
        new IngressInput(
            meta(Map.of()),
            List.of(
                new IngressInput.Rule(
                    "shop.example.com",
                    List.of(new BackendRefInput(null, null, null, null, null, null)))));

    RouteState route = RouteNormalizer.ingress(input);

    assertThat(route.backends()).isEmpty();
    assertThat(route.problems())
        .extracting(Problem::field)
        .containsExactly("spec.rules[0].http.paths[0].backend.name");
  }

  @Test
  void readsAnIngressLoadBalancerStatusInOrderAndNamesWhatItLeavesOut() {
    IngressInput input =
        new IngressInput(
            meta(Map.of()),
            List.of(new IngressInput.Rule("shop.example.com", List.of())),
            List.of(
                new ServiceInput.LoadBalancerIngress("203.0.113.20", null),
                new ServiceInput.LoadBalancerIngress("2001:db8::20", null),
                new ServiceInput.LoadBalancerIngress(null, "lb-1.example.net"),
                new ServiceInput.LoadBalancerIngress("010.0.0.1", "bad host")));

    RouteState route = RouteNormalizer.ingress(input);

    assertThat(route.loadBalancerIps()).containsExactly("203.0.113.20", "2001:db8::20");
    assertThat(route.loadBalancerHostnames()).containsExactly("lb-1.example.net");
    assertThat(route.problems())
        .extracting(Problem::field, Problem::value)
        .containsExactly(
            tuple("status.loadBalancer.ingress[3].ip", "010.0.0.1"),
            tuple("status.loadBalancer.ingress[3].hostname", "bad host"));
  }

  @Test
  void anIngressWithoutStatusHasNoLoadBalancerAddresses() {
    RouteState route =
        RouteNormalizer.ingress(
            new IngressInput(
                meta(Map.of()), List.of(new IngressInput.Rule("shop.example.com", List.of()))));

    assertThat(route.loadBalancerIps()).isEmpty();
    assertThat(route.loadBalancerHostnames()).isEmpty();
  }

  @Test
  void carriesAnIngressControllerAndNoneWithoutOne() {
    RouteState.Controller gslb =
        new RouteState.Controller("k8gb.io/v1beta1", "Gslb", "web", "uid-gslb");
    Meta owned = new Meta("shop", "web", "uid-web", Map.of(), Map.of(), gslb);

    assertThat(RouteNormalizer.ingress(new IngressInput(owned, List.of())).controller())
        .isEqualTo(gslb);
    assertThat(RouteNormalizer.ingress(new IngressInput(meta(Map.of()), List.of())).controller())
        .isNull();
  }

  @Test
  void copiesParentRefsAsWrittenAndNamesANamelessOne() {
    HttpRouteInput input =
        new HttpRouteInput(
            meta(Map.of()),
            V1,
            List.of("www.example.com"),
            List.of(),
            List.of(
                new RouteState.ParentRef(
                    "gateway.networking.k8s.io", "Gateway", "edge", "public", "https"),
                new RouteState.ParentRef(null, null, null, "internal", null),
                new RouteState.ParentRef(null, "Gateway", null, "", null),
                new RouteState.ParentRef("example.com", "Mesh", null, "mesh", null)));

    RouteState route = RouteNormalizer.httpRoute(input);

    assertThat(route.parentRefs())
        .containsExactly(
            new RouteState.ParentRef(
                "gateway.networking.k8s.io", "Gateway", "edge", "public", "https"),
            new RouteState.ParentRef(null, null, null, "internal", null),
            new RouteState.ParentRef("example.com", "Mesh", null, "mesh", null));
    assertThat(route.problems())
        .containsExactly(
            new Problem("spec.parentRefs[2].name", "", "parent has no name; it is left out"));
  }

  @Test
  void aRouteWithoutParentRefsHasNone() {
    RouteState route =
        RouteNormalizer.httpRoute(new HttpRouteInput(meta(Map.of()), V1, List.of(), List.of()));

    assertThat(route.parentRefs()).isEmpty();
  }

  @Test
  void readsAGatewaysListenerHostnamesAndStatusAddresses() {
    Meta meta =
        new Meta(
            "edge",
            "public",
            "uid-gw",
            Map.of("app", "edge"),
            Map.of(
                "k8gb.io/strategy", "failover",
                "kubectl.kubernetes.io/last-applied-configuration", "{}"),
            null);
    GatewayInput input =
        new GatewayInput(
            meta,
            V1,
            List.of(
                new GatewayInput.Listener("*.example.com"),
                new GatewayInput.Listener(null),
                new GatewayInput.Listener("bad_host.example.com"),
                new GatewayInput.Listener("shop.example.com"),
                new GatewayInput.Listener("*.example.com")),
            List.of(
                new GatewayInput.Address(null, "203.0.113.7"),
                new GatewayInput.Address("IPAddress", "2001:db8::7"),
                new GatewayInput.Address("Hostname", "lb-1.example.net"),
                new GatewayInput.Address("NamedAddress", "my-pool"),
                new GatewayInput.Address("IPAddress", "203.0.113.300"),
                new GatewayInput.Address("Hostname", "bad host"),
                new GatewayInput.Address("", "198.51.100.7")));

    RouteState gateway = RouteNormalizer.gateway(input);

    assertThat(gateway)
        .isEqualTo(
            new RouteState(
                "Gateway",
                V1,
                "edge",
                "public",
                "uid-gw",
                List.of("*.example.com", "shop.example.com"),
                List.of(),
                List.of("203.0.113.7", "2001:db8::7", "198.51.100.7"),
                List.of("lb-1.example.net"),
                Map.of("k8gb.io/strategy", "failover"),
                List.of(
                    new Problem(
                        "spec.listeners[2].hostname",
                        "bad_host.example.com",
                        "label 'bad_host' has the character '_'; only letters, digits and '-' are allowed"),
                    new Problem(
                        "status.addresses[3].type",
                        "NamedAddress",
                        "address type is neither IPAddress nor Hostname; the address is left out"),
                    new Problem(
                        "status.addresses[4].value",
                        "203.0.113.300",
                        "not a strict IPv4 or IPv6 address literal"),
                    new Problem(
                        "status.addresses[5].value",
                        "bad host",
                        "label 'bad host' has the character ' '; only letters, digits and '-' are allowed")),
                null,
                Map.of("app", "edge"),
                List.of()));
    assertThat(gateway.ref().key()).isEqualTo("Gateway/edge/public");
  }

  @Test
  void aGatewayWithoutStatusHasNoAddresses() {
    RouteState gateway =
        RouteNormalizer.gateway(
            new GatewayInput(
                meta(Map.of()),
                "gateway.networking.k8s.io/v1beta1",
                List.of(new GatewayInput.Listener("www.example.com")),
                null));

    assertThat(gateway.apiVersion()).isEqualTo("gateway.networking.k8s.io/v1beta1");
    assertThat(gateway.hostnames()).containsExactly("www.example.com");
    assertThat(gateway.loadBalancerIps()).isEmpty();
    assertThat(gateway.loadBalancerHostnames()).isEmpty();
    assertThat(gateway.problems()).isEmpty();
  }
}
