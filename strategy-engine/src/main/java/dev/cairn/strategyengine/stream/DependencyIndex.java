package dev.cairn.strategyengine.stream;

import dev.cairn.strategyengine.gslb.GslbDependencies;
import dev.cairn.strategyengine.placement.PlacementDependencies;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Keys of the reverse index from inputs to the routes and Gslbs that depend on them (the
 * dependents). Every key ends in {@code |<dependentKey>} and its value is the dependent key, so a
 * prefix scan lists the dependents:
 *
 * <ul>
 *   <li>{@code svc:Service/<ns>/<name>|<dep>}: the dependent reads that Service's endpoints;
 *   <li>{@code state:Service/<ns>/<name>|<dep>}: a Gslb reads that Service's state;
 *   <li>{@code node:<name>|<dep>}: the placement looked that node up (a backend or pinned node);
 *   <li>{@code zone:<zone>|<dep>}: the placement's backends run in that zone;
 *   <li>{@code fallback|<dep>}: the placement evaluated the all-ingress fallback;
 *   <li>{@code res:<server>|<hostname>|<dep>}: the placement used that hostname resolution;
 *   <li>{@code route:<kind>/<ns>/<name>|<dep>}: a Gslb's resourceRef names that route;
 *   <li>{@code peer:<host>|<dep>}: a Gslb reads the peers' answers for that host.
 * </ul>
 *
 * Names never contain {@code |} (Kubernetes names, label values and host names cannot), so a prefix
 * that ends in {@code |} matches exactly one input.
 *
 * <p>A second, time-ordered index ({@link #deadlineKey}) lists the Gslbs whose decision changes by
 * itself at an instant (an unreachable peer's trusted answer expiring), so the punctuator reads
 * only the due ones.
 */
final class DependencyIndex {

  /** Sorts after every dependent key that follows a deadline's {@code |}. */
  private static final String AFTER_ANY_KEY = "~";

  private DependencyIndex() {}

  static String servicePrefix(String serviceKey) {
    return "svc:" + serviceKey + "|";
  }

  static String serviceStatePrefix(String serviceKey) {
    return "state:" + serviceKey + "|";
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

  static String routePrefix(String routeKey) {
    return "route:" + routeKey + "|";
  }

  static String peerPrefix(String host) {
    return "peer:" + host + "|";
  }

  /** Every index key of a route's placement dependencies. */
  static Set<String> keys(PlacementDependencies dependencies, String dependentKey) {
    Set<String> keys = new LinkedHashSet<>();
    dependencies.services().forEach(s -> keys.add(servicePrefix(s) + dependentKey));
    dependencies.nodes().forEach(n -> keys.add(nodePrefix(n) + dependentKey));
    dependencies.zones().forEach(z -> keys.add(zonePrefix(z) + dependentKey));
    if (dependencies.fallback()) {
      keys.add(fallbackPrefix() + dependentKey);
    }
    dependencies.resolutions().forEach(r -> keys.add(resolutionPrefix(r) + dependentKey));
    return keys;
  }

  /** Every index key of a Gslb's dependencies (its deadline excluded). */
  static Set<String> keys(GslbDependencies dependencies, String gslbKey) {
    Set<String> keys = new LinkedHashSet<>();
    if (dependencies.route() != null) {
      keys.add(routePrefix(dependencies.route()) + gslbKey);
    }
    for (String service : dependencies.services()) {
      keys.add(servicePrefix(service) + gslbKey);
      keys.add(serviceStatePrefix(service) + gslbKey);
    }
    dependencies.hosts().forEach(h -> keys.add(peerPrefix(h) + gslbKey));
    keys.addAll(keys(dependencies.placement(), gslbKey));
    return keys;
  }

  /**
   * The deadline index key of a Gslb: the instant in zero-padded epoch milliseconds (so string
   * order is time order), then {@code |<gslbKey>}.
   */
  static String deadlineKey(Instant at, String gslbKey) {
    return deadlinePrefix(at.toEpochMilli()) + "|" + gslbKey;
  }

  /** The last possible deadline key at {@code epochMillis}, the upper bound of a due scan. */
  static String deadlineUpTo(long epochMillis) {
    return deadlinePrefix(epochMillis) + "|" + AFTER_ANY_KEY;
  }

  private static String deadlinePrefix(long epochMillis) {
    return String.format("%019d", Math.max(0, epochMillis));
  }
}
