package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.Copies;
import dev.cairn.commonmodel.topology.RouteState;
import java.util.List;
import java.util.Objects;

/**
 * The parts of a Gateway API HTTPRoute or GRPCRoute that normalisation reads (the two have the same
 * parts for DNS).
 *
 * @param meta the metadata
 * @param apiVersion the API version the object was read with, e.g. {@code
 *     gateway.networking.k8s.io/v1}
 * @param hostnames {@code spec.hostnames} as written
 * @param rules {@code spec.rules}, in spec order
 * @param parentRefs {@code spec.parentRefs}, in spec order, every field as written
 */
public record HttpRouteInput(
    Meta meta,
    String apiVersion,
    List<String> hostnames,
    List<Rule> rules,
    List<RouteState.ParentRef> parentRefs) {

  public HttpRouteInput {
    Objects.requireNonNull(meta, "meta");
    Objects.requireNonNull(apiVersion, "apiVersion");
    hostnames = Copies.list(nullSafe(hostnames));
    rules = Copies.list(nullSafe(rules));
    parentRefs = Copies.list(nullSafe(parentRefs));
  }

  /** A route without parent references. */
  public HttpRouteInput(Meta meta, String apiVersion, List<String> hostnames, List<Rule> rules) {
    this(meta, apiVersion, hostnames, rules, List.of());
  }

  /**
   * One rule of the route.
   *
   * @param backendRefs {@code backendRefs}, in spec order
   */
  public record Rule(List<BackendRefInput> backendRefs) {
    public Rule {
      backendRefs = Copies.list(nullSafe(backendRefs));
    }
  }

  /** The list without {@code null} entries; {@code null} stays {@code null}. */
  static <T> List<T> nullSafe(List<T> list) {
    return list == null ? null : list.stream().filter(Objects::nonNull).toList();
  }
}
