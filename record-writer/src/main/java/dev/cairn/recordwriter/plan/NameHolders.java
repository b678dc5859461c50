package dev.cairn.recordwriter.plan;

import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.Objects;

/**
 * Which of Cairn's DNSEndpoints keeps a DNS name that several of them want. One writer per name:
 * the others leave it out instead of emitting it too (two objects with the same name are served
 * differently downstream: Cairn's dns-responder serves the older one, external-dns merges their
 * targets).
 *
 * <p>The holder is the claimant whose object exists and declares the name now, the oldest first
 * (creation time, then object key), as the dns-responder orders declarations, so a name never moves
 * from an object that serves it to a newcomer. When no claimant's object declares it yet, the
 * claimant whose object exists first holds it, then the one whose key sorts first.
 */
public final class NameHolders {

  private NameHolders() {}

  /**
   * A DNSEndpoint whose decision publishes a name.
   *
   * @param object the DNSEndpoint
   * @param created its creation time, {@code null} when it does not exist yet
   * @param declaresNow whether the object as it exists declares the name
   */
  public record Claimant(ObjectKey object, Instant created, boolean declaresNow) {
    public Claimant {
      Objects.requireNonNull(object, "object");
    }
  }

  private static final Comparator<Claimant> ORDER =
      Comparator.comparing((Claimant c) -> !c.declaresNow())
          .thenComparing(Claimant::created, Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparing(Claimant::object);

  /**
   * The claimant that keeps the name.
   *
   * @throws IllegalArgumentException when there are no claimants
   */
  public static ObjectKey holder(Collection<Claimant> claimants) {
    return claimants.stream()
        .min(ORDER)
        .orElseThrow(() -> new IllegalArgumentException("no claimants"))
        .object();
  }
}
