package dev.cairn.strategyengine.gslb;

import java.util.Optional;

/**
 * Where the local targets of a Gslb whose resourceRef is an HTTPRoute, or any other Gateway API
 * route, come from ({@code engine.gslb.http-route-targets}, or the Gslb's own {@value
 * GslbAnnotations#HTTP_ROUTE_TARGETS}; named after the HTTPRoute, the first route they applied to).
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
  GATEWAY;

  /** The value as written in settings and annotations: {@code node-aware} or {@code gateway}. */
  public String text() {
    return this == NODE_AWARE ? "node-aware" : "gateway";
  }

  /**
   * Reads {@code node-aware} or {@code gateway}, ignoring case and surrounding spaces.
   *
   * @return the value, empty for anything else
   */
  public static Optional<HttpRouteTargets> parse(String text) {
    String value = text == null ? "" : text.strip();
    for (HttpRouteTargets targets : values()) {
      if (targets.text().equalsIgnoreCase(value)) {
        return Optional.of(targets);
      }
    }
    return Optional.empty();
  }
}
