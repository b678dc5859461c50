package dev.cairn.recordwriter.plan;

import java.util.Objects;

/**
 * A source that wants a DNSEndpoint it may not write, because someone else holds the name.
 *
 * @param key the contested object
 * @param claimant the source key of the decision that was refused
 * @param holder who holds the object, in words (another manager, or another Cairn source)
 * @param kind why the claim was refused
 * @param name for {@link Kind#NAME_HELD_ELSEWHERE}, the DNS name left out; else {@code null}
 */
public record Conflict(ObjectKey key, String claimant, String holder, Kind kind, DnsName name) {

  /** Why a claim was refused. */
  public enum Kind {
    /** The object exists and is not managed by Cairn: it is never modified or deleted. */
    FOREIGN_OBJECT,
    /** Another Cairn source holds (or, for a new object, sorts first and gets) the name. */
    CLAIMED_BY_OTHER_SOURCE,
    /**
     * The object belongs to another Cairn source whose decision may not have been read yet; the
     * claim is decided once the decisions topic has been read to its end.
     */
    PENDING_SYNC,
    /**
     * A DNS name of the decision is kept by another of Cairn's DNSEndpoints ({@link NameHolders});
     * this object leaves it out. {@code holder} names that DNSEndpoint and {@code name} the DNS
     * name.
     */
    NAME_HELD_ELSEWHERE
  }

  /** A conflict over a whole object (every kind but {@link Kind#NAME_HELD_ELSEWHERE}). */
  public Conflict(ObjectKey key, String claimant, String holder, Kind kind) {
    this(key, claimant, holder, kind, null);
  }

  public Conflict {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(claimant, "claimant");
    Objects.requireNonNull(holder, "holder");
    Objects.requireNonNull(kind, "kind");
    if ((kind == Kind.NAME_HELD_ELSEWHERE) != (name != null)) {
      throw new IllegalArgumentException("a DNS name goes with NAME_HELD_ELSEWHERE and only there");
    }
  }

  /** One sentence naming both parties. */
  public String describe() {
    return switch (kind) {
      case FOREIGN_OBJECT ->
          "DNSEndpoint "
              + key
              + " wanted by "
              + claimant
              + " exists and is held by "
              + holder
              + "; Cairn never modifies or deletes it";
      case CLAIMED_BY_OTHER_SOURCE ->
          "DNSEndpoint " + key + " wanted by " + claimant + " is held by " + holder;
      case PENDING_SYNC ->
          "DNSEndpoint "
              + key
              + " wanted by "
              + claimant
              + " is held by "
              + holder
              + "; decided once all decisions are read";
      case NAME_HELD_ELSEWHERE ->
          name
              + " wanted by "
              + claimant
              + " in DNSEndpoint "
              + key
              + " is declared by "
              + holder
              + ", which keeps it; it is left out of "
              + key;
    };
  }
}
