package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.Copies;
import java.util.List;
import java.util.Objects;

/**
 * The parts of a {@code networking.k8s.io/v1} Ingress that normalisation reads. The default backend
 * is not read: it has no host, so it takes no part in DNS decisions (k8gb ignores it too).
 *
 * @param meta the metadata
 * @param rules {@code spec.rules}, in spec order
 * @param loadBalancer {@code status.loadBalancer.ingress}, in status order (the ingress
 *     controller's addresses: a Gslb's local targets)
 */
public record IngressInput(
    Meta meta, List<Rule> rules, List<ServiceInput.LoadBalancerIngress> loadBalancer) {

  public IngressInput {
    Objects.requireNonNull(meta, "meta");
    rules = Copies.list(HttpRouteInput.nullSafe(rules));
    loadBalancer = Copies.list(HttpRouteInput.nullSafe(loadBalancer));
  }

  /** An Ingress without a load-balancer status. */
  public IngressInput(Meta meta, List<Rule> rules) {
    this(meta, rules, List.of());
  }

  /**
   * One rule: its host and the backend of every HTTP path.
   *
   * @param host {@code host} as written, {@code null} when absent
   * @param backends {@code http.paths[].backend}, in spec order; a service backend becomes a
   *     reference with name and port number, a resource backend one with group, kind and name
   */
  public record Rule(String host, List<BackendRefInput> backends) {
    public Rule {
      backends = Copies.list(HttpRouteInput.nullSafe(backends));
    }
  }
}
