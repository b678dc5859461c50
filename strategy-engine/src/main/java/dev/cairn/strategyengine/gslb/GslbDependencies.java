package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.Copies;
import dev.cairn.strategyengine.placement.PlacementDependencies;
import java.time.Instant;
import java.util.List;

/**
 * The inputs a Gslb's decision read, so that a change of one of them recomputes exactly the Gslbs
 * that depend on it, and the instant the decision changes by itself.
 *
 * @param route the key of the route the resourceRef names ({@code HTTPRoute/...}, {@code
 *     Ingress/...}, {@code VirtualService/...}), {@code null} for none
 * @param selection {@code <kind>/<namespace>} when the resourceRef selects by labels among those
 *     objects (any of them changing may change the selection), {@code null} otherwise
 * @param gateway the key of the Gateway whose addresses were read ({@code Gateway/<ns>/<name>}),
 *     {@code null} for none
 * @param services the Services read (health, load-balancer status), as keys {@code
 *     Service/<ns>/<name>}
 * @param hosts the hosts whose peer answers were read
 * @param placement what the node-aware placement read ({@link PlacementDependencies#NONE} when the
 *     local targets do not come from a placement)
 * @param reevaluateAt the earliest instant at which an unreachable peer's trusted answer expires,
 *     {@code null} when no answer is trusted on time
 */
public record GslbDependencies(
    String route,
    String selection,
    String gateway,
    List<String> services,
    List<String> hosts,
    PlacementDependencies placement,
    Instant reevaluateAt) {

  /** A decision that depends on nothing but the Gslb itself. */
  public static final GslbDependencies NONE =
      new GslbDependencies(
          null, null, null, List.of(), List.of(), PlacementDependencies.NONE, null);

  public GslbDependencies {
    services = Copies.list(services);
    hosts = Copies.list(hosts);
    placement = placement == null ? PlacementDependencies.NONE : placement;
  }
}
