package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.Copies;
import java.util.List;

/**
 * The inputs a route's placement read, so that a change of one of them recomputes exactly the
 * routes that depend on it.
 *
 * @param services the Services whose endpoints were read, as keys {@code Service/<ns>/<name>}
 * @param nodes the nodes looked up by name: backend nodes (their zone matters) and pinned nodes
 * @param zones the backend zones whose ingress nodes were candidates
 * @param fallback true when the all-ingress fallback was evaluated (every ingress node matters)
 * @param resolutions the hostname resolutions looked up, as keys {@code <server>|<hostname>}
 */
public record PlacementDependencies(
    List<String> services,
    List<String> nodes,
    List<String> zones,
    boolean fallback,
    List<String> resolutions) {

  /** A placement that depends on nothing but the route itself. */
  public static final PlacementDependencies NONE =
      new PlacementDependencies(List.of(), List.of(), List.of(), false, List.of());

  public PlacementDependencies {
    services = Copies.list(services);
    nodes = Copies.list(nodes);
    zones = Copies.list(zones);
    resolutions = Copies.list(resolutions);
  }
}
