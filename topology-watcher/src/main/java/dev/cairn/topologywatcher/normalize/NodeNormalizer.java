package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.validation.Flags;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Node to {@link NodeState}: trimmed zone and region, the ingress role, {@code status.addresses}
 * without {@code Hostname} entries, the relevant annotations.
 *
 * <p>Ingress role: the label {@code node-role.kubernetes.io/ingress} is present and its value is
 * not a false value per {@link Flags#parse} (the usual empty value counts as present), or {@code
 * kubernetes.io/role=ingress}. k8s-direct-dns checked only the presence of the first label, so
 * {@code node-role.kubernetes.io/ingress=false} made a node an ingress node there; Cairn reads it
 * as written.
 */
public final class NodeNormalizer {

  /** Zone label. */
  public static final String ZONE_LABEL = "topology.kubernetes.io/zone";

  /** Region label. */
  public static final String REGION_LABEL = "topology.kubernetes.io/region";

  /** The node-role label whose presence marks an ingress node. */
  public static final String INGRESS_ROLE_LABEL = "node-role.kubernetes.io/ingress";

  /** The older role label; {@code ingress} marks an ingress node. */
  public static final String ROLE_LABEL = "kubernetes.io/role";

  private NodeNormalizer() {}

  /** Normalises a Node. */
  public static NodeState normalize(NodeInput input) {
    Problems problems = new Problems();
    Map<String, String> labels = input.meta().labels();
    List<NodeAddress> addresses = new ArrayList<>();
    for (int i = 0; i < input.addresses().size(); i++) {
      NodeInput.Address address = input.addresses().get(i);
      String field = "status.addresses[" + i + "]";
      if ("Hostname".equals(address.type())) {
        continue;
      }
      String value = address.address() == null ? null : address.address().strip();
      if (address.type() == null || address.type().isEmpty()) {
        problems.add(field + ".type", address.type(), "address has no type; it is left out");
      } else if (value == null || value.isEmpty()) {
        problems.add(field + ".address", address.address(), "address is empty; it is left out");
      } else if (isIpType(address.type()) && IpLiteral.parse(value).isEmpty()) {
        problems.add(
            field + ".address",
            address.address(),
            address.type() + " is not a strict IPv4 or IPv6 address literal; it is left out");
      } else if (isDnsType(address.type())
          && !problems.check(Hostnames.check(field + ".address", value))) {
        continue;
      } else {
        addresses.add(new NodeAddress(address.type(), value));
      }
    }
    return new NodeState(
        input.meta().name(),
        trimmedLabel(labels, ZONE_LABEL),
        trimmedLabel(labels, REGION_LABEL),
        isIngress(labels),
        addresses,
        AnnotationRules.NODE.relevant(input.meta().annotations(), problems),
        problems.list());
  }

  /** The ingress role, as described on the class. */
  public static boolean isIngress(Map<String, String> labels) {
    if (labels.containsKey(INGRESS_ROLE_LABEL)
        && !Flags.parse(labels.get(INGRESS_ROLE_LABEL)).equals(Optional.of(false))) {
      return true;
    }
    return "ingress".equals(labels.get(ROLE_LABEL));
  }

  private static String trimmedLabel(Map<String, String> labels, String key) {
    String value = labels.get(key);
    if (value == null) {
      return null;
    }
    String trimmed = value.strip();
    return trimmed.isEmpty() ? null : trimmed;
  }

  private static boolean isIpType(String type) {
    return "InternalIP".equals(type) || "ExternalIP".equals(type);
  }

  private static boolean isDnsType(String type) {
    return "InternalDNS".equals(type) || "ExternalDNS".equals(type);
  }
}
