package dev.cairn.recordwriter.reconcile;

import java.time.Duration;
import java.time.Instant;

/**
 * The retry state of one object after failed or conflicting writes: exponential, capped.
 *
 * @param attempts failed attempts so far
 * @param notBefore the object is not planned again before this time
 */
record Backoff(int attempts, Instant notBefore) {

  /** True when the object may be planned again at {@code now}. */
  boolean due(Instant now) {
    return !notBefore.isAfter(now);
  }

  /**
   * The state after one more failure.
   *
   * @param previous the state so far, or {@code null} after a success
   * @param base the first delay
   * @param max the longest delay
   * @param firstIsImmediate true when the first retry goes at once (a 409 was read again already)
   */
  static Backoff next(
      Backoff previous, Duration base, Duration max, Instant now, boolean firstIsImmediate) {
    int attempts = previous == null ? 1 : previous.attempts() + 1;
    int exponent = firstIsImmediate ? attempts - 2 : attempts - 1;
    Duration delay;
    if (exponent < 0) {
      delay = Duration.ZERO;
    } else {
      delay = base.multipliedBy(1L << Math.min(exponent, 20));
      if (delay.compareTo(max) > 0) {
        delay = max;
      }
    }
    return new Backoff(attempts, now.plus(delay));
  }
}
