package dev.cairn.dnsresponder.zone;

import java.util.Locale;
import java.util.Optional;

/** The record types a DNSEndpoint can publish through this server. */
public enum RecordKind {
  A,
  AAAA,
  CNAME,
  TXT;

  /** The kind named by a {@code recordType} value (any case), or empty when unsupported. */
  public static Optional<RecordKind> parse(String recordType) {
    if (recordType == null) {
      return Optional.empty();
    }
    return switch (recordType.strip().toUpperCase(Locale.ROOT)) {
      case "A" -> Optional.of(A);
      case "AAAA" -> Optional.of(AAAA);
      case "CNAME" -> Optional.of(CNAME);
      case "TXT" -> Optional.of(TXT);
      default -> Optional.empty();
    };
  }

  /** True for A and AAAA, whose targets are addresses and may be weighted or geo-routed. */
  public boolean isAddress() {
    return this == A || this == AAAA;
  }
}
