package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.Copies;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An Istio Gateway as the watcher keeps it: what its VirtualServices need to find their load
 * balancer. Held in the view, never published: the watcher joins it into the VirtualServices that
 * name it ({@link IstioJoin}).
 *
 * @param namespace the namespace
 * @param name the name
 * @param selector {@code spec.selector}: the labels of the Service whose load-balancer status is
 *     the local targets of the VirtualServices bound to this Gateway (k8gb.md §3.1)
 * @param problems what could not be read, each naming the field and value
 */
public record IstioGatewayState(
    String namespace, String name, Map<String, String> selector, List<Problem> problems) {

  public IstioGatewayState {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    selector = Copies.sortedMap(selector);
    problems = Copies.list(problems);
  }

  /** {@code <namespace>/<name>}. */
  public String qualifiedName() {
    return namespace + "/" + name;
  }
}
