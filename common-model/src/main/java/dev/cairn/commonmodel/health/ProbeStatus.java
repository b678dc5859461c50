package dev.cairn.commonmodel.health;

/** What a peer's DNS server said, or why it said nothing. */
public enum ProbeStatus {
  /** An answer with at least one A or AAAA record. */
  OK,
  /** The name does not exist at the peer (the host is not healthy there). */
  NXDOMAIN,
  /** The name exists but has no A or AAAA records. */
  NODATA,
  /** The peer answered SERVFAIL (for Cairn's responder: not synced yet). */
  SERVFAIL,
  /** The peer refused the query. */
  REFUSED,
  /** No answer within the timeout: the peer is unreachable. */
  TIMEOUT,
  /** A malformed or mismatched answer, or a transport error. */
  ERROR;

  /** True when the peer answered the question (its answer can be trusted as current). */
  public boolean reachable() {
    return this == OK || this == NXDOMAIN || this == NODATA;
  }
}
