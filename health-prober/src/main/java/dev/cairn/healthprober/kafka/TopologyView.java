package dev.cairn.healthprober.kafka;

import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceState;
import java.util.Collection;
import java.util.Map;

/**
 * What the schedulers read: the full Gslb, route, Service and node tables, whether they are
 * complete, and dirty flags raised on change. {@link TopologyInputs} implements it over Kafka.
 */
public interface TopologyView {

  /** True when every table is complete (its topic was read up to the end seen at start). */
  boolean caughtUp();

  /** True once, and clears, when Gslbs or routes changed since the last call. */
  boolean takeHostsDirty();

  /** True once, and clears, when Gslbs, routes, Services or nodes changed since the last call. */
  boolean takeTargetsDirty();

  /** Every Gslb. */
  Collection<GslbState> gslbs();

  /** Every route. */
  Collection<RouteState> routes();

  /** Every Service. */
  Collection<ServiceState> services();

  /** Every node. */
  Collection<NodeState> nodes();

  /** What the prober published before this start; the same value on every call. */
  OwnState takeOwnState();

  /**
   * What the prober published before this start.
   *
   * @param peerAnswers key to peer answer
   * @param resolutions key to hostname resolution
   */
  record OwnState(
      Map<String, PeerAnswer> peerAnswers, Map<String, HostnameResolution> resolutions) {}
}
