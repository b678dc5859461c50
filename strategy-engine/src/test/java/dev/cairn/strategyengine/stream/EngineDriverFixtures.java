package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.TestRecords;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.stream.EngineTopology.StoreType;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Small topology records for the stream tests. */
final class EngineDriverFixtures {

  private EngineDriverFixtures() {}

  /** A ClusterIP Service {@code <namespace>/<name>} (uid {@code uid-<name>}), port http/80. */
  static ServiceState clusterIpService(String namespace, String name) {
    return TestRecords.aService().named(namespace, name).withUid("uid-" + name).build();
  }

  /**
   * The roundRobin Gslb {@code shop/a} for {@code host} on Service {@code shop/web}, exposed at
   * 203.0.113.10 (the exposed-IP annotation), as the batching and event-time tests use it.
   */
  static GslbState exposedShopGslb(String host) {
    return TestRecords.aGslb()
        .named("shop", "a")
        .withUid("uid-a")
        .withIngressRule(host, "web")
        .withDnsTtl(null)
        .withSplitBrainThreshold(null)
        .withAnnotation("k8gb.io/exposed-ip-addresses", "203.0.113.10")
        .build();
  }

  /** An engine whose watcher is synced and whose Service {@code shop/web} has a ready endpoint. */
  static EngineDriver healthyShopEngine(GslbSettings settings, StoreType storeType) {
    EngineDriver engine =
        new EngineDriver(PlacementSettings.defaults(), settings, EngineDriver.START, storeType);
    engine
        .synced()
        .service(clusterIpService("shop", "web"))
        .endpoints(endpoints("shop", "web", "n1"));
    return engine;
  }

  /** A peer's OK answer for {@code host} with one IPv4 target, last successful at {@code at}. */
  static PeerAnswer okAnswer(String geoTag, String host, String ipv4, Instant at) {
    return TestRecords.aPeerAnswer()
        .from(geoTag)
        .forHost(host)
        .withIpv4(ipv4)
        .lastSuccess(at)
        .observedAt(at)
        .build();
  }

  static NodeState worker(String name, String zone, String ip) {
    return new NodeState(
        name, zone, null, false, List.of(new NodeAddress("InternalIP", ip)), Map.of(), List.of());
  }

  static NodeState ingress(String name, String zone, String ip) {
    return new NodeState(
        name, zone, null, true, List.of(new NodeAddress("ExternalIP", ip)), Map.of(), List.of());
  }

  static ServiceEndpoints endpoints(String namespace, String service, String... nodes) {
    return new ServiceEndpoints(
        namespace,
        service,
        Arrays.stream(nodes)
            .map(n -> new EndpointState(List.of("10.42.0.1"), n, null, true, true, false))
            .toList(),
        List.of());
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
}
