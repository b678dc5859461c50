package dev.cairn.healthprober.probe;

/** The record types the prober reads; everything else is {@link #OTHER}. */
public enum RecordType {
  A(1),
  NS(2),
  CNAME(5),
  SOA(6),
  AAAA(28),
  OTHER(-1);

  private final int code;

  RecordType(int code) {
    this.code = code;
  }

  /** The RFC 1035 type code; -1 for {@link #OTHER}. */
  public int code() {
    return code;
  }

  /** The type of a code. */
  public static RecordType of(int code) {
    for (RecordType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return OTHER;
  }
}
