package dev.cairn.strategyengine.stream;

import dev.cairn.strategyengine.placement.PlacementDependencies;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Keys of the reverse index from inputs to the routes that depend on them. Every key ends in {@code
 * |<routeKey>} and its value is the route key, so a prefix scan lists the dependent routes:
 *
 * <ul>
 *   <li>{@code svc:Service/<ns>/<name>|<route>}: the route reads that Service's endpoints;
 *   <li>{@code node:<name>|<route>}: the route looked that node up (a backend or pinned node);
 *   <li>{@code zone:<zone>|<route>}: the route's backends run in that zone;
 *   <li>{@code fallback|<route>}: the route evaluated the all-ingress fallback;
 *   <li>{@code res:<server>|<hostname>|<route>}: the route used that hostname resolution.
 * </ul>
 *
 * Names never contain {@code |} (Kubernetes names, label values and host names cannot), so a prefix
 * that ends in {@code |} matches exactly one input.
 */
final class PlacementIndex {

  private PlacementIndex() {}

  static String servicePrefix(String serviceKey) {
    return "svc:" + serviceKey + "|";
  }

  static String nodePrefix(String nodeName) {
    return "node:" + nodeName + "|";
  }

  static String zonePrefix(String zone) {
    return "zone:" + zone + "|";
  }

  static String fallbackPrefix() {
    return "fallback|";
  }

  static String resolutionPrefix(String resolutionKey) {
    return "res:" + resolutionKey + "|";
  }

  /** Every index key of a route's dependencies. */
  static Set<String> keys(PlacementDependencies dependencies, String routeKey) {
    Set<String> keys = new LinkedHashSet<>();
    dependencies.services().forEach(s -> keys.add(servicePrefix(s) + routeKey));
    dependencies.nodes().forEach(n -> keys.add(nodePrefix(n) + routeKey));
    dependencies.zones().forEach(z -> keys.add(zonePrefix(z) + routeKey));
    if (dependencies.fallback()) {
      keys.add(fallbackPrefix() + routeKey);
    }
    dependencies.resolutions().forEach(r -> keys.add(resolutionPrefix(r) + routeKey));
    return keys;
  }
}
