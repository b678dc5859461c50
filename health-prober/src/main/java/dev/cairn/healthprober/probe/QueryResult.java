package dev.cairn.healthprober.probe;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of one query (one name, one type, at one server).
 *
 * @param status what the server said, or why it said nothing
 * @param addresses the addresses taken from the answer (OK only), canonical, in answer order
 * @param ttlSeconds the smallest TTL of the records used (OK), the negative TTL (NXDOMAIN, NODATA)
 *     when the reply carried an SOA, otherwise {@code null}
 * @param capped true when more address records were offered than the cap allows
 * @param detail a short explanation for logs (empty when there is nothing to add)
 */
public record QueryResult(
    ProbeStatus status, List<IpLiteral> addresses, Long ttlSeconds, boolean capped, String detail) {

  public QueryResult {
    Objects.requireNonNull(status, "status");
    addresses = addresses == null ? List.of() : List.copyOf(addresses);
    detail = detail == null ? "" : detail;
  }

  /** A result without addresses. */
  public static QueryResult of(ProbeStatus status, String detail) {
    return new QueryResult(status, List.of(), null, false, detail);
  }
}
