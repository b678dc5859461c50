package dev.cairn.commonmodel.topology;

import dev.cairn.commonmodel.Copies;
import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Service's type, load-balancer status and ports. Published on {@code
 * cairn.topology.services.v1}, keyed {@code Service/<namespace>/<name>}.
 *
 * @param namespace the namespace
 * @param name the name
 * @param uid the uid
 * @param type {@code ClusterIP}, {@code NodePort}, {@code LoadBalancer} or {@code ExternalName}
 * @param loadBalancerIps {@code status.loadBalancer.ingress[].ip}, in status order
 * @param loadBalancerHostnames {@code status.loadBalancer.ingress[].hostname}, in status order
 * @param ports the service ports
 * @param annotations the Cairn-relevant annotations only
 * @param problems what could not be normalised, each naming the field and value
 * @param labels the Service's labels ({@code metadata.labels}), all of them: a Gslb's resourceRef
 *     may select its Service by label (k8gb.md §3.1). Since schema 1.3; empty in a record of an
 *     older schema
 */
public record ServiceState(
    String namespace,
    String name,
    String uid,
    String type,
    List<String> loadBalancerIps,
    List<String> loadBalancerHostnames,
    List<ServicePort> ports,
    Map<String, String> annotations,
    List<Problem> problems,
    Map<String, String> labels) {

  public ServiceState {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    loadBalancerIps = Copies.list(loadBalancerIps);
    loadBalancerHostnames = Copies.list(loadBalancerHostnames);
    ports = Copies.list(ports);
    annotations = Copies.sortedMap(annotations);
    problems = Copies.list(problems);
    labels = Copies.sortedMap(labels);
  }

  /** A Service without labels. */
  public ServiceState(
      String namespace,
      String name,
      String uid,
      String type,
      List<String> loadBalancerIps,
      List<String> loadBalancerHostnames,
      List<ServicePort> ports,
      Map<String, String> annotations,
      List<Problem> problems) {
    this(
        namespace,
        name,
        uid,
        type,
        loadBalancerIps,
        loadBalancerHostnames,
        ports,
        annotations,
        problems,
        Map.of());
  }

  /** The stable id of this Service. */
  public ObjectRef ref() {
    return ObjectRef.of("Service", namespace, name);
  }
}
