package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.strategyengine.gslb.GslbView;
import dev.cairn.strategyengine.placement.NodeView;
import dev.cairn.strategyengine.placement.ResolutionLookup;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * {@link GslbView} over one task's state stores and the instance's {@link PeerAnswerBoard}, where a
 * host's peer answers are held decoded and read by key, one per geo tag.
 *
 * <p>Routes, Services and endpoints are shared by the Gslbs of a namespace, so within one batch of
 * decisions each is read and decoded once: the processor changes no input while it decides a batch
 * and calls {@link #forget} after it.
 */
final class StoreGslbView implements GslbView {

  private final KeyValueStore<String, RouteState> routes;
  private final KeyValueStore<String, ServiceState> services;
  private final KeyValueStore<String, ServiceEndpoints> endpoints;
  private final PeerAnswerBoard peerAnswers;
  private final KeyValueStore<String, HostnameResolution> resolutions;
  private final NodeView nodes;
  private final Map<String, Optional<RouteState>> routesRead = new HashMap<>();
  private final Map<String, Optional<ServiceState>> servicesRead = new HashMap<>();
  private final Map<String, Optional<ServiceEndpoints>> endpointsRead = new HashMap<>();

  StoreGslbView(
      KeyValueStore<String, RouteState> routes,
      KeyValueStore<String, ServiceState> services,
      KeyValueStore<String, ServiceEndpoints> endpoints,
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

  /** Forgets what was read: the inputs may change from now on. */
  void forget() {
    routesRead.clear();
    servicesRead.clear();
    endpointsRead.clear();
  }

  @Override
  public Optional<RouteState> route(String key) {
    return routesRead.computeIfAbsent(key, k -> Optional.ofNullable(routes.get(k)));
  }

  @Override
  public Optional<ServiceState> service(String key) {
    return servicesRead.computeIfAbsent(key, k -> Optional.ofNullable(services.get(k)));
  }

  @Override
  public Optional<ServiceEndpoints> endpoints(String key) {
    return endpointsRead.computeIfAbsent(key, k -> Optional.ofNullable(endpoints.get(k)));
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
