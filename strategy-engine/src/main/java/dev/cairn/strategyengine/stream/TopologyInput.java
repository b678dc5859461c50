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
 *
 * <p>The inputs the task keeps in an {@link InputStore} carry, beside the decoded value, the bytes
 * it arrived as ({@link Received#encoded()}, {@code null} for a tombstone), which are stored as
 * they are; made from a value (tests), they are encoded here.
 */
sealed interface TopologyInput {

  /** An input stored as the bytes it was received as. */
  sealed interface Received<V> extends TopologyInput {

    /** The decoded value, {@code null} for a tombstone. */
    V value();

    /** The Cairn JSON bytes the value arrived as, {@code null} for a tombstone. */
    byte[] encoded();
  }

  record RouteInput(RouteState value, byte[] encoded) implements Received<RouteState> {
    RouteInput(RouteState value) {
      this(value, EngineJson.encode(value));
    }
  }

  record EndpointsInput(ServiceEndpoints value, byte[] encoded)
      implements Received<ServiceEndpoints> {
    EndpointsInput(ServiceEndpoints value) {
      this(value, EngineJson.encode(value));
    }
  }

  record GslbInput(GslbState value, byte[] encoded) implements Received<GslbState> {
    GslbInput(GslbState value) {
      this(value, EngineJson.encode(value));
    }
  }

  record ServiceInput(ServiceState value, byte[] encoded) implements Received<ServiceState> {
    ServiceInput(ServiceState value) {
      this(value, EngineJson.encode(value));
    }
  }

  record NodeInput(NodeState value) implements TopologyInput {}

  record SyncInput(SyncMarker value) implements TopologyInput {}

  record ResolutionInput(HostnameResolution value) implements TopologyInput {}
}
