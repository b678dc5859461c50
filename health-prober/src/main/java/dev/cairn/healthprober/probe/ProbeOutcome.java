package dev.cairn.healthprober.probe;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What one probe of a (host, peer) found: the A and the AAAA query combined.
 *
 * @param status the combined status
 * @param ipv4 the IPv4 targets (OK only), canonical, sorted, distinct
 * @param ipv6 the IPv6 targets (OK only), canonical, sorted, distinct
 * @param ttlSeconds the smallest TTL of the records used (OK only), else {@code null}
 * @param server the server that answered, or the last one asked
 * @param failureStartHint for an unreachable outcome, when the failure is known to have begun (the
 *     peer's failure run when its circuit is open); {@code null} means "now"
 * @param detail a short explanation for logs
 */
public record ProbeOutcome(
    ProbeStatus status,
    List<String> ipv4,
    List<String> ipv6,
    Long ttlSeconds,
    String server,
    Instant failureStartHint,
    String detail) {

  public ProbeOutcome {
    Objects.requireNonNull(status, "status");
    ipv4 = sortedDistinct(ipv4);
    ipv6 = sortedDistinct(ipv6);
    detail = detail == null ? "" : detail;
  }

  /** An unreachable outcome with no answer, e.g. while the peer's circuit is open. */
  public static ProbeOutcome unreachable(
      ProbeStatus status, String server, Instant failureStart, String detail) {
    if (status.reachable()) {
      throw new IllegalArgumentException(status + " is not an unreachable status");
    }
    return new ProbeOutcome(status, List.of(), List.of(), null, server, failureStart, detail);
  }

  /**
   * Combines the A and the AAAA result of one probe.
   *
   * <ul>
   *   <li>either query unreachable (TIMEOUT, ERROR, SERVFAIL, REFUSED): that status, the A query's
   *       first; the peer's last answer is then kept by the evaluator, never half-replaced;
   *   <li>any address: OK with the addresses of both;
   *   <li>both NXDOMAIN: NXDOMAIN; otherwise NODATA (the name exists, without addresses).
   * </ul>
   */
  public static ProbeOutcome combine(QueryResult a, QueryResult aaaa, String server) {
    if (!a.status().reachable()) {
      return unreachable(a.status(), server, null, describe("A", a));
    }
    if (!aaaa.status().reachable()) {
      return unreachable(aaaa.status(), server, null, describe("AAAA", aaaa));
    }
    if (a.status() == ProbeStatus.OK || aaaa.status() == ProbeStatus.OK) {
      List<String> v4 = new ArrayList<>();
      List<String> v6 = new ArrayList<>();
      Long ttl = addTo(a, v4, v6, null);
      ttl = addTo(aaaa, v4, v6, ttl);
      String detail =
          a.detail().isEmpty() && aaaa.detail().isEmpty()
              ? ""
              : (a.detail() + " " + aaaa.detail()).strip();
      return new ProbeOutcome(ProbeStatus.OK, v4, v6, ttl, server, null, detail);
    }
    ProbeStatus status =
        a.status() == ProbeStatus.NXDOMAIN && aaaa.status() == ProbeStatus.NXDOMAIN
            ? ProbeStatus.NXDOMAIN
            : ProbeStatus.NODATA;
    return new ProbeOutcome(status, List.of(), List.of(), null, server, null, a.detail());
  }

  /** Adds the addresses of an OK result by family; returns the smaller TTL. */
  private static Long addTo(QueryResult r, List<String> v4, List<String> v6, Long ttl) {
    if (r.status() != ProbeStatus.OK) {
      return ttl;
    }
    for (IpLiteral ip : r.addresses()) {
      (ip.family() == IpLiteral.Family.IPV4 ? v4 : v6).add(ip.text());
    }
    if (r.ttlSeconds() == null) {
      return ttl;
    }
    return ttl == null ? r.ttlSeconds() : Math.min(ttl, r.ttlSeconds());
  }

  /** Sorted, without duplicates, immutable; an already sorted immutable list is returned as is. */
  private static List<String> sortedDistinct(List<String> in) {
    if (in == null || in.isEmpty()) {
      return List.of();
    }
    boolean ascending = true;
    for (int i = 1; i < in.size() && ascending; i++) {
      ascending = in.get(i - 1).compareTo(in.get(i)) < 0;
    }
    if (ascending) {
      return List.copyOf(in);
    }
    String[] a = in.toArray(new String[0]);
    Arrays.sort(a);
    int n = 0;
    for (String s : a) {
      if (n == 0 || !a[n - 1].equals(s)) {
        a[n++] = s;
      }
    }
    return List.of(Arrays.copyOf(a, n));
  }

  private static String describe(String type, QueryResult r) {
    return type + " " + r.status() + (r.detail().isEmpty() ? "" : ": " + r.detail());
  }
}
