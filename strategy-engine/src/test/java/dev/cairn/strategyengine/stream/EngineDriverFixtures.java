package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Small topology records for the stream tests. */
final class EngineDriverFixtures {

  private EngineDriverFixtures() {}

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
