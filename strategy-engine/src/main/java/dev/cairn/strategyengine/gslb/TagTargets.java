package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.validation.IpLiteral.Family;
import java.util.List;

/**
 * The targets one cluster (one geo tag) contributes to a host: canonical IPv4 and IPv6 literals,
 * each list without duplicates, in the order they were found (local targets keep discovery order,
 * peer targets are string-sorted, as k8gb orders them).
 *
 * @param ipv4 the A targets
 * @param ipv6 the AAAA targets
 */
public record TagTargets(List<String> ipv4, List<String> ipv6) {

  /** No targets. */
  public static final TagTargets NONE = new TagTargets(List.of(), List.of());

  public TagTargets {
    ipv4 = List.copyOf(ipv4);
    ipv6 = List.copyOf(ipv6);
  }

  /** True when there is no target of either family. */
  public boolean isEmpty() {
    return ipv4.isEmpty() && ipv6.isEmpty();
  }

  /** The targets of one family. */
  public List<String> of(Family family) {
    return family == Family.IPV4 ? ipv4 : ipv6;
  }

  /** Every target, IPv4 first, as an unmodifiable list. */
  public List<String> all() {
    return TargetLists.concat(ipv4, ipv6);
  }

  /** The number of targets. */
  public int size() {
    return ipv4.size() + ipv6.size();
  }
}
