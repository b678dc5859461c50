package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.validation.IpLiteral.Family;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

/** Read access to the cluster's nodes as placement needs them. */
public interface NodeView {

  /** The node of that name, if known. */
  Optional<NodeState> node(String name);

  /** The ingress-role nodes whose zone is {@code zone}, sorted by name. */
  Collection<NodeState> ingressNodesInZone(String zone);

  /** Every ingress-role node, whatever its zone, sorted by name. */
  Collection<NodeState> ingressNodes();

  /**
   * The publish targets of a node for the enabled families. Implementations may cache the result;
   * it must equal {@link NodeTargets#of}.
   */
  default NodeTargets targets(NodeState node, Set<Family> families) {
    return NodeTargets.of(node, families);
  }

  /** The trimmed zone of a node, {@code null} when it has none. */
  static String zoneOf(NodeState node) {
    if (node == null || node.zone() == null) {
      return null;
    }
    String zone = node.zone().strip();
    return zone.isEmpty() ? null : zone;
  }
}
