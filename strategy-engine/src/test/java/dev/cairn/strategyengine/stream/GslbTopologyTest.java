package dev.cairn.strategyengine.stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
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
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.strategyengine.gslb.GslbReport;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.gslb.HttpRouteTargets;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.placement.RouteCopies;
import dev.cairn.strategyengine.stream.EngineMetrics.Trigger;
import dev.cairn.strategyengine.stream.EngineTopology.StoreType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The streaming shell's Gslb behaviour: recomputing only the Gslbs an input change affects,
 * re-deciding on time through the deadline index, emitting decisions and statuses only on change,
 * the unsynced guard, tombstones and undecided Gslbs.
 */
class GslbTopologyTest {

  private static final Instant T0 = EngineDriver.START;
  private static final GslbSettings SETTINGS =
      GslbSettings.defaults("eu").withZones(List.of("cloud.example.com"));

  private EngineDriver driver;

  @BeforeEach
  void start() {
    driver = new EngineDriver(PlacementSettings.defaults(), SETTINGS, T0, StoreType.IN_MEMORY);
  }

  @AfterEach
  void stop() {
    driver.close();
  }

  // ------------------------------------------------------------------ recompute only what changed

  @Test
  void aPeerAnswerRecomputesOnlyTheGslbsOfItsHost() {
    healthyService("web");
    driver
        .synced()
        .gslb(gslb("a", "a.cloud.example.com", "roundRobin"))
        .gslb(gslb("b", "b.cloud.example.com", "roundRobin"))
        .gslb(gslb("c", "a.cloud.example.com", "geoip"));
    driver.read();
    driver.metrics.reset();

    driver.peerAnswer(answer("us", "a.cloud.example.com", ProbeStatus.OK, T0, "198.51.100.20"));

    assertThat(driver.metrics.recomputations(Trigger.PEER_ANSWER)).isEqualTo(2);
    assertThat(driver.metrics.recomputations()).isEqualTo(2);
    Map<String, TargetDecision> changed = driver.latest();
    assertThat(changed).containsOnlyKeys("Gslb/shop/a", "Gslb/shop/c");
    assertThat(changed.get("Gslb/shop/a").explanation().chosenTargets())
        .containsExactly("198.51.100.20", "203.0.113.10");
  }

  @Test
  void aServiceOrEndpointsChangeRecomputesTheGslbsBehindIt() {
    healthyService("web");
    driver.synced().gslb(gslb("a", "a.cloud.example.com", "roundRobin"));
    assertThat(driver.latest().get("Gslb/shop/a").disposition()).isEqualTo(Disposition.PUBLISH);
    driver.metrics.reset();

    driver.endpoints(
        new ServiceEndpoints(
            "shop",
            "web",
            List.of(new EndpointState(List.of("10.42.0.1"), "n1", null, false, null, null)),
            List.of()));
    assertThat(driver.metrics.recomputations(Trigger.ENDPOINTS)).isEqualTo(1);
    assertThat(driver.latest().get("Gslb/shop/a").disposition()).isEqualTo(Disposition.NO_TARGETS);
    assertThat(driver.latestStatuses().get("Gslb/shop/a").serviceHealth())
        .containsEntry("a.cloud.example.com", "Unhealthy");

    driver.deleteService("Service/shop/web");
    assertThat(driver.metrics.recomputations(Trigger.SERVICE)).isEqualTo(1);
    assertThat(driver.latestStatuses().get("Gslb/shop/a").serviceHealth())
        .containsEntry("a.cloud.example.com", "NotFound");
  }

  @Test
  void aNodeChangeReachesANodeAwareGslbThroughItsRoutesPlacement() {
    driver
        .synced()
        .node(EngineDriverFixtures.worker("worker-a1", "a", "10.0.10.1"))
        .node(EngineDriverFixtures.ingress("ingress-a1", "a", "203.0.113.21"))
        .service(EngineDriverFixtures.clusterIpService("shop", "web"))
        .endpoints(EngineDriverFixtures.endpoints("shop", "web", "worker-a1"))
        .route(EngineDriverFixtures.route("shop", "app", "web", List.of("app.cloud.example.com")))
        .gslb(nodeAware("app"));
    assertThat(driver.latest().get("Gslb/shop/app").explanation().chosenTargets())
        .containsExactly("203.0.113.21");
    driver.metrics.reset();

    driver.node(EngineDriverFixtures.ingress("ingress-a1", "a", "203.0.113.31"));

    assertThat(driver.metrics.recomputations(Trigger.NODE))
        .as("the route and the Gslb")
        .isEqualTo(2);
    assertThat(driver.latest().get("Gslb/shop/app").records())
        .allSatisfy(r -> assertThat(r.targets()).containsExactly("203.0.113.31"));
  }

  /**
   * What the placement left out of a node-aware Gslb's local targets (an address that is not a
   * literal) is in the Gslb's explanation and problems, as in the route's own decision; it was
   * dropped without a word.
   */
  @Test
  void aNodeAwareGslbNamesTheNodeAddressesItsPlacementSkipped() {
    NodeState badAddresses =
        new NodeState(
            "ingress-a2",
            "a",
            null,
            true,
            List.of(
                new NodeAddress("ExternalIP", "999.1.1.1"),
                new NodeAddress("ExternalIP", "2001:db8::zz")),
            Map.of(),
            List.of());
    driver
        .synced()
        .node(EngineDriverFixtures.worker("worker-a1", "a", "10.0.10.1"))
        .node(EngineDriverFixtures.ingress("ingress-a1", "a", "203.0.113.21"))
        .node(badAddresses)
        .service(EngineDriverFixtures.clusterIpService("shop", "web"))
        .endpoints(EngineDriverFixtures.endpoints("shop", "web", "worker-a1"))
        .route(EngineDriverFixtures.route("shop", "app", "web", List.of("app.cloud.example.com")))
        .gslb(nodeAware("app"));

    Map<String, TargetDecision> latest = driver.latest();
    TargetDecision route = latest.get("HTTPRoute/shop/app");
    TargetDecision gslb = latest.get("Gslb/shop/app");
    assertThat(gslb.explanation().chosenTargets()).containsExactly("203.0.113.21");
    assertThat(route.explanation().skipped()).isNotEmpty();
    assertThat(gslb.explanation().skipped())
        .as("the route's placement's skipped inputs")
        .containsAll(route.explanation().skipped());
    assertThat(gslb.explanation().skipped().toString()).contains("ingress-a2");
    assertThat(gslb.problems())
        .as("the node's problems, as in the route's decision")
        .containsAll(route.problems());
    assertThat(gslb.problems().toString()).contains("999.1.1.1");
  }

  @Test
  void aRouteChangeRecomputesTheGslbThatReferencesIt() {
    driver
        .synced()
        .node(EngineDriverFixtures.worker("worker-a1", "a", "10.0.10.1"))
        .node(EngineDriverFixtures.ingress("ingress-a1", "a", "203.0.113.21"))
        .service(EngineDriverFixtures.clusterIpService("shop", "web"))
        .endpoints(EngineDriverFixtures.endpoints("shop", "web", "worker-a1"))
        .gslb(nodeAware("app"));
    assertThat(driver.latest().get("Gslb/shop/app").disposition())
        .isEqualTo(Disposition.NO_TARGETS);

    driver.route(
        EngineDriverFixtures.route("shop", "app", "web", List.of("app.cloud.example.com")));

    assertThat(driver.metrics.recomputations(Trigger.ROUTE)).isEqualTo(2);
    assertThat(driver.latest().get("Gslb/shop/app").disposition()).isEqualTo(Disposition.PUBLISH);
  }

  @Test
  void relabellingIngressesMovesALabelSelectorsChoiceAndOnlyItsNamespaceCounts() {
    healthyService("web");
    driver
        .synced()
        .route(labelledIngress("shop", "blue", Map.of("app", "web"), "203.0.113.1"))
        .route(labelledIngress("shop", "green", Map.of("app", "web-next"), "203.0.113.2"))
        .gslb(selecting(Map.of("app", "web")));
    assertThat(driver.latest().get("Gslb/shop/sel").explanation().chosenTargets())
        .containsExactly("203.0.113.1");
    driver.metrics.reset();

    // An Ingress of another namespace with the labels is no candidate and recomputes nothing.
    driver.route(labelledIngress("other", "blue", Map.of("app", "web"), "203.0.113.9"));
    assertThat(driver.metrics.recomputations()).isZero();

    // Both match: k8gb's exactly-one rule refuses, and the records stay as they were.
    driver.route(labelledIngress("shop", "green", Map.of("app", "web"), "203.0.113.2"));
    assertThat(driver.metrics.recomputations(Trigger.ROUTE)).isEqualTo(1);
    assertThat(driver.latestStatuses().get("Gslb/shop/sel").problems())
        .singleElement()
        .asString()
        .contains("selects 2 Ingress objects in namespace shop (blue, green)");
    assertThat(driver.latest()).as("no decision emitted").doesNotContainKey("Gslb/shop/sel");
    assertThat(driver.storedDecision("Gslb/shop/sel").explanation().chosenTargets())
        .containsExactly("203.0.113.1");

    // The old one loses the label: the new one is selected.
    driver.route(labelledIngress("shop", "blue", Map.of("app", "web-old"), "203.0.113.1"));
    assertThat(driver.latest().get("Gslb/shop/sel").explanation().chosenTargets())
        .containsExactly("203.0.113.2");
    assertThat(driver.latestStatuses().get("Gslb/shop/sel").problems()).isEmpty();

    // The selected one is deleted: nothing is selected, so no host is left.
    driver.deleteRoute("Ingress/shop/green");
    assertThat(driver.latest().get("Gslb/shop/sel").disposition())
        .isEqualTo(Disposition.NO_TARGETS);
  }

  @Test
  void aGatewaysNewAddressReachesTheGslbsOfItsRoutesInGatewayMode() {
    driver.close();
    driver =
        new EngineDriver(
            PlacementSettings.defaults(),
            SETTINGS.withHttpRouteTargets(HttpRouteTargets.GATEWAY),
            T0,
            StoreType.IN_MEMORY);
    healthyService("web");
    RouteState route =
        EngineDriverFixtures.route("shop", "app", "web", List.of("app.cloud.example.com"));
    driver
        .synced()
        .route(
            RouteCopies.withParentRefs(
                route, List.of(new RouteState.ParentRef(null, null, "edge", "public", null))))
        .route(gateway("203.0.113.50"))
        .gslb(nodeAware("app"));
    assertThat(driver.latest().get("Gslb/shop/app").explanation().chosenTargets())
        .containsExactly("203.0.113.50");
    driver.metrics.reset();

    driver.route(gateway("203.0.113.60"));

    assertThat(driver.metrics.recomputations(Trigger.ROUTE)).isEqualTo(1);
    assertThat(driver.latest().get("Gslb/shop/app").explanation().chosenTargets())
        .containsExactly("203.0.113.60");
  }

  @Test
  void aVirtualServiceChangeRecomputesItsGslbOnlyAndAnInvalidOneKeepsTheRecords() {
    healthyService("web");
    driver.synced().gslb(onVirtualService("app"));
    assertThat(driver.latest().get("Gslb/shop/app").disposition())
        .as("the VirtualService is not published yet")
        .isEqualTo(Disposition.NO_TARGETS);
    driver.metrics.reset();

    driver.route(virtualService(1, List.of("203.0.113.70"), List.of()));

    assertThat(driver.metrics.recomputations(Trigger.ROUTE))
        .as("the Gslb only: a VirtualService is not placed")
        .isEqualTo(1);
    Map<String, TargetDecision> decided = driver.latest();
    assertThat(decided).containsOnlyKeys("Gslb/shop/app");
    TargetDecision published = decided.get("Gslb/shop/app");
    assertThat(published.explanation().chosenTargets()).containsExactly("203.0.113.70");
    assertThat(driver.storedDecision("VirtualService/shop/app"))
        .as("no direct-dns record of its own")
        .isNull();

    // The watcher publishes the Service's new load-balancer address on the VirtualService.
    driver.route(virtualService(1, List.of("203.0.113.71"), List.of()));
    assertThat(driver.latest().get("Gslb/shop/app").explanation().chosenTargets())
        .containsExactly("203.0.113.71");
    published = driver.storedDecision("Gslb/shop/app");

    // Bound to a second Istio Gateway: refused, the records stay, the status says why.
    driver.route(virtualService(2, List.of(), List.of()));
    assertThat(driver.read()).isEmpty();
    assertThat(driver.storedDecision("Gslb/shop/app")).isEqualTo(published);
    assertThat(driver.latestStatuses().get("Gslb/shop/app").problems())
        .singleElement()
        .asString()
        .startsWith("VirtualService/shop/app spec.gateways='2'");

    // Its Gateway's selector selects two Services: refused too.
    driver.route(
        virtualService(
            1,
            List.of(),
            List.of(
                new Problem(
                    "IstioGateway istio-system/public spec.selector",
                    "istio=ingressgateway",
                    "selects 2 Services"))));
    assertThat(driver.read()).isEmpty();
    assertThat(driver.storedDecision("Gslb/shop/app")).isEqualTo(published);
    assertThat(driver.latestStatuses().get("Gslb/shop/app").problems())
        .singleElement()
        .asString()
        .startsWith("IstioGateway istio-system/public spec.selector='istio=ingressgateway'");

    driver.deleteRoute("VirtualService/shop/app");
    assertThat(driver.latest().get("Gslb/shop/app").disposition())
        .isEqualTo(Disposition.NO_TARGETS);
  }

  private static RouteState virtualService(
      int gateways, List<String> loadBalancerIps, List<Problem> problems) {
    List<RouteState.ParentRef> parents =
        IntStream.range(0, gateways)
            .mapToObj(
                i ->
                    new RouteState.ParentRef(
                        "networking.istio.io",
                        "Gateway",
                        "istio-system",
                        i == 0 ? "public" : "public-" + i,
                        null))
            .toList();
    return new RouteState(
        "VirtualService",
        "networking.istio.io/v1",
        "shop",
        "app",
        "uid-vs-app",
        List.of("app.cloud.example.com"),
        List.of(BackendRef.service("web")),
        loadBalancerIps,
        List.of(),
        Map.of(),
        problems,
        null,
        Map.of(),
        parents);
  }

  private static GslbState onVirtualService(String name) {
    return new GslbState(
        "shop",
        name,
        "uid-" + name,
        new GslbResourceRef("networking.istio.io/v1", "VirtualService", null, name, null, null),
        List.of(),
        new GslbStrategy("roundRobin", null, null, Map.of(), null),
        null,
        Map.of(),
        List.of());
  }

  private static RouteState gateway(String address) {
    return new RouteState(
        "Gateway",
        "gateway.networking.k8s.io/v1",
        "edge",
        "public",
        "uid-gw",
        List.of(),
        List.of(),
        List.of(address),
        List.of(),
        Map.of(),
        List.of(),
        null);
  }

  @Test
  void relabellingServicesMovesAServiceSelectorsChoice() {
    driver
        .synced()
        .service(EngineDriverFixtures.clusterIpService("shop", "web"))
        .endpoints(EngineDriverFixtures.endpoints("shop", "web", "n1"));
    driver.gslb(
        new GslbState(
            "shop",
            "svc",
            "uid-svc",
            new GslbResourceRef("v1", "Service", null, null, Map.of("edge", "true"), null),
            List.of(),
            new GslbStrategy("roundRobin", null, null, Map.of(), null),
            null,
            Map.of(
                "k8gb.io/hostname", "svc.cloud.example.com",
                "k8gb.io/exposed-ip-addresses", "203.0.113.10"),
            List.of()));
    assertThat(driver.latest().get("Gslb/shop/svc").disposition())
        .isEqualTo(Disposition.NO_TARGETS);
    driver.metrics.reset();

    ServiceState web = EngineDriverFixtures.clusterIpService("shop", "web");
    driver.service(
        new ServiceState(
            web.namespace(),
            web.name(),
            web.uid(),
            web.type(),
            web.loadBalancerIps(),
            web.loadBalancerHostnames(),
            web.ports(),
            web.annotations(),
            web.problems(),
            Map.of("edge", "true")));

    assertThat(driver.metrics.recomputations(Trigger.SERVICE)).isEqualTo(1);
    assertThat(driver.latest().get("Gslb/shop/svc").disposition()).isEqualTo(Disposition.PUBLISH);
    assertThat(driver.latestStatuses().get("Gslb/shop/svc").serviceHealth())
        .containsEntry("svc.cloud.example.com", "Healthy");
  }

  // ------------------------------------------------------------------ time

  @Test
  void theSplitBrainPunctuatorReDecidesOnlyTheGslbsThatAreDue() {
    healthyService("web");
    driver
        .synced()
        .gslb(gslb("a", "a.cloud.example.com", "roundRobin"))
        .gslb(gslb("b", "b.cloud.example.com", "roundRobin"))
        .peerAnswer(
            answer(
                "us",
                "a.cloud.example.com",
                ProbeStatus.TIMEOUT,
                T0.minusSeconds(10),
                "198.51.100.20"))
        .peerAnswer(answer("us", "b.cloud.example.com", ProbeStatus.OK, T0, "198.51.100.21"));
    assertThat(driver.latest().get("Gslb/shop/a").explanation().chosenTargets())
        .contains("198.51.100.20");
    assertThat(driver.store(EngineTopology.DEADLINES_STORE).approximateNumEntries()).isEqualTo(1);
    driver.metrics.reset();

    driver.advanceWallClock(Duration.ofSeconds(289));
    assertThat(driver.metrics.recomputations()).isZero();
    assertThat(driver.read()).isEmpty();

    driver.advanceWallClock(Duration.ofSeconds(1));

    assertThat(driver.metrics.recomputations(Trigger.SPLIT_BRAIN_EXPIRY)).isEqualTo(1);
    assertThat(driver.metrics.recomputations()).isEqualTo(1);
    Map<String, TargetDecision> changed = driver.latest();
    assertThat(changed).containsOnlyKeys("Gslb/shop/a");
    assertThat(changed.get("Gslb/shop/a").explanation().chosenTargets())
        .containsExactly("203.0.113.10");
    assertThat(driver.store(EngineTopology.DEADLINES_STORE).approximateNumEntries()).isZero();

    driver.advanceWallClock(Duration.ofMinutes(10));
    assertThat(driver.metrics.recomputations()).isEqualTo(1);
  }

  @Test
  void theDeadlineIndexWorksOnRocksDbStores() {
    driver.close();
    driver = new EngineDriver(PlacementSettings.defaults(), SETTINGS, T0, StoreType.ROCKSDB);
    theSplitBrainPunctuatorReDecidesOnlyTheGslbsThatAreDue();
  }

  @Test
  void aPeerThatAnswersAgainBeforeTheDeadlineMovesTheDeadlineAway() {
    healthyService("web");
    driver
        .synced()
        .gslb(gslb("a", "a.cloud.example.com", "roundRobin"))
        .peerAnswer(
            answer(
                "us",
                "a.cloud.example.com",
                ProbeStatus.TIMEOUT,
                T0.minusSeconds(10),
                "198.51.100.20"));
    driver.advanceWallClock(Duration.ofSeconds(100));
    driver.peerAnswer(
        answer("us", "a.cloud.example.com", ProbeStatus.OK, T0.plusSeconds(100), "198.51.100.20"));
    assertThat(driver.store(EngineTopology.DEADLINES_STORE).approximateNumEntries()).isZero();
    driver.read();
    driver.metrics.reset();

    driver.advanceWallClock(Duration.ofSeconds(300));

    assertThat(driver.metrics.recomputations()).isZero();
    assertThat(driver.read()).isEmpty();
  }

  // ------------------------------------------------------------------ emission

  @Test
  void emitsDecisionsAndStatusesOnlyWhenTheyChange() {
    healthyService("web");
    driver.synced().gslb(gslb("a", "a.cloud.example.com", "roundRobin"));
    assertThat(driver.read()).hasSize(1);
    assertThat(driver.readStatuses()).hasSize(1);

    driver.peerAnswer(answer("us", "a.cloud.example.com", ProbeStatus.NXDOMAIN, T0));
    List<KeyValue<String, TargetDecision>> explained = driver.read();
    assertThat(explained)
        .as("the records stay; the explanation now names the peer")
        .singleElement()
        .satisfies(kv -> assertThat(kv.value.explanation().skipped()).hasSize(1));
    assertThat(driver.readStatuses()).as("the status holds nothing about peers").isEmpty();

    driver.gslb(gslb("a", "a.cloud.example.com", "roundRobin"));
    driver.peerAnswer(answer("us", "a.cloud.example.com", ProbeStatus.NXDOMAIN, T0.plusSeconds(5)));
    driver.endpoints(EngineDriverFixtures.endpoints("shop", "web", "n1"));

    assertThat(driver.read()).isEmpty();
    assertThat(driver.readStatuses()).isEmpty();
    assertThat(driver.metrics.emissions("PUBLISH")).isEqualTo(2);
    assertThat(driver.metrics.statuses("UPDATE")).isEqualTo(1);
    GslbReport report = driver.storedReport("Gslb/shop/a");
    assertThat(report.hosts().get(0).peers())
        .singleElement()
        .satisfies(p -> assertThat(p.lastSuccess()).isEqualTo(T0.plusSeconds(5)));
  }

  @Test
  void aDeletedGslbGetsTombstonesOnBothTopicsAndLeavesNoIndexBehind() {
    healthyService("web");
    driver
        .synced()
        .gslb(gslb("a", "a.cloud.example.com", "roundRobin"))
        .peerAnswer(answer("us", "a.cloud.example.com", ProbeStatus.TIMEOUT, T0, "198.51.100.20"));
    driver.read();
    driver.readStatuses();

    driver.deleteGslb("Gslb/shop/a");

    assertThat(driver.read()).containsExactly(KeyValue.pair("Gslb/shop/a", null));
    assertThat(driver.readStatuses()).containsExactly(KeyValue.pair("Gslb/shop/a", null));
    assertThat(driver.storedReport("Gslb/shop/a")).isNull();
    assertThat(driver.store(EngineTopology.DEADLINES_STORE).approximateNumEntries()).isZero();
    driver.metrics.reset();
    driver.peerAnswer(answer("us", "a.cloud.example.com", ProbeStatus.OK, T0, "198.51.100.21"));
    driver.endpoints(EngineDriverFixtures.endpoints("shop", "web", "n2"));
    assertThat(driver.metrics.recomputations()).isZero();
  }

  // ------------------------------------------------------------------ unsynced guard

  @Test
  void anUnsyncedEngineHoldsGslbDeletionsButPublishes() {
    healthyService("web");
    driver.gslb(gslb("up", "up.cloud.example.com", "roundRobin"));
    driver.gslb(gslb("down", "down.cloud.example.com", "roundRobin", "missing"));

    assertThat(driver.latest()).containsOnlyKeys("Gslb/shop/up");
    assertThat(driver.latestStatuses()).containsOnlyKeys("Gslb/shop/up");
    assertThat(driver.metrics.holds("NO_TARGETS")).isEqualTo(1);

    driver.synced();

    assertThat(driver.latest()).containsOnlyKeys("Gslb/shop/down");
    assertThat(driver.latestStatuses()).containsOnlyKeys("Gslb/shop/down");

    driver.marker(new SyncMarker("g2", SyncMarker.Phase.SYNCING, T0, Map.of()));
    driver.deleteGslb("Gslb/shop/up");
    assertThat(driver.read()).isEmpty();
    assertThat(driver.readStatuses()).isEmpty();
    assertThat(driver.metrics.holds("TOMBSTONE")).isEqualTo(1);

    driver.marker(new SyncMarker("g2", SyncMarker.Phase.SYNCED, T0, Map.of()));
    assertThat(driver.read()).containsExactly(KeyValue.pair("Gslb/shop/up", null));
    assertThat(driver.readStatuses()).containsExactly(KeyValue.pair("Gslb/shop/up", null));
  }

  // ------------------------------------------------------------------ undecided Gslbs

  @Test
  void anInvalidGslbKeepsItsRecordsAndReportsItsProblemsInTheStatus() {
    healthyService("web");
    driver.synced().gslb(gslb("a", "a.cloud.example.com", "roundRobin"));
    TargetDecision published = driver.latest().get("Gslb/shop/a");
    GslbStatus before = driver.latestStatuses().get("Gslb/shop/a");

    driver.gslb(gslb("a", "a.cloud.example.com", "RoundRobin"));

    assertThat(driver.read()).isEmpty();
    assertThat(driver.storedDecision("Gslb/shop/a")).isEqualTo(published);
    GslbStatus status = driver.latestStatuses().get("Gslb/shop/a");
    assertThat(status.problems())
        .singleElement()
        .asString()
        .startsWith("spec.strategy.type='RoundRobin'");
    assertThat(status.serviceHealth()).isEqualTo(before.serviceHealth());
    assertThat(status.healthyRecords()).isEqualTo(before.healthyRecords());
    assertThat(driver.metrics.undecided()).isEqualTo(1);

    driver.gslb(gslb("a", "a.cloud.example.com", "roundRobin"));
    assertThat(driver.read()).isEmpty();
    assertThat(driver.latestStatuses().get("Gslb/shop/a")).isEqualTo(before);
  }

  @Test
  void aDeletedUndecidedGslbGetsAStatusTombstoneOnly() {
    driver.synced().gslb(gslb("a", "a.example.org", "roundRobin"));
    assertThat(driver.read()).isEmpty();
    assertThat(driver.latestStatuses()).containsKey("Gslb/shop/a");

    driver.deleteGslb("Gslb/shop/a");

    assertThat(driver.read()).isEmpty();
    assertThat(driver.readStatuses()).containsExactly(KeyValue.pair("Gslb/shop/a", null));
  }

  // ------------------------------------------------------------------ bad input

  @Test
  void peerAnswersWithAKeyThatDoesNotMatchAreSkipped() {
    healthyService("web");
    driver.synced().gslb(gslb("a", "a.cloud.example.com", "roundRobin"));
    driver.read();
    byte[] value =
        new CairnSerializer<PeerAnswer>()
            .serialize(
                "t", answer("us", "a.cloud.example.com", ProbeStatus.OK, T0, "198.51.100.20"));

    driver.raw(Topics.PEER_ANSWERS).pipeInput("PeerAnswer/ap/a.cloud.example.com", value);
    driver.raw(Topics.PEER_ANSWERS).pipeInput("PeerAnswer/a.cloud.example.com", null);

    assertThat(driver.metrics.malformedRecords(Topics.PEER_ANSWERS.name())).isEqualTo(2);
    assertThat(driver.read()).isEmpty();
  }

  /**
   * {@code TopologyTestDriver} runs the global store's task with its own {@code
   * LogAndContinueExceptionHandler}, not the configured one, so the count of a malformed answer is
   * checked on a broker ({@code StrategyEngineApplicationIT}); here: it is skipped and the engine
   * goes on.
   */
  @Test
  void aPeerAnswerThatIsNoJsonIsSkippedAndTheNextAnswerIsDecided() {
    healthyService("web");
    driver.synced().gslb(gslb("a", "a.cloud.example.com", "roundRobin"));
    driver.read();

    driver
        .raw(Topics.PEER_ANSWERS)
        .pipeInput("PeerAnswer/us/a.cloud.example.com", "{not json".getBytes(UTF_8));
    driver.peerAnswer(answer("us", "a.cloud.example.com", ProbeStatus.OK, T0, "198.51.100.20"));

    assertThat(driver.latest().get("Gslb/shop/a").explanation().chosenTargets())
        .contains("198.51.100.20");
  }

  @Test
  void aGslbWhoseKeyDoesNotMatchIsSkipped() {
    byte[] value =
        new CairnSerializer<GslbState>().serialize("t", gslb("a", "a.cloud.example.com", "geoip"));

    driver.synced().raw(Topics.GSLBS).pipeInput("Gslb/shop/other", value);

    assertThat(driver.metrics.malformedRecords(Topics.GSLBS.name())).isEqualTo(1);
    assertThat(driver.read()).isEmpty();
  }

  @Test
  void anEmbeddedGslbFollowsTheLoadBalancerStatusOfTheIngressNamedLikeIt() {
    healthyService("web");
    GslbState embedded = gslb("app", "app.cloud.example.com", "roundRobin");
    driver
        .synced()
        .gslb(
            new GslbState(
                embedded.namespace(),
                embedded.name(),
                embedded.uid(),
                null,
                embedded.ingressRules(),
                embedded.strategy(),
                null,
                Map.of(),
                List.of()));
    assertThat(driver.latest().get("Gslb/shop/app").disposition())
        .isEqualTo(Disposition.NO_TARGETS);
    driver.metrics.reset();

    // The record-writer has created the Ingress; the ingress controller then fills its status.
    driver.route(ingress("app", List.of()));
    driver.route(ingress("app", List.of("203.0.113.40", "2001:db8::40")));
    assertThat(driver.metrics.recomputations(Trigger.ROUTE)).isEqualTo(2);
    assertThat(driver.latest().get("Gslb/shop/app").explanation().chosenTargets())
        .containsExactlyInAnyOrder("203.0.113.40", "2001:db8::40");
    assertThat(driver.latestStatuses().get("Gslb/shop/app").exposedIps())
        .containsExactly("203.0.113.40", "2001:db8::40");

    // An Ingress of another name is not read.
    driver.metrics.reset();
    driver.route(ingress("other", List.of("203.0.113.41")));
    assertThat(driver.metrics.recomputations()).isZero();

    driver.deleteRoute("Ingress/shop/app");
    assertThat(driver.latest().get("Gslb/shop/app").disposition())
        .isEqualTo(Disposition.NO_TARGETS);
  }

  // ------------------------------------------------------------------ fixtures

  private static RouteState ingress(String name, List<String> loadBalancerIps) {
    return new RouteState(
        "Ingress",
        "networking.k8s.io/v1",
        "shop",
        name,
        "uid-ingress-" + name,
        List.of("app.cloud.example.com"),
        List.of(BackendRef.service("web")),
        loadBalancerIps,
        List.of(),
        Map.of(),
        List.of(),
        new RouteState.Controller("k8gb.io/v1beta1", "Gslb", name, "uid-" + name));
  }

  private static RouteState labelledIngress(
      String namespace, String name, Map<String, String> labels, String loadBalancerIp) {
    return new RouteState(
        "Ingress",
        "networking.k8s.io/v1",
        namespace,
        name,
        "uid-ingress-" + name,
        List.of("sel.cloud.example.com"),
        List.of(BackendRef.service("web")),
        List.of(loadBalancerIp),
        List.of(),
        Map.of(),
        List.of(),
        null,
        labels);
  }

  private static GslbState selecting(Map<String, String> matchLabels) {
    return new GslbState(
        "shop",
        "sel",
        "uid-sel",
        new GslbResourceRef("networking.k8s.io/v1", "Ingress", null, null, matchLabels, null),
        List.of(),
        new GslbStrategy("roundRobin", null, null, Map.of(), null),
        null,
        Map.of(),
        List.of());
  }

  private void healthyService(String name) {
    driver.service(EngineDriverFixtures.clusterIpService("shop", name));
    driver.endpoints(EngineDriverFixtures.endpoints("shop", name, "n1"));
  }

  private static GslbState gslb(String name, String host, String type) {
    return gslb(name, host, type, "web");
  }

  private static GslbState gslb(String name, String host, String type, String service) {
    return new GslbState(
        "shop",
        name,
        "uid-" + name,
        null,
        List.of(new GslbState.IngressRule(host, List.of(BackendRef.service(service)))),
        new GslbStrategy(type, null, null, Map.of(), null),
        null,
        Map.of("k8gb.io/exposed-ip-addresses", "203.0.113.10"),
        List.of());
  }

  private static GslbState nodeAware(String route) {
    return new GslbState(
        "shop",
        route,
        "uid-" + route,
        new GslbResourceRef("gateway.networking.k8s.io/v1", "HTTPRoute", null, route, null, null),
        List.of(),
        new GslbStrategy("roundRobin", null, null, Map.of(), null),
        null,
        Map.of(),
        List.of());
  }

  private static PeerAnswer answer(
      String tag, String host, ProbeStatus status, Instant lastSuccess, String... ipv4) {
    return new PeerAnswer(
        host,
        tag,
        "192.0.2.53:53",
        status,
        List.of(ipv4),
        List.of(),
        30L,
        lastSuccess,
        status.reachable() ? null : lastSuccess.plusSeconds(5),
        status.reachable() ? lastSuccess : lastSuccess.plusSeconds(5));
  }
}
