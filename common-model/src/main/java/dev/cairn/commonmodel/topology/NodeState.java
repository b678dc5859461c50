package dev.cairn.commonmodel.topology;

import dev.cairn.commonmodel.Copies;
import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The parts of a Node that placement needs. Published on {@code cairn.topology.nodes.v1}, keyed
 * {@code Node/<name>}.
 *
 * @param name the node name
 * @param zone the trimmed {@code topology.kubernetes.io/zone} label, {@code null} when absent
 * @param region the trimmed {@code topology.kubernetes.io/region} label, {@code null} when absent
 * @param ingress whether the node has the ingress role ({@code node-role.kubernetes.io/ingress}
 *     present and not a false value, or {@code kubernetes.io/role=ingress})
 * @param addresses {@code status.addresses} in API order, {@code Hostname} entries left out
 * @param annotations the Cairn-relevant annotations only ({@code directdns.meisterlala.dev/*},
 *     {@code k3s.io/external-ip}, {@code k3s.io/external-dns}, {@code k8gb.io/*})
 * @param problems what could not be normalised, each naming the field and value
 */
public record NodeState(
    String name,
    String zone,
    String region,
    boolean ingress,
    List<NodeAddress> addresses,
    Map<String, String> annotations,
    List<Problem> problems) {

  public NodeState {
    Objects.requireNonNull(name, "name");
    addresses = Copies.list(addresses);
    annotations = Copies.sortedMap(annotations);
    problems = Copies.list(problems);
  }

  /** The stable id of this node. */
  public ObjectRef ref() {
    return ObjectRef.cluster("Node", name);
  }
}
