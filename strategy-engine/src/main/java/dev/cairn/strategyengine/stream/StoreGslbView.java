package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.strategyengine.gslb.GslbView;
import dev.cairn.strategyengine.placement.NodeView;
import dev.cairn.strategyengine.placement.ResolutionLookup;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * {@link GslbView} over one task's inputs and the instance's {@link PeerAnswerBoard}: routes,
 * Services and endpoints from their decoded copies in memory ({@link InputStore}), a host's peer
 * answers decoded and read by key, one per geo tag.
 */
final class StoreGslbView implements GslbView {

  private final InputStore<RouteState> routes;
  private final InputStore<ServiceState> services;
  private final InputStore<ServiceEndpoints> endpoints;
  private final PeerAnswerBoard peerAnswers;
  private final KeyValueStore<String, HostnameResolution> resolutions;
  private final NodeView nodes;

  StoreGslbView(
      InputStore<RouteState> routes,
      InputStore<ServiceState> services,
      InputStore<ServiceEndpoints> endpoints,
      PeerAnswerBoard peerAnswers,
      KeyValueStore<String, HostnameResolution> resolutions,
      NodeView nodes) {
    this.routes = routes;
    this.services = services;
    this.endpoints = endpoints;
    this.peerAnswers = peerAnswers;
    this.resolutions = resolutions;
    this.nodes = nodes;
  }

  /** The peer-answer store key of a host and a geo tag: {@code <host>|<geoTag>}. */
  static String peerKey(String host, String geoTag) {
    return host + "|" + geoTag;
  }

  @Override
  public Optional<RouteState> route(String key) {
    return Optional.ofNullable(routes.get(key));
  }

  @Override
  public Collection<RouteState> routes(String kind, String namespace) {
    return routes.inGroup(kind + "/" + namespace);
  }

  @Override
  public Collection<ServiceState> services(String namespace) {
    return services.inGroup("Service/" + namespace);
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
    return peerAnswers.answers(host);
  }

  @Override
  public NodeView nodes() {
    return nodes;
  }

  @Override
  public ResolutionLookup resolutions() {
    return key -> Optional.ofNullable(resolutions.get(key));
  }
}
