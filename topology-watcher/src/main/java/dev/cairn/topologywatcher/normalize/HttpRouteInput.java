package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.topology.RouteState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The parts of a Gateway API HTTPRoute or GRPCRoute that normalisation reads (the two have the same
 * parts for DNS).
 *
 * <p>In its lists and a rule's {@code backendRefs}, an item that is {@code null} in the object, or
 * could not be read, is {@code null} and skipped, so that the other items keep their index in
 * problems.
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
    hostnames = withNulls(hostnames);
    rules = withNulls(rules);
    parentRefs = withNulls(parentRefs);
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
      backendRefs = withNulls(backendRefs);
    }
  }

  /** An unmodifiable copy that keeps {@code null} items in place; empty for {@code null}. */
  private static <T> List<T> withNulls(List<T> list) {
    return list == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(list));
  }

  /** The list without {@code null} entries; {@code null} stays {@code null}. */
  static <T> List<T> nullSafe(List<T> list) {
    return list == null ? null : list.stream().filter(Objects::nonNull).toList();
  }
}
