package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.strategyengine.placement.NodeDirectory;
import dev.cairn.strategyengine.placement.NodeView;
import dev.cairn.strategyengine.placement.ResolutionLookup;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An in-memory {@link GslbView} over fixed inputs, for tests. */
public final class MapGslbView implements GslbView {

  private final Map<String, RouteState> routes = new HashMap<>();
  private final Map<String, ServiceState> services = new HashMap<>();
  private final Map<String, ServiceEndpoints> endpoints = new HashMap<>();
  private final Map<String, Map<String, PeerAnswer>> peersByHost = new HashMap<>();
  private final NodeDirectory nodes;
  private final ResolutionLookup resolutions;

  public MapGslbView(
      Collection<RouteState> routes,
      Collection<ServiceState> services,
      Collection<ServiceEndpoints> endpoints,
      Collection<PeerAnswer> peers,
      Collection<NodeState> nodes,
      Collection<HostnameResolution> resolutions) {
    routes.forEach(r -> this.routes.put(r.ref().key(), r));
    services.forEach(s -> this.services.put(s.ref().key(), s));
    endpoints.forEach(e -> this.endpoints.put(e.ref().key(), e));
    peers.forEach(
        p ->
            peersByHost
                .computeIfAbsent(Hostnames.normalise(p.host()), h -> new HashMap<>())
                .put(p.geoTag(), p));
    this.nodes = NodeDirectory.of(nodes);
    this.resolutions = ResolutionLookup.of(resolutions);
  }

  /** A view with nothing but these peer answers. */
  public static MapGslbView ofPeers(Collection<PeerAnswer> peers) {
    return new MapGslbView(List.of(), List.of(), List.of(), peers, List.of(), List.of());
  }

  @Override
  public Optional<RouteState> route(String key) {
    return Optional.ofNullable(routes.get(key));
  }

  @Override
  public Collection<RouteState> routes(String kind, String namespace) {
    return routes.values().stream()
        .filter(r -> r.kind().equals(kind) && r.namespace().equals(namespace))
        .toList();
  }

  @Override
  public Collection<ServiceState> services(String namespace) {
    return services.values().stream().filter(s -> s.namespace().equals(namespace)).toList();
  }

  @Override
  public Optional<ServiceState> service(String key) {
    return Optional.ofNullable(services.get(key));
  }

  @Override
  public Optional<ServiceEndpoints> endpoints(String key) {
    return Optional.ofNullable(endpoints.get(key));
  }

  @Override
  public List<PeerAnswer> peerAnswers(String host) {
    return new ArrayList<>(peersByHost.getOrDefault(host, Map.of()).values());
  }

  @Override
  public NodeView nodes() {
    return nodes;
  }

  @Override
  public ResolutionLookup resolutions() {
    return resolutions;
  }
}
