package dev.cairn.commonmodel.decision;

/** What the record-writer should do with the DNSEndpoint of a decision. */
public enum Disposition {
  /** Write the records of the decision. */
  PUBLISH,
  /**
   * There are no usable targets right now: keep the last published records for the grace period,
   * then delete them (direct-dns stale-endpoint semantics).
   */
  NO_TARGETS,
  /** The source no longer wants a record (disabled, no hostnames, no backends): delete it now. */
  WITHDRAW
}
