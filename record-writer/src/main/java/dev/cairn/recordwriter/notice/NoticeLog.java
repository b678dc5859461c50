package dev.cairn.recordwriter.notice;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Which notices were recorded when, so a condition that persists is recorded once and not at every
 * plan or resync. A condition still observed {@code refreshInterval} after it was last recorded is
 * due again (the Event's count goes up, and it outlives the API server's event TTL, one hour by
 * default); one not observed for a whole interval is forgotten, so if it comes back it is recorded
 * as news. Time is passed in. Not thread-safe.
 */
public final class NoticeLog {

  private record Entry(int occurrences, Instant lastRecorded, Instant lastObserved) {}

  private final Duration refreshInterval;
  private final Map<String, Entry> entries = new HashMap<>();
  private Instant nextPrune;

  /**
   * An empty log.
   *
   * @param refreshInterval how long a recorded condition stays recorded; positive
   */
  public NoticeLog(Duration refreshInterval) {
    Objects.requireNonNull(refreshInterval, "refreshInterval");
    if (refreshInterval.isZero() || refreshInterval.isNegative()) {
      throw new IllegalArgumentException(
          "refreshInterval must be positive, got " + refreshInterval);
    }
    this.refreshInterval = refreshInterval;
  }

  /**
   * Notes that a condition holds now.
   *
   * @return the occurrence to record now (1 when first seen, more when due again), or 0 when
   *     nothing is due; a returned occurrence counts as recorded until {@link #forget} is called
   */
  public int observe(Notice notice, Instant now) {
    pruneIfDue(now);
    String key = notice.identity();
    Entry e = entries.get(key);
    if (e == null) {
      entries.put(key, new Entry(1, now, now));
      return 1;
    }
    if (!now.isBefore(e.lastRecorded().plus(refreshInterval))) {
      entries.put(key, new Entry(e.occurrences() + 1, now, now));
      return e.occurrences() + 1;
    }
    entries.put(key, new Entry(e.occurrences(), e.lastRecorded(), now));
    return 0;
  }

  /** Forgets a condition (its recording failed, or was not sent): the next observation is news. */
  public void forget(Notice notice) {
    entries.remove(notice.identity());
  }

  /** The number of conditions remembered. */
  public int size() {
    return entries.size();
  }

  private void pruneIfDue(Instant now) {
    if (nextPrune != null && now.isBefore(nextPrune)) {
      return;
    }
    Instant cutoff = now.minus(refreshInterval);
    entries.values().removeIf(e -> e.lastObserved().isBefore(cutoff));
    nextPrune = now.plus(refreshInterval);
  }
}
