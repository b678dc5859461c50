package dev.cairn.topologywatcher.kube;

import dev.cairn.topologywatcher.normalize.NodeInput;
import dev.cairn.topologywatcher.normalize.NodeNormalizer;
import dev.cairn.topologywatcher.state.Entity;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import java.util.ArrayList;
import java.util.List;

/** Nodes, always cluster-wide and without the label selector. */
final class NodeSource extends KindSource<Node> {

  NodeSource() {
    super(Entity.NODE, "v1", false);
  }

  @Override
  Class<Node> type() {
    return Node.class;
  }

  @Override
  Informable<Node> informable(KubernetesClient client, String namespace, String labelSelector) {
    return client.nodes();
  }

  @Override
  Object digest(Node node) {
    List<NodeInput.Address> addresses = new ArrayList<>();
    if (node.getStatus() != null) {
      for (NodeAddress a : orEmpty(node.getStatus().getAddresses())) {
        if (a != null) {
          addresses.add(new NodeInput.Address(a.getType(), a.getAddress()));
        }
      }
    }
    return NodeNormalizer.normalize(new NodeInput(meta(node), addresses));
  }
}
