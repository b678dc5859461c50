package dev.cairn.healthprober.probe;

import java.util.List;

/**
 * A DNS reply that already matched its query (source, ID, question), reduced to what the prober
 * reads.
 *
 * @param rcode the response code (0 NOERROR, 2 SERVFAIL, 3 NXDOMAIN, 5 REFUSED, ...)
 * @param answers the answer section, in wire order
 * @param authority the authority section, in wire order
 * @param negativeTtlSeconds the negative-caching TTL of an SOA in the authority section (RFC 2308
 *     §5: the smaller of its TTL and MINIMUM), {@code null} without one
 */
public record DnsReply(
    int rcode, List<ReplyRecord> answers, List<ReplyRecord> authority, Long negativeTtlSeconds) {

  /** NOERROR. */
  public static final int NOERROR = 0;

  /** FORMERR. */
  public static final int FORMERR = 1;

  /** SERVFAIL. */
  public static final int SERVFAIL = 2;

  /** NXDOMAIN. */
  public static final int NXDOMAIN = 3;

  /** REFUSED. */
  public static final int REFUSED = 5;

  public DnsReply {
    answers = answers == null ? List.of() : List.copyOf(answers);
    authority = authority == null ? List.of() : List.copyOf(authority);
  }
}
