package dev.cairn.commonmodel;

import static dev.cairn.commonmodel.TestRecords.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.codec.CairnSerde;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServicePort;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TestRecordsTest {

  @Test
  void aRouteBuildsWhatTheTestSays() {
    RouteState route =
        TestRecords.aRoute()
            .named("default", "app")
            .withHostnames("app.example.com")
            .withBackend("web")
            .build();

    assertThat(route)
        .isEqualTo(
            new RouteState(
                "HTTPRoute",
                "gateway.networking.k8s.io/v1",
                "default",
                "app",
                TestRecords.uidOf(ObjectRef.of("HTTPRoute", "default", "app")),
                List.of("app.example.com"),
                List.of(BackendRef.service("web")),
                Map.of(),
                List.of()));
  }

  @Test
  void anIngressRouteUsesTheIngressApi() {
    RouteState ingress = TestRecords.aRoute().ingress().named("shop", "legacy").build();

    assertThat(ingress.ref().key()).isEqualTo("Ingress/shop/legacy");
    assertThat(ingress.apiVersion()).isEqualTo("networking.k8s.io/v1");
  }

  @Test
  void aDefaultListIsReplacedByTheFirstElementTheTestAdds() {
    RouteState route =
        TestRecords.aRoute().withBackend("api").withBackend("api-v2", 8080, 20).build();
    ServiceState service = TestRecords.aService().withPort("dns", "UDP", 53).build();

    assertThat(route.backends())
        .containsExactly(
            BackendRef.service("api"), new BackendRef(null, null, null, "api-v2", 8080, 20));
    assertThat(service.ports()).containsExactly(new ServicePort("dns", "UDP", 53));
    assertThat(TestRecords.aRoute().withoutBackends().withHostnames().build().backends()).isEmpty();
  }

  @Test
  void aNodeBuildsWhatTheTestSays() {
    NodeState node =
        TestRecords.aNode("n1").inZone("a").ingress().withExternalIp("203.0.113.10").build();

    assertThat(node)
        .isEqualTo(
            new NodeState(
                "n1",
                "a",
                null,
                true,
                List.of(new NodeAddress("ExternalIP", "203.0.113.10")),
                Map.of(),
                List.of()));
  }

  @Test
  void anEndpointsBuildsReadyAndUnreadyEndpointsWithDistinctAddresses() {
    ServiceEndpoints endpoints =
        TestRecords.anEndpoints("default", "web")
            .withReadyEndpointOn("n1")
            .withReadyEndpointOn("n2", "b")
            .withNotReadyEndpointOn("n3")
            .withTerminatingEndpointOn("n4")
            .build();

    assertThat(endpoints.ref().key()).isEqualTo("Service/default/web");
    assertThat(endpoints.endpoints())
        .containsExactly(
            new EndpointState(List.of("10.244.0.1"), "n1", null, true, true, false),
            new EndpointState(List.of("10.244.0.2"), "n2", "b", true, true, false),
            new EndpointState(List.of("10.244.0.3"), "n3", null, false, false, false),
            new EndpointState(List.of("10.244.0.4"), "n4", null, false, true, true));
  }

  @Test
  void aGslbDefaultsToRoundRobinOverAnIngress() {
    GslbState gslb = TestRecords.aGslb().build();

    assertThat(gslb.ref().key()).isEqualTo("Gslb/default/app");
    assertThat(gslb.resourceRef())
        .isEqualTo(new GslbResourceRef("networking.k8s.io/v1", "Ingress", null, "app", null, null));
    assertThat(gslb.strategy()).isEqualTo(new GslbStrategy("roundRobin", 30, null, Map.of(), 300));
  }

  @Test
  void aGslbCanFailOverOrEmbedItsIngress() {
    GslbState gslb =
        TestRecords.aGslb()
            .named("shop", "storefront")
            .failover("eu")
            .withIngressRule("shop.cloud.example.com", "storefront")
            .build();

    assertThat(gslb.resourceRef()).isNull();
    assertThat(gslb.ingressRules())
        .containsExactly(
            new GslbState.IngressRule(
                "shop.cloud.example.com", List.of(BackendRef.service("storefront"))));
    assertThat(gslb.strategy().type()).isEqualTo("failover");
    assertThat(gslb.strategy().primaryGeoTag()).isEqualTo("eu");
  }

  @Test
  void aSyncMarkerIsSyncedAtT0() {
    assertThat(TestRecords.aSyncMarker().build())
        .isEqualTo(new SyncMarker("gen-1", SyncMarker.Phase.SYNCED, T0, Map.of()));
    assertThat(TestRecords.aSyncMarker().syncing().build().synced()).isFalse();
  }

  @Test
  void aPeerAnswerIsAnOkAnswerThatCanTurnIntoFailures() {
    PeerAnswer ok = TestRecords.aPeerAnswer().build();
    PeerAnswer nxdomain = TestRecords.aPeerAnswer().nxdomain().build();
    PeerAnswer down = TestRecords.aPeerAnswer().timingOutSince(T0.minusSeconds(30)).build();

    assertThat(ok.key()).isEqualTo("PeerAnswer/eu/app.cloud.example.com");
    assertThat(ok.status()).isEqualTo(ProbeStatus.OK);
    assertThat(ok.ipv4()).containsExactly("203.0.113.10");
    assertThat(nxdomain.ipv4()).isEmpty();
    assertThat(nxdomain.ttlSeconds()).isNull();
    assertThat(nxdomain.status().reachable()).isTrue();
    assertThat(down.status().reachable()).isFalse();
    assertThat(down.ipv4()).as("last good answer kept").containsExactly("203.0.113.10");
    assertThat(down.failingSince()).isEqualTo(T0.minusSeconds(30));
  }

  @Test
  void aHostnameResolutionCanGoStaleOrNeverResolve() {
    HostnameResolution fresh = TestRecords.aHostnameResolution().build();
    HostnameResolution stale =
        TestRecords.aHostnameResolution().staleAfter(ProbeStatus.TIMEOUT).build();
    HostnameResolution never =
        TestRecords.aHostnameResolution().neverResolved(ProbeStatus.NXDOMAIN).build();

    assertThat(fresh.key()).isEqualTo("192.0.2.53:53|lb.example.net");
    assertThat(fresh.expiresAt()).isEqualTo(T0.plusSeconds(300));
    assertThat(stale.stale()).isTrue();
    assertThat(stale.ipv4()).containsExactly("198.51.100.7");
    assertThat(never.ipv4()).isEmpty();
    assertThat(never.resolvedAt()).isNull();
  }

  @Test
  void aDecisionPublishesOneRecordForTheDefaultRoute() {
    TargetDecision decision = TestRecords.aDecision().build();

    assertThat(decision.source()).isEqualTo(ObjectRef.of("HTTPRoute", "default", "app"));
    assertThat(decision.namespace()).isEqualTo("default");
    assertThat(decision.name()).isEqualTo("httproute-app");
    assertThat(decision.disposition()).isEqualTo(Disposition.PUBLISH);
    assertThat(decision.records())
        .containsExactly(DnsRecord.of("app.example.com", "A", 30, List.of("203.0.113.10")));
  }

  @Test
  void aDecisionCanHaveNoTargetsOrBeWithdrawn() {
    TargetDecision none = TestRecords.aDecision().forGslb("shop", "storefront").noTargets().build();
    TargetDecision withdrawn = TestRecords.aDecision().withdraw().build();

    assertThat(none.disposition()).isEqualTo(Disposition.NO_TARGETS);
    assertThat(none.records()).isEmpty();
    assertThat(none.name()).isEqualTo("gslb-storefront");
    assertThat(none.sourceApiVersion()).isEqualTo("k8gb.io/v1beta1");
    assertThat(withdrawn.disposition()).isEqualTo(Disposition.WITHDRAW);
    assertThat(withdrawn.records()).isEmpty();
  }

  @Test
  void uidsAreStableAndCanBeUnknown() {
    assertThat(TestRecords.aRoute().build().uid()).isEqualTo(TestRecords.aRoute().build().uid());
    assertThat(TestRecords.aRoute().named("a", "b").build().uid())
        .isNotEqualTo(TestRecords.aRoute().build().uid());
    assertThat(TestRecords.aRoute().withUid(null).build().uid()).isNull();
    assertThat(TestRecords.aDecision().withSourceUid(null).build().sourceUid()).isNull();
  }

  @Test
  void buildersCanBuildAgainAndGiveEqualRecords() {
    RouteStateBuilder builder = TestRecords.aRoute().withAnnotation("k8gb.io/strategy", "failover");

    assertThat(builder.build()).isEqualTo(builder.build());
  }

  static Stream<Arguments> everyBuilderWithEverything() {
    Problem problem = new Problem("spec.x", "y", "bad");
    return Stream.of(
        Arguments.of(
            Topics.ROUTES,
            TestRecords.aRoute()
                .withAnnotation("directdns.meisterlala.dev/ttl", "60")
                .withProblem(problem)
                .build()),
        Arguments.of(
            Topics.SERVICES,
            TestRecords.aService()
                .named("shop", "lb")
                .withLoadBalancerIps("203.0.113.10")
                .withLoadBalancerHostnames("lb.example.net")
                .withAnnotation("k8gb.io/hostname", "shop.cloud.example.com")
                .withProblem(problem)
                .build()),
        Arguments.of(
            Topics.ENDPOINTS,
            TestRecords.anEndpoints("shop", "lb")
                .withReadyEndpointOn("n1", "a")
                .withReadyEndpointWithoutNode()
                .withProblem(problem)
                .build()),
        Arguments.of(
            Topics.NODES,
            TestRecords.aNode("n1")
                .inZone("a")
                .inRegion("eu")
                .ingress()
                .withInternalIp("10.0.0.1")
                .withExternalIp("203.0.113.1")
                .withExternalDns("n1.example.com")
                .withAnnotation("directdns.meisterlala.dev/target", "203.0.113.2")
                .withProblem(problem)
                .build()),
        Arguments.of(
            Topics.GSLBS,
            TestRecords.aGslb()
                .selectingIngresses(Map.of("app", "shop"))
                .withWeight("eu", 60)
                .withWeight("us", 40)
                .withServiceHealthPolicy("All")
                .withAnnotation("k8gb.io/exposed-ip-addresses", "203.0.113.10")
                .withProblem(problem)
                .build()),
        Arguments.of(
            Topics.SYNC, TestRecords.aSyncMarker().generation("g2").withCount("Node", 3).build()),
        Arguments.of(
            Topics.PEER_ANSWERS,
            TestRecords.aPeerAnswer()
                .from("us")
                .withIpv6("2001:db8::1")
                .timingOutSince(T0.minusSeconds(5))
                .build()),
        Arguments.of(
            Topics.HOSTNAME_RESOLUTIONS,
            TestRecords.aHostnameResolution().withIpv6("2001:db8::7").build()),
        Arguments.of(
            Topics.DECISIONS,
            TestRecords.aDecision()
                .withARecord("app.example.com", 60, "203.0.113.10", "203.0.113.11")
                .withAaaaRecord("app.example.com", 60, "2001:db8::10")
                .withLabel("k8gb.io/dnstype", "local")
                .withGracePeriod(300L)
                .withExplanation(
                    new Explanation("published", null, List.of("a"), null, null, null, null))
                .withProblem(problem)
                .build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyBuilderWithEverything")
  <V> void builtRecordsSurviveTheCodec(TopicSpec<V> topic, V value) {
    CairnSerde<V> serde = CairnSerde.of(topic);
    RecordHeaders headers = new RecordHeaders();

    V back =
        serde
            .deserializer()
            .deserialize(
                topic.name(), headers, serde.serializer().serialize(topic.name(), headers, value));

    assertThat(back).isEqualTo(value);
  }
}
