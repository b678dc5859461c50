package dev.cairn.strategyengine.stream;

import dev.cairn.strategyengine.gslb.GslbDependencies;
import dev.cairn.strategyengine.placement.PlacementDependencies;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * Keys of the inputs in the {@link ReverseIndex}, which lists the routes and Gslbs that depend on
 * each (the dependents):
 *
 * <ul>
 *   <li>{@code svc:Service/<ns>/<name>}: the dependent reads that Service's endpoints;
 *   <li>{@code state:Service/<ns>/<name>}: a Gslb reads that Service's state;
 *   <li>{@code node:<name>}: the placement looked that node up (a backend or pinned node);
 *   <li>{@code zone:<zone>}: the placement's backends run in that zone;
 *   <li>{@code fallback}: the placement evaluated the all-ingress fallback;
 *   <li>{@code res:<server>|<hostname>}: the placement used that hostname resolution;
 *   <li>{@code route:<kind>/<ns>/<name>}: a Gslb's resourceRef names that route, or its local
 *       targets are that Gateway's addresses ({@code route:Gateway/<ns>/<name>});
 *   <li>{@code select:<kind>/<ns>}: a Gslb's resourceRef selects by labels among the objects of
 *       that kind ({@code Ingress}, {@code HTTPRoute}, {@code Service}) in that namespace;
 *   <li>{@code peer:<host>}: a Gslb reads the peers' answers for that host.
 * </ul>
 *
 * <p>A second, time-ordered index ({@link #deadlineKey}) lists the Gslbs whose decision changes by
 * itself at an instant (an unreachable peer's trusted answer expiring), so the punctuator reads
 * only the due ones.
 */
final class DependencyIndex {

  /** Sorts after every dependent key that follows a deadline's {@code |}. */
  private static final String AFTER_ANY_KEY = "~";

  private DependencyIndex() {}

  static String serviceKey(String serviceKey) {
    return "svc:" + serviceKey;
  }

  static String serviceStateKey(String serviceKey) {
    return "state:" + serviceKey;
  }

  static String nodeKey(String nodeName) {
    return "node:" + nodeName;
  }

  static String zoneKey(String zone) {
    return "zone:" + zone;
  }

  static String fallbackKey() {
    return "fallback";
  }

  static String resolutionKey(String resolutionKey) {
    return "res:" + resolutionKey;
  }

  static String routeKey(String routeKey) {
    return "route:" + routeKey;
  }

  /** The key of a label selection among the objects of {@code <kind>/<namespace>}. */
  static String selectionKey(String kindAndNamespace) {
    return "select:" + kindAndNamespace;
  }

  static String peerKey(String host) {
    return "peer:" + host;
  }

  /** The input keys of a route's placement dependencies. */
  static Set<String> keys(PlacementDependencies dependencies) {
    Set<String> keys = new HashSet<>();
    addKeys(dependencies, keys);
    return keys;
  }

  /** The input keys of a Gslb's dependencies (its deadline excluded). */
  static Set<String> keys(GslbDependencies dependencies) {
    Set<String> keys = new HashSet<>();
    if (dependencies.route() != null) {
      keys.add(routeKey(dependencies.route()));
    }
    if (dependencies.gateway() != null) {
      keys.add(routeKey(dependencies.gateway()));
    }
    if (dependencies.selection() != null) {
      keys.add(selectionKey(dependencies.selection()));
    }
    for (String service : dependencies.services()) {
      keys.add(serviceKey(service));
      keys.add(serviceStateKey(service));
    }
    for (String host : dependencies.hosts()) {
      keys.add(peerKey(host));
    }
    addKeys(dependencies.placement(), keys);
    return keys;
  }

  private static void addKeys(PlacementDependencies dependencies, Set<String> keys) {
    for (String service : dependencies.services()) {
      keys.add(serviceKey(service));
    }
    for (String node : dependencies.nodes()) {
      keys.add(nodeKey(node));
    }
    for (String zone : dependencies.zones()) {
      keys.add(zoneKey(zone));
    }
    if (dependencies.fallback()) {
      keys.add(fallbackKey());
    }
    for (String resolution : dependencies.resolutions()) {
      keys.add(resolutionKey(resolution));
    }
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
