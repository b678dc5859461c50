package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.strategyengine.gslb.GslbView;
import dev.cairn.strategyengine.placement.NodeView;
import dev.cairn.strategyengine.placement.ResolutionLookup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** {@link GslbView} over one task's state stores. */
final class StoreGslbView implements GslbView {

  private static final StringSerializer KEYS = new StringSerializer();

  private final KeyValueStore<String, RouteState> routes;
  private final KeyValueStore<String, ServiceState> services;
  private final KeyValueStore<String, ServiceEndpoints> endpoints;
  private final KeyValueStore<String, PeerAnswer> peerAnswers;
  private final KeyValueStore<String, HostnameResolution> resolutions;
  private final NodeView nodes;

  StoreGslbView(
      KeyValueStore<String, RouteState> routes,
      KeyValueStore<String, ServiceState> services,
      KeyValueStore<String, ServiceEndpoints> endpoints,
      KeyValueStore<String, PeerAnswer> peerAnswers,
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
  public Optional<ServiceState> service(String key) {
    return Optional.ofNullable(services.get(key));
  }

  @Override
  public Optional<ServiceEndpoints> endpoints(String key) {
    return Optional.ofNullable(endpoints.get(key));
  }

  @Override
  public List<PeerAnswer> peerAnswers(String host) {
    List<PeerAnswer> found = new ArrayList<>();
    try (KeyValueIterator<String, PeerAnswer> all = peerAnswers.prefixScan(host + "|", KEYS)) {
      all.forEachRemaining(entry -> found.add(entry.value));
    }
    return found;
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
