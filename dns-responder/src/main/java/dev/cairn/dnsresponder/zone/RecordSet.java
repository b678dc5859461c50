package dev.cairn.dnsresponder.zone;

import java.util.List;
import java.util.Objects;

/**
 * The records of one name and type, with how answers pick from them.
 *
 * @param kind the record type
 * @param ttlSeconds the TTL of every record in the set
 * @param targets the values, without duplicates, in declaration order; never empty
 * @param geoip whether the endpoint asked for geo routing ({@code strategy: geoip})
 * @param weighted whether every target carries a weight label, so answers are drawn by weight
 * @param source the object that declared the set, {@code namespace/name} or {@code config}
 */
public record RecordSet(
    RecordKind kind,
    long ttlSeconds,
    List<Target> targets,
    boolean geoip,
    boolean weighted,
    String source) {

  public RecordSet {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(source, "source");
    targets = List.copyOf(targets);
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("a record set has at least one target");
    }
    if (kind == RecordKind.CNAME && targets.size() != 1) {
      throw new IllegalArgumentException("a CNAME set has exactly one target");
    }
  }

  /** A plain set: no geo routing, no weights. */
  public static RecordSet plain(RecordKind kind, long ttl, List<Target> targets, String source) {
    return new RecordSet(kind, ttl, targets, false, false, source);
  }
}
