package dev.cairn.commonmodel;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;
import java.util.List;

/**
 * Every topic of the contract. All state topics are compacted, keyed by the entity's stable id,
 * carry the full current state in each value, and use a tombstone for a deletion. Keys are UTF-8
 * strings and values JSON, so {@code kcat -C -b <addr> -t <topic> -K'\t'} prints them readably. See
 * {@code docs/contracts.md} for the same table with examples.
 */
public final class Topics {

  /**
   * Producer: topology-watcher. Key: {@code <kind>/<ns>/<name>} of an HTTPRoute, GRPCRoute,
   * TLSRoute, TCPRoute, UDPRoute, Ingress, Gateway API Gateway or Istio VirtualService. Value:
   * {@link RouteState}. Cleanup: compact.
   */
  public static final TopicSpec<RouteState> ROUTES =
      new TopicSpec<>(
          "cairn.topology.routes.v1",
          RouteState.class,
          "topology-watcher",
          "<kind>/<namespace>/<name>",
          true);

  /**
   * Producer: topology-watcher. Key: {@code Service/<ns>/<name>}. Value: {@link ServiceState}.
   * Cleanup: compact.
   */
  public static final TopicSpec<ServiceState> SERVICES =
      new TopicSpec<>(
          "cairn.topology.services.v1",
          ServiceState.class,
          "topology-watcher",
          "Service/<namespace>/<name>",
          true);

  /**
   * Producer: topology-watcher. Key: {@code Service/<ns>/<service>}. Value: {@link
   * ServiceEndpoints}, all EndpointSlices of the Service merged. Cleanup: compact.
   */
  public static final TopicSpec<ServiceEndpoints> ENDPOINTS =
      new TopicSpec<>(
          "cairn.topology.endpoints.v1",
          ServiceEndpoints.class,
          "topology-watcher",
          "Service/<namespace>/<service>",
          true);

  /**
   * Producer: topology-watcher. Key: {@code Node/<name>}. Value: {@link NodeState}. Cleanup:
   * compact.
   */
  public static final TopicSpec<NodeState> NODES =
      new TopicSpec<>(
          "cairn.topology.nodes.v1", NodeState.class, "topology-watcher", "Node/<name>", true);

  /**
   * Producer: topology-watcher. Key: {@code Gslb/<ns>/<name>}. Value: {@link GslbState}. Cleanup:
   * compact.
   */
  public static final TopicSpec<GslbState> GSLBS =
      new TopicSpec<>(
          "cairn.topology.gslbs.v1",
          GslbState.class,
          "topology-watcher",
          "Gslb/<namespace>/<name>",
          true);

  /**
   * Producer: topology-watcher. Key: {@code topology-watcher}. Value: {@link SyncMarker}. Cleanup:
   * compact.
   */
  public static final TopicSpec<SyncMarker> SYNC =
      new TopicSpec<>(
          "cairn.topology.sync.v1", SyncMarker.class, "topology-watcher", "topology-watcher", true);

  /**
   * Producer: health-prober. Key: {@code PeerAnswer/<geoTag>/<host>}. Value: {@link PeerAnswer}.
   * Cleanup: compact.
   */
  public static final TopicSpec<PeerAnswer> PEER_ANSWERS =
      new TopicSpec<>(
          "cairn.health.peer-answers.v1",
          PeerAnswer.class,
          "health-prober",
          "PeerAnswer/<geoTag>/<host>",
          true);

  /**
   * Producer: health-prober. Key: {@code <server>|<hostname>}. Value: {@link HostnameResolution}.
   * Cleanup: compact.
   */
  public static final TopicSpec<HostnameResolution> HOSTNAME_RESOLUTIONS =
      new TopicSpec<>(
          "cairn.health.hostname-resolutions.v1",
          HostnameResolution.class,
          "health-prober",
          "<server>|<hostname>",
          true);

  /**
   * Producer: strategy-engine. Key: the source's {@code <kind>/<ns>/<name>}. Value: {@link
   * TargetDecision}; a tombstone when the source is gone. Cleanup: compact.
   */
  public static final TopicSpec<TargetDecision> DECISIONS =
      new TopicSpec<>(
          "cairn.decision.targets.v1",
          TargetDecision.class,
          "strategy-engine",
          "<kind>/<namespace>/<name> of the source",
          true);

  /**
   * Producer: strategy-engine. Key: {@code Gslb/<ns>/<name>}. Value: {@link GslbStatus}, the
   * desired status of the Gslb; a tombstone when the Gslb is gone. Cleanup: compact.
   */
  public static final TopicSpec<GslbStatus> GSLB_STATUS =
      new TopicSpec<>(
          "cairn.decision.gslb-status.v1",
          GslbStatus.class,
          "strategy-engine",
          "Gslb/<namespace>/<name>",
          true);

  /** Every topic, in data-flow order. */
  public static final List<TopicSpec<?>> ALL =
      List.of(
          ROUTES,
          SERVICES,
          ENDPOINTS,
          NODES,
          GSLBS,
          SYNC,
          PEER_ANSWERS,
          HOSTNAME_RESOLUTIONS,
          DECISIONS,
          GSLB_STATUS);

  private Topics() {}
}
