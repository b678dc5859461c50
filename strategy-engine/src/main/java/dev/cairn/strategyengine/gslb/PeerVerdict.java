package dev.cairn.strategyengine.gslb;

/**
 * How one peer's {@code localtargets-<host>} answer counts in a decision (the split-brain rule,
 * {@code docs/strategies.md}).
 */
public enum PeerVerdict {
  /** The peer answered with at least one target: it serves the host. */
  ANSWERED(true),
  /**
   * The peer answered NXDOMAIN, NODATA or no usable target: it does not serve the host, at once.
   */
  EMPTY(false),
  /**
   * The peer is unreachable, but its last answer (with targets) is younger than the split-brain
   * threshold: it still counts as serving with those targets.
   */
  TRUSTED(true),
  /**
   * The peer is unreachable and its last answer, younger than the threshold, held no target: it
   * does not serve the host.
   */
  TRUSTED_EMPTY(false),
  /** The peer has been unreachable for longer than the threshold: it is treated as gone. */
  EXPIRED(false),
  /** The peer is unreachable and never answered: it is treated as gone. */
  NEVER_ANSWERED(false),
  /** The answer carries this cluster's own geo tag; a cluster never counts itself as a peer. */
  SELF(false),
  /** The answer's geo tag is not a valid geo tag; it is ignored. */
  INVALID(false);

  private final boolean serving;

  PeerVerdict(boolean serving) {
    this.serving = serving;
  }

  /** True when the peer's targets take part in the decision (k8gb's map {@code E}). */
  public boolean serving() {
    return serving;
  }
}
