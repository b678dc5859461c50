package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.strategyengine.placement.NodeView;
import dev.cairn.strategyengine.placement.ResolutionLookup;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Read access to everything a Gslb decision reads besides the Gslb itself. */
public interface GslbView {

  /** The route published under {@code key} ({@code HTTPRoute/<ns>/<name>}, {@code Ingress/...}). */
  Optional<RouteState> route(String key);

  /**
   * Every route of a kind in a namespace, any order: the candidates of a resourceRef that selects
   * by labels.
   *
   * @param kind {@code Ingress}, a Gateway API route kind or {@code VirtualService}
   */
  Collection<RouteState> routes(String kind, String namespace);

  /** Every Service in a namespace, any order: the candidates of a label-selecting resourceRef. */
  Collection<ServiceState> services(String namespace);

  /** The Service published under {@code key} ({@code Service/<ns>/<name>}). */
  Optional<ServiceState> service(String key);

  /** The endpoints of the Service {@code key} ({@code Service/<ns>/<name>}). */
  Optional<ServiceEndpoints> endpoints(String key);

  /** Every peer's answer for {@code localtargets-<host>} ({@code host} normalised), any order. */
  List<PeerAnswer> peerAnswers(String host);

  /** The cluster's nodes, for node-aware local targets. */
  NodeView nodes();

  /** The prober's hostname resolutions, for node-aware local targets. */
  ResolutionLookup resolutions();
}
