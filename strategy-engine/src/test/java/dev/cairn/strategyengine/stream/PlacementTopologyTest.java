package dev.cairn.strategyengine.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.codec.SchemaVersion;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.placement.RouteCopies;
import dev.cairn.strategyengine.stream.EngineMetrics.Trigger;
import dev.cairn.strategyengine.stream.EngineTopology.StoreType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The streaming shell's own behaviour: incremental recomputation, emission, tombstones, sync. */
class PlacementTopologyTest {

  private EngineDriver driver;

  @BeforeEach
  void start() {
    driver =
        new EngineDriver(PlacementSettings.defaults(), EngineDriver.START, StoreType.IN_MEMORY);
  }

  @AfterEach
  void stop() {
    driver.close();
  }

  // ------------------------------------------------------------------ recompute only what changed

  @Test
  void anEndpointsChangeRecomputesOnlyTheRoutesReferencingThatService() {
    twoZones();
    driver
        .synced()
        .endpoints(endpoints("shop", "web", "worker-a1"))
        .endpoints(endpoints("shop", "api", "worker-a1"))
        .route(route("shop", "r1", "web"))
        .route(route("shop", "r2", "api"))
        .route(route("shop", "r3", "web"));
    driver.read();
    driver.metrics.reset();

    driver.endpoints(endpoints("shop", "web", "worker-b1"));

    assertThat(driver.metrics.recomputations(Trigger.ENDPOINTS)).isEqualTo(2);
    assertThat(driver.metrics.recomputations()).isEqualTo(2);
    Map<String, TargetDecision> changed = driver.latest();
    assertThat(changed).containsOnlyKeys("HTTPRoute/shop/r1", "HTTPRoute/shop/r3");
    assertThat(changed.get("HTTPRoute/shop/r1").records().get(0).targets())
        .containsExactly("10.0.2.1");
  }

  @Test
  void theIndexWorksOnRocksDbStores() {
    driver.close();
    driver = new EngineDriver(PlacementSettings.defaults(), EngineDriver.START, StoreType.ROCKSDB);
    anEndpointsChangeRecomputesOnlyTheRoutesReferencingThatService();
    driver.metrics.reset();

    driver.node(ingress("ingress-b1", "b", "10.0.2.99"));

    assertThat(driver.metrics.recomputations(Trigger.NODE)).isEqualTo(2);
    assertThat(driver.latest()).containsOnlyKeys("HTTPRoute/shop/r1", "HTTPRoute/shop/r3");
  }

  @Test
  void aNodeChangeRecomputesOnlyTheRoutesOfItsZone() {
    twoZones();
    driver
        .synced()
        .endpoints(endpoints("shop", "web", "worker-a1"))
        .endpoints(endpoints("shop", "api", "worker-b1"))
        .route(route("shop", "in-a", "web"))
        .route(route("shop", "in-b", "api"));
    driver.read();
    driver.metrics.reset();

    driver.node(ingress("ingress-b1", "b", "10.0.2.99"));

    assertThat(driver.metrics.recomputations(Trigger.NODE)).isEqualTo(1);
    assertThat(driver.latest()).containsOnlyKeys("HTTPRoute/shop/in-b");
  }

  @Test
  void aNodeThatNoRouteDependsOnRecomputesNothing() {
    twoZones();
    driver
        .synced()
        .endpoints(endpoints("shop", "web", "worker-a1"))
        .route(route("shop", "in-a", "web"));
    driver.read();
    driver.metrics.reset();

    driver.node(worker("worker-c9", "c", "10.0.90.9"));
    driver.node(ingress("ingress-c1", "c", "10.0.3.1"));
    driver.deleteNode("worker-c9");

    assertThat(driver.metrics.recomputations()).isZero();
    assertThat(driver.read()).isEmpty();
  }

  @Test
  void aNodeChangeThatCannotAffectPlacementRecomputesNothing() {
    twoZones();
    driver
        .synced()
        .endpoints(endpoints("shop", "web", "worker-a1"))
        .route(route("shop", "r", "web"));
    driver.read();
    driver.metrics.reset();

    NodeState ingress = ingress("ingress-a1", "a", "10.0.1.1");
    driver.node(
        new NodeState(
            ingress.name(),
            ingress.zone(),
            "eu-west",
            true,
            ingress.addresses(),
            ingress.annotations(),
            List.of()));

    assertThat(driver.metrics.recomputations()).isZero();
  }

  @Test
  void aBackendNodeChangingZoneMovesTheRoute() {
    twoZones();
    driver
        .synced()
        .endpoints(endpoints("shop", "web", "worker-a1"))
        .route(route("shop", "r", "web"));
    driver.read();
    driver.metrics.reset();

    driver.node(worker("worker-a1", "b", "10.0.10.1"));

    assertThat(driver.metrics.recomputations(Trigger.NODE)).isEqualTo(1);
    assertThat(driver.latest().get("HTTPRoute/shop/r").records().get(0).targets())
        .containsExactly("10.0.2.1");
  }

  @Test
  void anyIngressChangeRecomputesRoutesThatUsedTheFallback() {
    driver
        .node(worker("worker-a1", "a", "10.0.10.1"))
        .node(ingress("ingress-b1", "b", "10.0.2.1"))
        .synced()
        .endpoints(endpoints("shop", "web", "worker-a1"))
        .endpoints(endpoints("shop", "api", "worker-b1"))
        .node(worker("worker-b1", "b", "10.0.20.1"))
        .route(route("shop", "fallback", "web"))
        .route(route("shop", "zone-b", "api"));
    assertThat(driver.latest().get("HTTPRoute/shop/fallback").explanation().fallbacks()).hasSize(1);
    driver.metrics.reset();

    driver.node(ingress("ingress-c1", "c", "10.0.3.1"));

    assertThat(driver.metrics.recomputations(Trigger.NODE)).isEqualTo(1);
    assertThat(driver.latest().get("HTTPRoute/shop/fallback").records().get(0).targets())
        .containsExactly("10.0.2.1", "10.0.3.1");

    driver.node(ingress("ingress-a1", "a", "10.0.1.1"));

    TargetDecision zoned = driver.latest().get("HTTPRoute/shop/fallback");
    assertThat(zoned.records().get(0).targets()).containsExactly("10.0.1.1");
    assertThat(zoned.explanation().fallbacks()).isEmpty();
  }

  @Test
  void aPinnedNodeChangeRecomputesThePinnedRoute() {
    driver.synced().endpoints(endpoints("shop", "web", "worker-a1"));
    driver.route(
        RouteCopies.withAnnotations(
            route("shop", "pinned", "web"),
            Map.of("directdns.meisterlala.dev/target-nodes", "edge")));
    assertThat(driver.latest().get("HTTPRoute/shop/pinned").disposition())
        .isEqualTo(Disposition.NO_TARGETS);

    driver.node(worker("edge", null, "203.0.113.8"));

    assertThat(driver.latest().get("HTTPRoute/shop/pinned").records().get(0).targets())
        .containsExactly("203.0.113.8");
  }

  @Test
  void aResolutionChangeRecomputesOnlyRoutesUsingIt() {
    driver
        .node(worker("worker-a1", "a", "10.0.10.1"))
        .node(
            new NodeState(
                "ingress-a1",
                "a",
                null,
                true,
                List.of(),
                Map.of("k3s.io/external-dns", "edge-a.example.net"),
                List.of()))
        .synced()
        .endpoints(endpoints("shop", "web", "worker-a1"))
        .route(
            RouteCopies.withAnnotations(
                route("shop", "resolving", "web"),
                Map.of("directdns.meisterlala.dev/resolve-target-hostnames", "true")))
        .route(route("shop", "plain", "web"));
    assertThat(driver.latest().get("HTTPRoute/shop/resolving").records().get(0).recordType())
        .isEqualTo("CNAME");
    driver.metrics.reset();

    driver.resolution(resolution("edge-a.example.net", ProbeStatus.OK, false, "198.51.100.7"));

    assertThat(driver.metrics.recomputations(Trigger.RESOLUTION)).isEqualTo(1);
    Map<String, TargetDecision> changed = driver.latest();
    assertThat(changed).containsOnlyKeys("HTTPRoute/shop/resolving");
    assertThat(changed.get("HTTPRoute/shop/resolving").records().get(0).targets())
        .containsExactly("198.51.100.7");
  }

  @Test
  void aStaleResolutionStopsBeingUsedOnceItIsTooOld() {
    driver
        .node(worker("worker-a1", "a", "10.0.10.1"))
        .node(
            new NodeState(
                "ingress-a1",
                "a",
                null,
                true,
                List.of(),
                Map.of("k3s.io/external-dns", "edge-a.example.net"),
                List.of()))
        .synced()
        .endpoints(endpoints("shop", "web", "worker-a1"))
        .resolution(resolution("edge-a.example.net", ProbeStatus.TIMEOUT, true, "198.51.100.7"))
        .route(
            RouteCopies.withAnnotations(
                route("shop", "resolving", "web"),
                Map.of("directdns.meisterlala.dev/resolve-target-hostnames", "true")));
    assertThat(driver.latest().get("HTTPRoute/shop/resolving").records().get(0).targets())
        .containsExactly("198.51.100.7");

    driver.advanceWallClock(Duration.ofHours(23));
    assertThat(driver.read()).isEmpty();
    driver.advanceWallClock(Duration.ofHours(2));

    assertThat(driver.metrics.recomputations(Trigger.RESOLUTION_EXPIRY)).isEqualTo(1);
    assertThat(driver.latest().get("HTTPRoute/shop/resolving").records().get(0).targets())
        .containsExactly("edge-a.example.net");
  }

  // ------------------------------------------------------------------ emission

  @Test
  void emitsOnlyWhenTheDesiredStateChanges() {
    twoZones();
    driver.synced().endpoints(endpoints("shop", "web", "worker-a1"));
    RouteState route = route("shop", "r", "web");
    driver.route(route);
    assertThat(driver.read()).hasSize(1);

    driver.route(route);
    driver.endpoints(endpoints("shop", "web", "worker-a1"));
    driver.node(ingress("ingress-a1", "a", "10.0.1.1"));

    assertThat(driver.read()).isEmpty();
    assertThat(driver.metrics.emissions("PUBLISH")).isEqualTo(1);
  }

  @Test
  void aDeletedRouteGetsATombstone() {
    twoZones();
    driver
        .synced()
        .endpoints(endpoints("shop", "web", "worker-a1"))
        .route(route("shop", "r", "web"));
    driver.read();

    driver.deleteRoute("HTTPRoute/shop/r");

    List<KeyValue<String, TargetDecision>> out = driver.read();
    assertThat(out).containsExactly(KeyValue.pair("HTTPRoute/shop/r", null));
    assertThat(driver.storedDecision("HTTPRoute/shop/r")).isNull();
    assertThat(driver.metrics.emissions("TOMBSTONE")).isEqualTo(1);

    driver.endpoints(endpoints("shop", "web", "worker-b1"));
    assertThat(driver.read()).as("a deleted route leaves no index behind").isEmpty();
    assertThat(driver.metrics.recomputations(Trigger.ENDPOINTS)).isZero();
  }

  @Test
  void deletingAnUnknownRouteEmitsNothing() {
    driver.synced().deleteRoute("HTTPRoute/shop/never");

    assertThat(driver.read()).isEmpty();
  }

  @Test
  void routesOfOtherKindsAreLeftAlone() {
    twoZones();
    driver.synced().endpoints(endpoints("shop", "web", "worker-a1"));
    RouteState http = route("shop", "r", "web");
    RouteState ingress =
        new RouteState(
            "Ingress",
            "networking.k8s.io/v1",
            "shop",
            "r",
            "uid",
            http.hostnames(),
            http.backends(),
            Map.of(),
            List.of());

    driver.route(ingress);

    assertThat(driver.read()).isEmpty();
  }

  // ------------------------------------------------------------------ unsynced guard

  @Test
  void anUnsyncedEngineHoldsEverythingButPublishes() {
    twoZones();
    driver.endpoints(endpoints("shop", "web", "worker-a1"));
    driver.route(route("shop", "published", "web"));
    driver.route(route("shop", "no-targets", "missing"));
    driver.route(route("shop", "withdrawn", "web", List.of()));

    assertThat(driver.latest()).containsOnlyKeys("HTTPRoute/shop/published");
    assertThat(driver.metrics.holds("NO_TARGETS")).isEqualTo(1);
    assertThat(driver.metrics.holds("WITHDRAW")).isEqualTo(1);

    driver.marker(new SyncMarker("g1", SyncMarker.Phase.SYNCING, EngineDriver.START, Map.of()));
    assertThat(driver.read()).isEmpty();

    driver.synced();

    Map<String, TargetDecision> released = driver.latest();
    assertThat(released).containsOnlyKeys("HTTPRoute/shop/no-targets", "HTTPRoute/shop/withdrawn");
    assertThat(released.get("HTTPRoute/shop/no-targets").disposition())
        .isEqualTo(Disposition.NO_TARGETS);
    assertThat(released.get("HTTPRoute/shop/withdrawn").disposition())
        .isEqualTo(Disposition.WITHDRAW);
    assertThat(driver.metrics.recomputations(Trigger.SYNC)).isEqualTo(2);
  }

  @Test
  void aRestartingWatcherHoldsTombstonesUntilItsNewGenerationIsSynced() {
    twoZones();
    driver
        .synced()
        .endpoints(endpoints("shop", "web", "worker-a1"))
        .route(route("shop", "r", "web"));
    driver.read();

    driver.marker(new SyncMarker("g2", SyncMarker.Phase.SYNCING, EngineDriver.START, Map.of()));
    driver.deleteRoute("HTTPRoute/shop/r");
    driver.deleteEndpoints("Service/shop/web");

    assertThat(driver.read()).isEmpty();
    assertThat(driver.metrics.holds("TOMBSTONE")).isEqualTo(1);

    driver.marker(new SyncMarker("g2", SyncMarker.Phase.SYNCED, EngineDriver.START, Map.of()));

    assertThat(driver.read()).containsExactly(KeyValue.pair("HTTPRoute/shop/r", null));
  }

  /**
   * A tombstone on the sync topic (the watcher never writes one: kcat, a script) is ignored: taking
   * it held every removal back, with the watcher healthy, until the watcher's next leader term.
   */
  @Test
  void aTombstoneOfTheSyncMarkerIsIgnoredAndCounted() {
    twoZones();
    driver
        .synced()
        .endpoints(endpoints("shop", "web", "worker-a1"))
        .route(route("shop", "r", "web"));
    driver.read();

    driver.marker(null);
    driver.deleteRoute("HTTPRoute/shop/r");

    assertThat(driver.read()).containsExactly(KeyValue.pair("HTTPRoute/shop/r", null));
    assertThat(driver.metrics.holds("TOMBSTONE")).isZero();
    assertThat(driver.metrics.malformedRecords(Topics.SYNC.name())).isEqualTo(1);
  }

  @Test
  void aHeldDecisionThatRecoversIsNeverEmitted() {
    twoZones();
    driver.route(route("shop", "r", "web"));
    assertThat(driver.read()).isEmpty();

    driver.endpoints(endpoints("shop", "web", "worker-a1"));
    assertThat(driver.latest().get("HTTPRoute/shop/r").disposition())
        .isEqualTo(Disposition.PUBLISH);

    driver.synced();
    assertThat(driver.read()).isEmpty();
  }

  // ------------------------------------------------------------------ bad input

  @Test
  void malformedRecordsAreCountedAndSkipped() {
    twoZones();
    driver.synced().endpoints(endpoints("shop", "web", "worker-a1"));

    driver
        .raw(Topics.ROUTES)
        .pipeInput("HTTPRoute/shop/broken", "{not json".getBytes(StandardCharsets.UTF_8));
    driver.route(route("shop", "r", "web"));

    assertThat(driver.inputErrors.malformedCount()).isEqualTo(1);
    assertThat(driver.metrics.malformedRecords(Topics.ROUTES.name())).isEqualTo(1);
    assertThat(driver.latest()).containsOnlyKeys("HTTPRoute/shop/r");
  }

  @Test
  void aRecordWhoseKeyDoesNotMatchItsValueIsSkipped() {
    twoZones();
    driver.synced().endpoints(endpoints("shop", "web", "worker-a1"));
    byte[] value = new CairnSerializer<RouteState>().serialize("t", route("shop", "other", "web"));

    driver.raw(Topics.ROUTES).pipeInput("HTTPRoute/shop/r", value);

    assertThat(driver.read()).isEmpty();
    assertThat(driver.metrics.malformedRecords(Topics.ROUTES.name())).isEqualTo(1);
  }

  @Test
  void aRouteWhoseNameIsNoValidKeyIsSkippedAndTheEngineGoesOn() {
    twoZones();
    driver.synced().endpoints(endpoints("shop", "web", "worker-a1"));
    byte[] value = new CairnSerializer<RouteState>().serialize("t", route("shop", "a/b", "web"));

    driver.raw(Topics.ROUTES).pipeInput("HTTPRoute/shop/a/b", value);
    driver.route(route("shop", "r", "web"));

    assertThat(driver.metrics.malformedRecords(Topics.ROUTES.name())).isEqualTo(1);
    assertThat(driver.latest()).containsOnlyKeys("HTTPRoute/shop/r");
  }

  @Test
  void aNewerSchemaVersionStopsTheEngine() {
    RecordHeaders headers = new RecordHeaders();
    headers.add(SchemaVersion.HEADER, "2.0".getBytes(StandardCharsets.UTF_8));
    byte[] value = new CairnSerializer<RouteState>().serialize("t", route("shop", "r", "web"));

    assertThatThrownBy(
            () ->
                driver
                    .raw(Topics.ROUTES)
                    .pipeInput(new TestRecord<>("HTTPRoute/shop/r", value, headers, Instant.now())))
        .isInstanceOf(StreamsException.class);
    assertThat(driver.inputErrors.stopReason())
        .hasValueSatisfying(reason -> assertThat(reason).contains("schema version 2.0"));
  }

  // ------------------------------------------------------------------ fixtures

  private void twoZones() {
    driver
        .node(worker("worker-a1", "a", "10.0.10.1"))
        .node(worker("worker-b1", "b", "10.0.20.1"))
        .node(ingress("ingress-a1", "a", "10.0.1.1"))
        .node(ingress("ingress-b1", "b", "10.0.2.1"));
  }

  static NodeState worker(String name, String zone, String ip) {
    return new NodeState(
        name, zone, null, false, List.of(new NodeAddress("InternalIP", ip)), Map.of(), List.of());
  }

  static NodeState ingress(String name, String zone, String ip) {
    return new NodeState(
        name, zone, null, true, List.of(new NodeAddress("InternalIP", ip)), Map.of(), List.of());
  }

  static ServiceEndpoints endpoints(String namespace, String service, String... nodes) {
    return new ServiceEndpoints(
        namespace,
        service,
        java.util.Arrays.stream(nodes)
            .map(n -> new EndpointState(List.of("10.42.0.1"), n, null, true, true, false))
            .toList(),
        List.of());
  }

  static RouteState route(String namespace, String name, String service) {
    return route(namespace, name, service, List.of(name + ".example.com"));
  }

  static RouteState route(String namespace, String name, String service, List<String> hosts) {
    return new RouteState(
        "HTTPRoute",
        "gateway.networking.k8s.io/v1",
        namespace,
        name,
        "uid-" + name,
        hosts,
        List.of(BackendRef.service(service)),
        Map.of(),
        List.of());
  }

  static HostnameResolution resolution(
      String host, ProbeStatus status, boolean stale, String... ipv4) {
    return new HostnameResolution(
        host,
        PlacementSettings.DEFAULT_DNS_RESOLVER,
        status,
        List.of(ipv4),
        List.of(),
        EngineDriver.START.minusSeconds(60),
        EngineDriver.START.plusSeconds(60),
        stale);
  }
}
