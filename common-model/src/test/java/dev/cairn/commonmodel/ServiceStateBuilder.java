package dev.cairn.commonmodel;

import dev.cairn.commonmodel.topology.ServicePort;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds {@link ServiceState}s; start with {@link TestRecords#aService()}. Defaults: ClusterIP
 * Service {@code default/web}, port {@code http} TCP 80, no load-balancer status, uid derived from
 * the reference.
 */
public final class ServiceStateBuilder {

  private String namespace = "default";
  private String name = "web";
  private String uid;
  private boolean uidSet;
  private String type = "ClusterIP";
  private final List<String> loadBalancerIps = new ArrayList<>();
  private final List<String> loadBalancerHostnames = new ArrayList<>();
  private List<ServicePort> ports;
  private final Map<String, String> annotations = new LinkedHashMap<>();
  private final List<Problem> problems = new ArrayList<>();

  ServiceStateBuilder() {}

  /** Sets namespace and name. */
  public ServiceStateBuilder named(String namespace, String name) {
    this.namespace = namespace;
    this.name = name;
    return this;
  }

  /** Sets the uid; {@code null} leaves it unknown. */
  public ServiceStateBuilder withUid(String uid) {
    this.uid = uid;
    this.uidSet = true;
    return this;
  }

  /** Sets the type: {@code ClusterIP}, {@code NodePort}, {@code LoadBalancer}, ... */
  public ServiceStateBuilder ofType(String type) {
    this.type = type;
    return this;
  }

  /** Makes it a LoadBalancer and adds {@code status.loadBalancer.ingress[].ip} entries. */
  public ServiceStateBuilder withLoadBalancerIps(String... ips) {
    this.type = "LoadBalancer";
    loadBalancerIps.addAll(List.of(ips));
    return this;
  }

  /** Makes it a LoadBalancer and adds {@code status.loadBalancer.ingress[].hostname} entries. */
  public ServiceStateBuilder withLoadBalancerHostnames(String... hostnames) {
    this.type = "LoadBalancer";
    loadBalancerHostnames.addAll(List.of(hostnames));
    return this;
  }

  /** Adds a port (the default {@code http} port is dropped on the first call). */
  public ServiceStateBuilder withPort(String portName, String protocol, int port) {
    if (ports == null) {
      ports = new ArrayList<>();
    }
    ports.add(new ServicePort(portName, protocol, port));
    return this;
  }

  /** Adds or replaces an annotation. */
  public ServiceStateBuilder withAnnotation(String key, String value) {
    annotations.put(key, value);
    return this;
  }

  /** Adds a normalisation problem. */
  public ServiceStateBuilder withProblem(Problem problem) {
    problems.add(problem);
    return this;
  }

  /** The Service. */
  public ServiceState build() {
    return new ServiceState(
        namespace,
        name,
        uidSet ? uid : TestRecords.uidOf(ObjectRef.of("Service", namespace, name)),
        type,
        loadBalancerIps,
        loadBalancerHostnames,
        ports != null ? ports : List.of(new ServicePort("http", "TCP", 80)),
        annotations,
        problems);
  }
}
