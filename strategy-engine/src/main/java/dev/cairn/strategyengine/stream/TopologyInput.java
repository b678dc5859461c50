package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;

/**
 * One input change as the decision processor sees it: the inputs of all topics are merged into one
 * stream so that a single processor (and a single node directory) serves a task. A {@code null}
 * value is a tombstone. Never serialised.
 */
sealed interface TopologyInput {

  record RouteInput(RouteState value) implements TopologyInput {}

  record EndpointsInput(ServiceEndpoints value) implements TopologyInput {}

  record NodeInput(NodeState value) implements TopologyInput {}

  record SyncInput(SyncMarker value) implements TopologyInput {}

  record ResolutionInput(HostnameResolution value) implements TopologyInput {}

  record GslbInput(GslbState value) implements TopologyInput {}

  record ServiceInput(ServiceState value) implements TopologyInput {}
}
