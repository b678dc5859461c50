package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.topology.RouteState;
import java.util.List;
import java.util.Map;

/** Copies of a test's routes with one component replaced. */
public final class RouteCopies {

  private RouteCopies() {}

  /** {@code route} with {@code annotations} instead of its own. */
  public static RouteState withAnnotations(RouteState route, Map<String, String> annotations) {
    return new RouteState(
        route.kind(),
        route.apiVersion(),
        route.namespace(),
        route.name(),
        route.uid(),
        route.hostnames(),
        route.backends(),
        annotations,
        route.problems());
  }

  /** {@code route} with {@code parentRefs} instead of its own. */
  public static RouteState withParentRefs(RouteState route, List<RouteState.ParentRef> parentRefs) {
    return new RouteState(
        route.kind(),
        route.apiVersion(),
        route.namespace(),
        route.name(),
        route.uid(),
        route.hostnames(),
        route.backends(),
        route.loadBalancerIps(),
        route.loadBalancerHostnames(),
        route.annotations(),
        route.problems(),
        route.controller(),
        route.labels(),
        parentRefs);
  }
}
