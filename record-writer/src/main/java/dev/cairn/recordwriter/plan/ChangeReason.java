package dev.cairn.recordwriter.plan;

/** Why a write was planned; logged with the write and used as a metric tag. */
public enum ChangeReason {
  /** The decision's records differ from what is published (or nothing is published yet). */
  PUBLISH,
  /** Targets are back after a grace period: the records are written and the timer removed. */
  RESTORE,
  /** A Cairn-owned object passes to the source that claims it now. */
  ADOPT,
  /** No targets: the last records are kept and the grace-period start is recorded. */
  GRACE_START,
  /** The recorded grace-period start was in the future or unreadable and is reset to now. */
  GRACE_RESET,
  /** The decision withdraws the record: deleted at once. */
  WITHDRAWN,
  /** No decision claims the record any more (its source is gone): deleted. */
  SOURCE_GONE,
  /** The grace period ran out without targets coming back: deleted. */
  GRACE_EXPIRED,
  /** No targets and the grace period is zero or negative: deleted at once. */
  GRACE_DISABLED,
  /** No targets and the object publishes no endpoints either, so there is nothing to keep. */
  NOTHING_TO_KEEP,
  /** Every name the decision publishes is kept by another of Cairn's DNSEndpoints: deleted. */
  NAMES_HELD_ELSEWHERE,
  /**
   * A Gslb without targets: its {@code localtargets-<host>} records are withdrawn at once, while
   * its host records are kept for the grace period (they tell peers whether this cluster serves).
   */
  LOCAL_TARGETS_WITHDRAWN
}
