package dev.cairn.healthprober.resolution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostnameTargetsTest {

  private static final String DEFAULT = "1.1.1.1:53";

  static RouteState route(String name, Map<String, String> annotations) {
    return new RouteState(
        "HTTPRoute",
        "gateway.networking.k8s.io/v1",
        "default",
        name,
        "uid",
        List.of(name + ".example.com"),
        List.of(BackendRef.service("app")),
        annotations,
        List.of());
  }

  static NodeState node(
      String name, boolean ingress, Map<String, String> annotations, NodeAddress... addresses) {
    return new NodeState(name, "z1", "r1", ingress, List.of(addresses), annotations, List.of());
  }

  static RouteState withLoadBalancer(
      String kind, String name, Map<String, String> annotations, String... lbHostnames) {
    return new RouteState(
        kind,
        switch (kind) {
          case "Ingress" -> "networking.k8s.io/v1";
          case "VirtualService" -> "networking.istio.io/v1";
          default -> "gateway.networking.k8s.io/v1";
        },
        "default",
        name,
        "uid",
        List.of(name + ".example.com"),
        List.of(BackendRef.service("app")),
        List.of(),
        List.of(lbHostnames),
        annotations,
        List.of(),
        null);
  }

  static RouteState ingress(String name, String... lbHostnames) {
    return withLoadBalancer("Ingress", name, Map.of(), lbHostnames);
  }

  static ServiceState service(String name, String type, String... lbHostnames) {
    return new ServiceState(
        "default",
        name,
        "uid",
        type,
        List.of(),
        List.of(lbHostnames),
        List.of(),
        Map.of(),
        List.of());
  }

  static Map<String, String> resolving() {
    return Map.of("directdns.meisterlala.dev/resolve-target-hostnames", "true");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "' 9.9.9.9 '|9.9.9.9:53",
        "9.9.9.9:5353|9.9.9.9:5353",
        "[2001:db8::53]:53|[2001:db8::53]:53",
        "''|1.1.1.1:53",
        "2606:4700::1111|2606:4700::1111"
      })
  void normalisesTheResolverLikeK8sDirectDns(String annotation, String expected) {
    assertThat(HostnameTargets.normaliseServer(annotation, DEFAULT)).isEqualTo(expected);
  }

  @Test
  void resolvesTheHostnameTargetsOfIngressNodesForResolvingRoutes() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(route("web", resolving()), route("off", Map.of())),
            List.of(),
            List.of(
                node("n1", true, Map.of("directdns.meisterlala.dev/target", "Edge1.Example.com.")),
                node("n2", true, Map.of(), new NodeAddress("ExternalIP", "203.0.113.2")),
                node("n3", false, Map.of("k3s.io/external-dns", "worker.example.com"))),
            false,
            true,
            DEFAULT);

    assertThat(plan.keys()).containsExactly(new ResolutionKey("1.1.1.1:53", "edge1.example.com"));
    assertThat(plan.keys().first().key()).isEqualTo("1.1.1.1:53|edge1.example.com");
  }

  @Test
  void followsTheNodeTargetOrder() {
    NodeState n =
        node(
            "n",
            true,
            Map.of("k3s.io/external-dns", "k3s.example.com", "k3s.io/external-ip", "198.51.100.1"),
            new NodeAddress("ExternalDNS", "status.example.com"),
            new NodeAddress("InternalIP", "10.0.0.1"));
    assertThat(HostnameTargets.nodeTarget(n).orElseThrow().value()).isEqualTo("k3s.example.com");

    NodeState m =
        node(
            "m",
            true,
            Map.of("k3s.io/external-ip", "198.51.100.1"),
            new NodeAddress("InternalIP", "10.0.0.1"),
            new NodeAddress("ExternalDNS", "status.example.com"));
    assertThat(HostnameTargets.nodeTarget(m).orElseThrow().value()).isEqualTo("status.example.com");

    NodeState ip = node("i", true, Map.of("directdns.meisterlala.dev/target", "192.0.2.7"));
    assertThat(
            HostnameTargets.plan(
                    List.of(route("r", resolving())), List.of(), List.of(ip), false, true, DEFAULT)
                .keys())
        .isEmpty();
  }

  @Test
  void usesTheRouteResolverAndTheDefaultSwitch() {
    Map<String, String> own = Map.of("directdns.meisterlala.dev/dns-server", "9.9.9.9");
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(route("a", own), route("b", Map.of())),
            List.of(),
            List.of(node("n", true, Map.of("k3s.io/external-dns", "edge.example.com"))),
            true,
            true,
            DEFAULT);

    assertThat(plan.keys())
        .containsExactly(
            new ResolutionKey("1.1.1.1:53", "edge.example.com"),
            new ResolutionKey("9.9.9.9:53", "edge.example.com"));
  }

  @Test
  void skipsDisabledRoutesAndReportsABadSwitch() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(
                route(
                    "off",
                    Map.of(
                        "directdns.meisterlala.dev/enabled",
                        "off",
                        "directdns.meisterlala.dev/resolve-target-hostnames",
                        "true")),
                route(
                    "odd", Map.of("directdns.meisterlala.dev/resolve-target-hostnames", "maybe"))),
            List.of(),
            List.of(node("n", true, Map.of("k3s.io/external-dns", "edge.example.com"))),
            false,
            true,
            DEFAULT);

    assertThat(plan.keys()).isEmpty();
    assertThat(plan.findings())
        .singleElement()
        .satisfies(f -> assertThat(f.object()).isEqualTo("HTTPRoute/default/odd"));
  }

  @Test
  void includesPinnedTargetNodesEvenWithoutTheIngressRole() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(
                route(
                    "pinned",
                    Map.of(
                        "directdns.meisterlala.dev/resolve-target-hostnames", "yes",
                        "directdns.meisterlala.dev/target-nodes", " worker , missing"))),
            List.of(),
            List.of(
                node("worker", false, Map.of("k3s.io/external-dns", "worker.example.com")),
                node("edge", true, Map.of("k3s.io/external-dns", "edge.example.com"))),
            false,
            true,
            DEFAULT);

    assertThat(plan.keys())
        .extracting(ResolutionKey::hostname)
        .containsExactly("edge.example.com", "worker.example.com");
  }

  @Test
  void reportsATargetThatIsNeitherAnIpNorAHostname() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(route("r", resolving())),
            List.of(),
            List.of(node("n", true, Map.of("directdns.meisterlala.dev/target", "1.2.3.4:80"))),
            false,
            true,
            DEFAULT);

    assertThat(plan.keys()).isEmpty();
    assertThat(plan.findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.object()).isEqualTo("Node/n");
              assertThat(f.problem().field()).contains("directdns.meisterlala.dev/target");
            });
  }

  @Test
  void resolvesEveryIngressLoadBalancerHostnameThroughTheDefaultResolverNormalisedAndOnce() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(
                ingress("a", "LB-1.US-East-1.ELB.amazonaws.com.", "lb-2.example.com"),
                ingress("b", "lb-1.us-east-1.elb.amazonaws.com"),
                withLoadBalancer(
                    "Ingress",
                    "off",
                    Map.of(
                        "directdns.meisterlala.dev/enabled", "false",
                        "directdns.meisterlala.dev/dns-server", "9.9.9.9"),
                    "lb-2.example.com.")),
            List.of(),
            List.of(),
            false,
            true,
            DEFAULT);

    assertThat(plan.keys())
        .extracting(ResolutionKey::key)
        .containsExactly(
            "1.1.1.1:53|lb-1.us-east-1.elb.amazonaws.com", "1.1.1.1:53|lb-2.example.com");
    assertThat(plan.findings()).isEmpty();
  }

  @Test
  void resolvesTheHostnameAddressesOfAGateway() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(withLoadBalancer("Gateway", "public", Map.of(), "GW.example.net.")),
            List.of(),
            List.of(),
            false,
            true,
            DEFAULT);

    assertThat(plan.keys()).containsExactly(new ResolutionKey("1.1.1.1:53", "gw.example.net"));
  }

  @Test
  void resolvesTheLoadBalancerHostnamesOfAVirtualServiceLikeAnIngress() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(
                withLoadBalancer("VirtualService", "shop", Map.of(), "A1B2-Istio.ELB.example.com."),
                withLoadBalancer("VirtualService", "bad", Map.of(), "bad_name.example.com"),
                ingress("i", "a1b2-istio.elb.example.com")),
            List.of(),
            List.of(),
            false,
            true,
            DEFAULT);

    assertThat(plan.keys())
        .containsExactly(new ResolutionKey("1.1.1.1:53", "a1b2-istio.elb.example.com"));
    assertThat(plan.findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.object()).isEqualTo("VirtualService/default/bad");
              assertThat(f.problem().field()).contains("status.loadBalancer.ingress[].hostname");
            });
  }

  @Test
  void ignoresTheLoadBalancerHostnamesOfAnHttpRoute() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(withLoadBalancer("HTTPRoute", "web", Map.of(), "lb.example.com")),
            List.of(),
            List.of(),
            true,
            true,
            DEFAULT);

    assertThat(plan.keys()).isEmpty();
    assertThat(plan.findings()).isEmpty();
  }

  @Test
  void resolvesTheLoadBalancerHostnamesOfLoadBalancerServicesOnly() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(),
            List.of(
                service("lb", "LoadBalancer", "Svc-LB.Example.com."),
                service("internal", "ClusterIP", "cluster.example.com"),
                service("ports", "NodePort", "nodeport.example.com")),
            List.of(),
            false,
            true,
            "9.9.9.9");

    assertThat(plan.keys()).containsExactly(new ResolutionKey("9.9.9.9:53", "svc-lb.example.com"));
    assertThat(plan.keys().first().key()).isEqualTo("9.9.9.9:53|svc-lb.example.com");
  }

  @Test
  void sharesTheKeyOfANodeHostnameResolvedThroughTheDefaultResolver() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(route("web", resolving()), ingress("i", "Edge.example.com")),
            List.of(service("s", "LoadBalancer", "edge.example.com.")),
            List.of(node("n", true, Map.of("k3s.io/external-dns", "edge.example.com"))),
            false,
            true,
            DEFAULT);

    assertThat(plan.keys()).containsExactly(new ResolutionKey("1.1.1.1:53", "edge.example.com"));
  }

  @Test
  void plansNoLoadBalancerHostnameWhenSwitchedOff() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(route("web", resolving()), ingress("i", "lb.example.com", "bad_name")),
            List.of(service("s", "LoadBalancer", "svc.example.com")),
            List.of(node("n", true, Map.of("k3s.io/external-dns", "edge.example.com"))),
            false,
            false,
            DEFAULT);

    assertThat(plan.keys()).containsExactly(new ResolutionKey("1.1.1.1:53", "edge.example.com"));
    assertThat(plan.findings()).isEmpty();
  }

  @Test
  void reportsALoadBalancerHostnameThatIsNotAValidHostName() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(ingress("i", "bad_name.example.com", "good.example.com")),
            List.of(service("s", "LoadBalancer", "-dash.example.com", "*.example.com")),
            List.of(),
            false,
            true,
            DEFAULT);

    assertThat(plan.keys()).containsExactly(new ResolutionKey("1.1.1.1:53", "good.example.com"));
    assertThat(plan.findings())
        .extracting(f -> f.object() + " " + f.problem().field() + " " + f.problem().value())
        .containsExactly(
            "Ingress/default/i status.loadBalancer.ingress[].hostname bad_name.example.com",
            "Service/default/s status.loadBalancer.ingress[].hostname -dash.example.com",
            "Service/default/s status.loadBalancer.ingress[].hostname *.example.com");
  }

  @Test
  void resolvesTheHostnamesOfAGslbsExposedHostnamesAnnotationAndReportsABadItem() {
    GslbState gslb =
        new GslbState(
            "default",
            "app",
            "uid",
            null,
            List.of(new GslbState.IngressRule("app.example.com", List.of())),
            null,
            null,
            Map.of("k8gb.io/exposed-hostnames", " LB-A.example.net., lb_b.example.net"),
            List.of());
    GslbState without =
        new GslbState(
            "default",
            "other",
            "uid",
            null,
            List.of(),
            null,
            null,
            Map.of("k8gb.io/exposed-ip-addresses", "192.0.2.1"),
            List.of());

    ResolutionPlan on =
        HostnameTargets.plan(
            List.of(), List.of(), List.of(gslb, without), List.of(), false, true, DEFAULT);
    ResolutionPlan off =
        HostnameTargets.plan(List.of(), List.of(), List.of(gslb), List.of(), false, false, DEFAULT);

    assertThat(on.keys()).containsExactly(new ResolutionKey("1.1.1.1:53", "lb-a.example.net"));
    assertThat(on.findings())
        .extracting(f -> f.object() + " " + f.problem().field() + " " + f.problem().value())
        .containsExactly(
            "Gslb/default/app metadata.annotations[k8gb.io/exposed-hostnames] lb_b.example.net");
    assertThat(off.keys()).isEmpty();
  }

  @Test
  void reportsLoadBalancerHostnamesWithoutADefaultResolver() {
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(ingress("i", "lb.example.com")), List.of(), List.of(), false, true, " ");

    assertThat(plan.keys()).isEmpty();
    assertThat(plan.findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.object()).isEqualTo("Ingress/default/i");
              assertThat(f.problem().field()).isEqualTo("status.loadBalancer.ingress[].hostname");
              assertThat(f.problem().value()).isEqualTo("lb.example.com");
            });
  }

  @Test
  void parsesAKeyBack() {
    assertThat(ResolutionKey.parse("[2001:db8::1]:53|a.example.com"))
        .isEqualTo(new ResolutionKey("[2001:db8::1]:53", "a.example.com"));
    assertThat(ResolutionKey.parse("nobar")).isNull();
  }
}
