package dev.cairn.recordwriter.kube;

/**
 * A token bucket: {@code rate} tokens per second, at most {@code burst} saved up. Time is passed in
 * (nanoseconds from any fixed origin), so the arithmetic is testable without a clock; {@link
 * WriteRateLimiter} adds the waiting. Not thread-safe on its own.
 */
final class TokenBucket {

  private final double ratePerNano;
  private final double burst;
  private double tokens;
  private long last;

  /**
   * A full bucket.
   *
   * @param ratePerSecond tokens added per second, positive
   * @param burst capacity, at least 1
   * @param nowNanos the current time
   */
  TokenBucket(double ratePerSecond, int burst, long nowNanos) {
    if (!(ratePerSecond > 0)) {
      throw new IllegalArgumentException("rate must be positive, got " + ratePerSecond);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, got " + burst);
    }
    this.ratePerNano = ratePerSecond / 1e9;
    this.burst = burst;
    this.tokens = burst;
    this.last = nowNanos;
  }

  /**
   * Takes one token, going into debt if none is left.
   *
   * @return how long to wait, in nanoseconds, before the token may be used; 0 when available now
   */
  long reserve(long nowNanos) {
    refill(nowNanos);
    tokens -= 1;
    if (tokens >= 0) {
      return 0;
    }
    return (long) Math.ceil(-tokens / ratePerNano);
  }

  /** The tokens available now (negative while reservations are outstanding). */
  double available(long nowNanos) {
    refill(nowNanos);
    return tokens;
  }

  private void refill(long nowNanos) {
    long elapsed = nowNanos - last;
    if (elapsed > 0) {
      tokens = Math.min(burst, tokens + elapsed * ratePerNano);
      last = nowNanos;
    }
  }
}
