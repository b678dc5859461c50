package dev.cairn.strategyengine.gslb;

/**
 * Where the local targets of a Gslb whose resourceRef is an HTTPRoute come from ({@code
 * engine.gslb.http-route-targets}).
 */
public enum HttpRouteTargets {
  /**
   * The route's own direct-dns placement: the ingress nodes of the zones its backends run in
   * (Cairn's node-aware mode, the default).
   */
  NODE_AWARE,

  /**
   * The {@code status.addresses} of the route's one parent Gateway, as k8gb takes them: for
   * Gateways behind a cloud load balancer.
   */
  GATEWAY
}
