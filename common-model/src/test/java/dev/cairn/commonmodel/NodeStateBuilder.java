package dev.cairn.commonmodel;

import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds {@link NodeState}s; start with {@link TestRecords#aNode(String)}. Defaults: no zone, no
 * region, not an ingress node, no addresses, annotations or problems. Addresses matter to target
 * selection, so a test states each one it relies on.
 */
public final class NodeStateBuilder {

  private final String name;
  private String zone;
  private String region;
  private boolean ingress;
  private final List<NodeAddress> addresses = new ArrayList<>();
  private final Map<String, String> annotations = new LinkedHashMap<>();
  private final List<Problem> problems = new ArrayList<>();

  NodeStateBuilder(String name) {
    this.name = name;
  }

  /** Sets the {@code topology.kubernetes.io/zone} label. */
  public NodeStateBuilder inZone(String zone) {
    this.zone = zone;
    return this;
  }

  /** Sets the {@code topology.kubernetes.io/region} label. */
  public NodeStateBuilder inRegion(String region) {
    this.region = region;
    return this;
  }

  /** Gives the node the ingress role. */
  public NodeStateBuilder ingress() {
    this.ingress = true;
    return this;
  }

  /** Removes the ingress role. */
  public NodeStateBuilder notIngress() {
    this.ingress = false;
    return this;
  }

  /** Adds an {@code ExternalIP} address. */
  public NodeStateBuilder withExternalIp(String address) {
    return withAddress("ExternalIP", address);
  }

  /** Adds an {@code InternalIP} address. */
  public NodeStateBuilder withInternalIp(String address) {
    return withAddress("InternalIP", address);
  }

  /** Adds an {@code ExternalDNS} address. */
  public NodeStateBuilder withExternalDns(String name) {
    return withAddress("ExternalDNS", name);
  }

  /** Adds a {@code status.addresses} entry as written. */
  public NodeStateBuilder withAddress(String type, String address) {
    addresses.add(new NodeAddress(type, address));
    return this;
  }

  /** Adds or replaces an annotation. */
  public NodeStateBuilder withAnnotation(String key, String value) {
    annotations.put(key, value);
    return this;
  }

  /** Adds a normalisation problem. */
  public NodeStateBuilder withProblem(Problem problem) {
    problems.add(problem);
    return this;
  }

  /** The node. */
  public NodeState build() {
    return new NodeState(name, zone, region, ingress, addresses, annotations, problems);
  }
}
