package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.validation.IpLiteral.Family;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * An in-memory {@link NodeView} with a zone index and a cache of node targets, so that placing a
 * route costs a few map lookups instead of a scan of every node. Not thread-safe: one instance
 * belongs to one stream task (or one test).
 */
public final class NodeDirectory implements NodeView {

  private final Map<String, Known> nodes = new HashMap<>();
  private final Map<String, TreeMap<String, NodeState>> ingressByZone = new HashMap<>();
  private final TreeMap<String, NodeState> ingress = new TreeMap<>();

  /** A directory holding the given nodes. */
  public static NodeDirectory of(Collection<NodeState> nodes) {
    NodeDirectory directory = new NodeDirectory();
    nodes.forEach(directory::put);
    return directory;
  }

  /** Adds or replaces a node. */
  public void put(NodeState node) {
    remove(node.name());
    nodes.put(node.name(), new Known(node));
    if (node.ingress()) {
      ingress.put(node.name(), node);
      String zone = NodeView.zoneOf(node);
      if (zone != null) {
        ingressByZone.computeIfAbsent(zone, z -> new TreeMap<>()).put(node.name(), node);
      }
    }
  }

  /** Removes a node; unknown names are ignored. */
  public void remove(String name) {
    Known known = nodes.remove(name);
    NodeState old = known == null ? null : known.node;
    if (old == null || !old.ingress()) {
      return;
    }
    ingress.remove(name);
    String zone = NodeView.zoneOf(old);
    if (zone != null) {
      TreeMap<String, NodeState> inZone = ingressByZone.get(zone);
      if (inZone != null) {
        inZone.remove(name);
        if (inZone.isEmpty()) {
          ingressByZone.remove(zone);
        }
      }
    }
  }

  /** The number of nodes held. */
  public int size() {
    return nodes.size();
  }

  @Override
  public Optional<NodeState> node(String name) {
    Known known = nodes.get(name);
    return known == null ? Optional.empty() : Optional.of(known.node);
  }

  @Override
  public Collection<NodeState> ingressNodesInZone(String zone) {
    TreeMap<String, NodeState> inZone = ingressByZone.get(zone);
    return inZone == null ? Set.of() : Collections.unmodifiableCollection(inZone.values());
  }

  @Override
  public Collection<NodeState> ingressNodes() {
    return Collections.unmodifiableCollection(ingress.values());
  }

  @Override
  public NodeTargets targets(NodeState node, Set<Family> families) {
    Known known = nodes.get(node.name());
    if (known == null || known.node != node) {
      return NodeTargets.of(node, families);
    }
    if (known.targets == null || !known.families.equals(families)) {
      known.families = EnumSet.copyOf(families);
      known.targets = NodeTargets.of(node, families);
    }
    return known.targets;
  }

  /** A node held, with its targets for the families last asked, computed on first use. */
  private static final class Known {
    final NodeState node;
    Set<Family> families;
    NodeTargets targets;

    Known(NodeState node) {
      this.node = node;
    }
  }
}
