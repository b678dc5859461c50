package dev.cairn.healthprober.probe;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

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
    ipv4 = List.copyOf(new TreeSet<>(ipv4 == null ? List.of() : ipv4));
    ipv6 = List.copyOf(new TreeSet<>(ipv6 == null ? List.of() : ipv6));
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
      TreeSet<String> v4 = new TreeSet<>();
      TreeSet<String> v6 = new TreeSet<>();
      Long ttl = null;
      for (QueryResult r : List.of(a, aaaa)) {
        if (r.status() != ProbeStatus.OK) {
          continue;
        }
        for (IpLiteral ip : r.addresses()) {
          (ip.family() == IpLiteral.Family.IPV4 ? v4 : v6).add(ip.text());
        }
        if (r.ttlSeconds() != null) {
          ttl = ttl == null ? r.ttlSeconds() : Math.min(ttl, r.ttlSeconds());
        }
      }
      String detail = (a.detail() + " " + aaaa.detail()).strip();
      return new ProbeOutcome(
          ProbeStatus.OK, List.copyOf(v4), List.copyOf(v6), ttl, server, null, detail);
    }
    ProbeStatus status =
        a.status() == ProbeStatus.NXDOMAIN && aaaa.status() == ProbeStatus.NXDOMAIN
            ? ProbeStatus.NXDOMAIN
            : ProbeStatus.NODATA;
    return new ProbeOutcome(status, List.of(), List.of(), null, server, null, a.detail());
  }

  private static String describe(String type, QueryResult r) {
    return type + " " + r.status() + (r.detail().isEmpty() ? "" : ": " + r.detail());
  }
}
