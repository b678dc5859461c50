package dev.cairn.commonmodel.topology;

import dev.cairn.commonmodel.Copies;
import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@code k8gb.io/v1beta1} Gslb. Published on {@code cairn.topology.gslbs.v1}, keyed {@code
 * Gslb/<namespace>/<name>}.
 *
 * @param namespace the namespace
 * @param name the name
 * @param uid the uid, for owner references
 * @param resourceRef {@code spec.resourceRef}, {@code null} in embedded-ingress mode
 * @param ingressRules the embedded {@code spec.ingress} rules (host and backends), if any
 * @param strategy {@code spec.strategy}
 * @param serviceHealthPolicy {@code Any} or {@code All}; {@code null} means {@code Any}
 * @param annotations the Cairn-relevant annotations only ({@code k8gb.io/*} and {@code
 *     cairn.dev/http-route-targets})
 * @param problems what could not be normalised, each naming the field and value
 */
public record GslbState(
    String namespace,
    String name,
    String uid,
    GslbResourceRef resourceRef,
    List<IngressRule> ingressRules,
    GslbStrategy strategy,
    String serviceHealthPolicy,
    Map<String, String> annotations,
    List<Problem> problems) {

  public GslbState {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    ingressRules = Copies.list(ingressRules);
    annotations = Copies.sortedMap(annotations);
    problems = Copies.list(problems);
  }

  /** The stable id of this Gslb. */
  public ObjectRef ref() {
    return ObjectRef.of("Gslb", namespace, name);
  }

  /**
   * One rule of an embedded ingress: a host and the Services behind its paths.
   *
   * @param host the rule host
   * @param backends the path backends
   */
  public record IngressRule(String host, List<BackendRef> backends) {
    public IngressRule {
      backends = Copies.list(backends);
    }
  }
}
