package dev.cairn.dnsresponder.zone;

import java.util.Objects;

/** The outcome of {@link SnapshotBuilder#build}: a snapshot, or why none could be built. */
public sealed interface BuildResult {

  /**
   * A snapshot was built; bad inputs inside it were dropped and listed in its problems.
   *
   * @param snapshot the new snapshot
   */
  record Built(ZoneSnapshot snapshot) implements BuildResult {
    public Built {
      Objects.requireNonNull(snapshot, "snapshot");
    }
  }

  /**
   * No snapshot: the inputs as a whole are unacceptable, so the previous view must stay.
   *
   * @param reason why, in one sentence
   */
  record Refused(String reason) implements BuildResult {
    public Refused {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
