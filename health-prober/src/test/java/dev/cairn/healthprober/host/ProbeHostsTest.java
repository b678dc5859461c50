package dev.cairn.healthprober.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.topology.RouteState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProbeHostsTest {

  private static final Duration DEFAULT = Duration.ofSeconds(300);
  private static final List<DelegationZone> NO_ZONES = List.of();

  static GslbState embedded(String name, Integer threshold, String... hosts) {
    List<GslbState.IngressRule> rules =
        java.util.Arrays.stream(hosts)
            .map(h -> new GslbState.IngressRule(h, List.of(BackendRef.service("app"))))
            .toList();
    return new GslbState(
        "default",
        name,
        "uid-" + name,
        null,
        rules,
        new GslbStrategy("roundRobin", 30, null, Map.of(), threshold),
        null,
        Map.of(),
        List.of());
  }

  static GslbState referring(
      String name, String kind, String namespace, String refName, Map<String, String> annotations) {
    return new GslbState(
        "default",
        name,
        "uid",
        new GslbResourceRef("v1", kind, namespace, refName, Map.of(), List.of()),
        List.of(),
        new GslbStrategy("failover", 30, "eu", Map.of(), null),
        null,
        annotations,
        List.of());
  }

  static RouteState route(String kind, String namespace, String name, String... hostnames) {
    return new RouteState(
        kind,
        "gateway.networking.k8s.io/v1",
        namespace,
        name,
        "uid",
        List.of(hostnames),
        List.of(BackendRef.service("app")),
        Map.of(),
        List.of());
  }

  @Test
  void takesTheHostsOfEmbeddedIngressRules() {
    HostPlan plan =
        ProbeHosts.plan(
            List.of(embedded("app", null, "App.Cloud.example.com.", "api.cloud.example.com")),
            List.of(),
            NO_ZONES,
            DEFAULT);

    assertThat(plan.hosts()).containsExactly("api.cloud.example.com", "app.cloud.example.com");
    assertThat(plan.findings()).isEmpty();
  }

  @Test
  void resolvesAResourceRefToARouteByNameInTheGslbNamespaceByDefault() {
    HostPlan plan =
        ProbeHosts.plan(
            List.of(
                referring("a", "HTTPRoute", null, "web", Map.of()),
                referring("b", "Ingress", "other", "legacy", Map.of()),
                referring("c", "GRPCRoute", null, "orders", Map.of()),
                referring("d", "TLSRoute", null, "tls", Map.of())),
            List.of(
                route("HTTPRoute", "default", "web", "web.cloud.example.com"),
                route("Ingress", "other", "legacy", "old.cloud.example.com"),
                route("HTTPRoute", "other", "web", "wrong.cloud.example.com"),
                route("GRPCRoute", "default", "orders", "orders.cloud.example.com"),
                route("HTTPRoute", "default", "orders", "not-grpc.cloud.example.com"),
                route("TLSRoute", "default", "tls", "tls.cloud.example.com")),
            NO_ZONES,
            DEFAULT);

    assertThat(plan.hosts())
        .containsExactly(
            "old.cloud.example.com",
            "orders.cloud.example.com",
            "tls.cloud.example.com",
            "web.cloud.example.com");
  }

  @Test
  void reportsARouteThatIsNotOnTheTopicYet() {
    HostPlan plan =
        ProbeHosts.plan(
            List.of(referring("a", "HTTPRoute", null, "web", Map.of())),
            List.of(),
            NO_ZONES,
            DEFAULT);

    assertThat(plan.hosts()).isEmpty();
    assertThat(plan.findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.object()).isEqualTo("Gslb/default/a");
              assertThat(f.problem().value()).isEqualTo("HTTPRoute/default/web");
            });
  }

  static GslbState selecting(String kind, GslbResourceRef.LabelSelectorRequirement... exprs) {
    return new GslbState(
        "default",
        "sel",
        "uid",
        new GslbResourceRef("v1", kind, null, null, Map.of("app", "web"), List.of(exprs)),
        List.of(),
        new GslbStrategy("roundRobin", 30, null, Map.of(), null),
        null,
        Map.of(),
        List.of());
  }

  static RouteState labelled(
      String kind, String namespace, String name, Map<String, String> labels, String host) {
    RouteState r = route(kind, namespace, name, host);
    return new RouteState(
        r.kind(),
        r.apiVersion(),
        r.namespace(),
        r.name(),
        r.uid(),
        r.hostnames(),
        r.backends(),
        List.of(),
        List.of(),
        Map.of(),
        List.of(),
        null,
        labels);
  }

  @Test
  void selectsTheOneRouteOfTheKindInTheGslbNamespaceWhoseLabelsMatch() {
    HostPlan plan =
        ProbeHosts.plan(
            List.of(
                selecting(
                    "Ingress",
                    new GslbResourceRef.LabelSelectorRequirement(
                        "canary", "DoesNotExist", List.of()))),
            List.of(
                labelled(
                    "Ingress", "default", "web", Map.of("app", "web"), "web.cloud.example.com"),
                labelled(
                    "Ingress",
                    "default",
                    "web-canary",
                    Map.of("app", "web", "canary", "true"),
                    "canary.cloud.example.com"),
                labelled("HTTPRoute", "default", "r", Map.of("app", "web"), "r.cloud.example.com"),
                labelled("Ingress", "other", "x", Map.of("app", "web"), "x.cloud.example.com"),
                labelled(
                    "Ingress", "default", "api", Map.of("app", "api"), "api.cloud.example.com")),
            NO_ZONES,
            DEFAULT);

    assertThat(plan.hosts()).containsExactly("web.cloud.example.com");
    assertThat(plan.findings()).isEmpty();
  }

  @Test
  void aSelectorMatchingNoneOrSeveralRoutesIsReportedAndProbesNothing() {
    List<RouteState> two =
        List.of(
            labelled("Ingress", "default", "a", Map.of("app", "web"), "a.cloud.example.com"),
            labelled("Ingress", "default", "b", Map.of("app", "web"), "b.cloud.example.com"));

    HostPlan several = ProbeHosts.plan(List.of(selecting("Ingress")), two, NO_ZONES, DEFAULT);
    HostPlan none = ProbeHosts.plan(List.of(selecting("HTTPRoute")), two, NO_ZONES, DEFAULT);

    assertThat(several.hosts()).isEmpty();
    assertThat(several.findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.problem().field()).isEqualTo("spec.resourceRef");
              assertThat(f.problem().value()).isEqualTo("app=web");
              assertThat(f.problem().reason()).startsWith("selects 2 Ingress objects");
            });
    assertThat(none.hosts()).isEmpty();
    assertThat(none.findings().get(0).problem().reason()).startsWith("selects 0 HTTPRoute");
  }

  @Test
  void takesTheHostnameAnnotationForServiceRefs() {
    HostPlan plan =
        ProbeHosts.plan(
            List.of(
                referring(
                    "svc",
                    "Service",
                    null,
                    "lb",
                    Map.of("k8gb.io/hostname", " db.cloud.example.com ")),
                referring("tcp", "TCPRoute", null, "t", Map.of())),
            List.of(),
            NO_ZONES,
            DEFAULT);

    assertThat(plan.hosts()).containsExactly("db.cloud.example.com");
    assertThat(plan.findings())
        .singleElement()
        .satisfies(f -> assertThat(f.problem().field()).contains("k8gb.io/hostname"));
  }

  @Test
  void reportsKindsWithoutHostsOnTheTopics() {
    HostPlan plan =
        ProbeHosts.plan(
            List.of(referring("g", "Route", null, "x", Map.of())), List.of(), NO_ZONES, DEFAULT);

    assertThat(plan.findings().get(0).problem().field()).isEqualTo("spec.resourceRef.kind");
  }

  @Test
  void takesTheSpecHostsOfAVirtualServiceByNameOrByLabels() {
    GslbState byLabels =
        new GslbState(
            "default",
            "sel",
            "uid",
            new GslbResourceRef(
                "networking.istio.io/v1", "VirtualService", null, null, Map.of("app", "web"), null),
            List.of(),
            new GslbStrategy("roundRobin", 30, null, Map.of(), null),
            null,
            Map.of(),
            List.of());
    HostPlan plan =
        ProbeHosts.plan(
            List.of(referring("a", "VirtualService", null, "shop", Map.of()), byLabels),
            List.of(
                route(
                    "VirtualService",
                    "default",
                    "shop",
                    "App.Cloud.example.com.",
                    "*.cloud.example.com"),
                route("Ingress", "default", "shop", "ingress.cloud.example.com"),
                labelled(
                    "VirtualService",
                    "default",
                    "labelled",
                    Map.of("app", "web"),
                    "labelled.cloud.example.com"),
                labelled("HTTPRoute", "default", "r", Map.of("app", "web"), "r.cloud.example.com")),
            NO_ZONES,
            DEFAULT);

    assertThat(plan.hosts()).containsExactly("app.cloud.example.com", "labelled.cloud.example.com");
    assertThat(plan.findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.object()).isEqualTo("Gslb/default/a");
              assertThat(f.problem().field())
                  .isEqualTo("VirtualService/default/shop spec.hosts[1]");
              assertThat(f.problem().reason()).contains("wildcard");
            });
  }

  @Test
  void reportsAVirtualServiceThatIsNotOnTheTopicYet() {
    HostPlan plan =
        ProbeHosts.plan(
            List.of(referring("a", "VirtualService", null, "shop", Map.of())),
            List.of(route("Ingress", "default", "shop", "ingress.cloud.example.com")),
            NO_ZONES,
            DEFAULT);

    assertThat(plan.hosts()).isEmpty();
    assertThat(plan.findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.problem().value()).isEqualTo("VirtualService/default/shop");
              assertThat(f.problem().reason())
                  .contains("VirtualService is not on the routes topic");
            });
  }

  @Test
  void skipsWildcardInvalidAndOverlongHostsWithAProblemEach() {
    String longLabel = "a".repeat(51);
    HostPlan plan =
        ProbeHosts.plan(
            List.of(
                embedded(
                    "x",
                    null,
                    "*.cloud.example.com",
                    "bad_host.example.com",
                    longLabel + ".example.com",
                    "a".repeat(50) + ".example.com")),
            List.of(),
            NO_ZONES,
            DEFAULT);

    assertThat(plan.hosts()).containsExactly("a".repeat(50) + ".example.com");
    assertThat(plan.findings()).hasSize(3);
    assertThat(plan.findings().get(2).problem().reason()).contains("would be 64 octets");
  }

  @Test
  void probesOnlyHostsInsideALoadBalancedZoneWhenZonesAreConfigured() {
    HostPlan plan =
        ProbeHosts.plan(
            List.of(
                embedded(
                    "x",
                    null,
                    "app.cloud.example.com",
                    "app.notcloud.example.com",
                    "cloud.example.com.evil.org")),
            List.of(),
            List.of(new DelegationZone("example.com", "cloud.example.com")),
            DEFAULT);

    assertThat(plan.hosts()).containsExactly("app.cloud.example.com");
    assertThat(plan.findings()).hasSize(2);
  }

  @Test
  void collectsTheThresholdsOfEveryGslbUsingAHost() {
    HostPlan plan =
        ProbeHosts.plan(
            List.of(
                embedded("a", 60, "shared.example.com"),
                embedded("b", null, "shared.example.com"),
                embedded("c", 0, "other.example.com")),
            List.of(),
            NO_ZONES,
            DEFAULT);

    assertThat(plan.thresholds().get("shared.example.com"))
        .containsExactly(Duration.ofSeconds(60), DEFAULT);
    assertThat(plan.thresholds().get("other.example.com")).containsExactly(DEFAULT);
  }

  @Test
  void reportsAGslbWithoutHosts() {
    HostPlan plan = ProbeHosts.plan(List.of(embedded("none", null)), List.of(), NO_ZONES, DEFAULT);

    assertThat(plan.hosts()).isEmpty();
    assertThat(plan.findings()).hasSize(1);
  }
}
