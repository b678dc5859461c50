package dev.cairn.healthprober.resolution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
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
            List.of(
                node("n1", true, Map.of("directdns.meisterlala.dev/target", "Edge1.Example.com.")),
                node("n2", true, Map.of(), new NodeAddress("ExternalIP", "203.0.113.2")),
                node("n3", false, Map.of("k3s.io/external-dns", "worker.example.com"))),
            false,
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
            HostnameTargets.plan(List.of(route("r", resolving())), List.of(ip), false, DEFAULT)
                .keys())
        .isEmpty();
  }

  @Test
  void usesTheRouteResolverAndTheDefaultSwitch() {
    Map<String, String> own = Map.of("directdns.meisterlala.dev/dns-server", "9.9.9.9");
    ResolutionPlan plan =
        HostnameTargets.plan(
            List.of(route("a", own), route("b", Map.of())),
            List.of(node("n", true, Map.of("k3s.io/external-dns", "edge.example.com"))),
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
            List.of(node("n", true, Map.of("k3s.io/external-dns", "edge.example.com"))),
            false,
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
            List.of(
                node("worker", false, Map.of("k3s.io/external-dns", "worker.example.com")),
                node("edge", true, Map.of("k3s.io/external-dns", "edge.example.com"))),
            false,
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
            List.of(node("n", true, Map.of("directdns.meisterlala.dev/target", "1.2.3.4:80"))),
            false,
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
  void parsesAKeyBack() {
    assertThat(ResolutionKey.parse("[2001:db8::1]:53|a.example.com"))
        .isEqualTo(new ResolutionKey("[2001:db8::1]:53", "a.example.com"));
    assertThat(ResolutionKey.parse("nobar")).isNull();
  }
}
