package dev.cairn.strategyengine.placement;

/** The DNS record type a target is published in, in the order records are written. */
public enum RecordType {
  /** An IPv4 address. */
  A,
  /** An IPv6 address. */
  AAAA,
  /** A host name. */
  CNAME;

  /** True for the address types. */
  public boolean isAddress() {
    return this != CNAME;
  }
}
