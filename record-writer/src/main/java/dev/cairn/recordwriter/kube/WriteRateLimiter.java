package dev.cairn.recordwriter.kube;

import java.util.concurrent.TimeUnit;

/**
 * Spaces API writes with a {@link TokenBucket} ({@code writer.rate-limit.*}): every create, update
 * and delete takes a token and waits for it if the bucket is empty.
 */
public final class WriteRateLimiter {

  private final TokenBucket bucket;

  /**
   * A limiter with a full bucket.
   *
   * @param writesPerSecond the sustained rate
   * @param burst how many writes may go at once after a quiet period
   */
  public WriteRateLimiter(double writesPerSecond, int burst) {
    this.bucket = new TokenBucket(writesPerSecond, burst, System.nanoTime());
  }

  /**
   * Waits for a token.
   *
   * @throws InterruptedException when interrupted while waiting
   */
  public void acquire() throws InterruptedException {
    long wait;
    synchronized (bucket) {
      wait = bucket.reserve(System.nanoTime());
    }
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }
}
