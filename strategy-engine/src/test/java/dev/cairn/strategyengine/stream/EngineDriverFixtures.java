package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Small topology records for the stream tests. */
final class EngineDriverFixtures {

  private EngineDriverFixtures() {}

  /** A peer's OK answer for {@code host} with one IPv4 target, last successful at {@code at}. */
  static PeerAnswer okAnswer(String geoTag, String host, String ipv4, Instant at) {
    return new PeerAnswer(
        host, geoTag, "192.0.2.53:53", ProbeStatus.OK, List.of(ipv4), List.of(), 30L, at, null, at);
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
