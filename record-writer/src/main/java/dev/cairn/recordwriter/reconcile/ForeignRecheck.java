package dev.cairn.recordwriter.reconcile;

import java.time.Duration;

/**
 * When to read again a DNSEndpoint that is not Cairn's but sits at a name a decision wants. The
 * writer watches only its own objects, so it would learn that such an object was deleted or handed
 * over (labelled {@code app.kubernetes.io/managed-by=cairn}, which its informer sees at once) only
 * at the next full resync. Each such name is read again after 5 s, then twice as long each time, up
 * to a minute; with many such names the interval grows so that all of them together take no more
 * than {@value #READS_PER_SECOND} reads a second. Pure.
 */
public final class ForeignRecheck {

  /** The first interval. */
  public static final Duration FIRST = Duration.ofSeconds(5);

  /** The longest interval while few names are held by foreign objects. */
  public static final Duration LONGEST = Duration.ofMinutes(1);

  /** The most reads a second that the rechecks of all names make together, once backed off. */
  public static final int READS_PER_SECOND = 20;

  private ForeignRecheck() {}

  /**
   * The wait before the next read of one name.
   *
   * @param attempt how many times the name was read again already (0 for the first time)
   * @param heldNames how many names are held by foreign objects now
   */
  public static Duration delay(int attempt, int heldNames) {
    Duration cap = LONGEST;
    Duration spread = Duration.ofMillis(1000L * Math.max(1, heldNames) / READS_PER_SECOND);
    if (spread.compareTo(cap) > 0) {
      cap = spread;
    }
    Duration delay = FIRST.multipliedBy(1L << Math.min(attempt, 20));
    return delay.compareTo(cap) > 0 ? cap : delay;
  }
}
