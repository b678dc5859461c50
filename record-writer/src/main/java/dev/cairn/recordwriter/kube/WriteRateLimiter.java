package dev.cairn.recordwriter.kube;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Spaces API writes with a {@link TokenBucket} ({@code writer.rate-limit.*}): every create, update
 * and delete takes a token and waits for it if the bucket is empty. Thread-safe: however many
 * threads acquire, the tokens handed out follow one bucket.
 */
public final class WriteRateLimiter {

  /** How the limiter waits: sleeps, or (in tests) moves a fake clock on. */
  @FunctionalInterface
  public interface Sleeper {
    /** Waits {@code nanos} nanoseconds. */
    void sleep(long nanos) throws InterruptedException;
  }

  private final TokenBucket bucket;
  private final LongSupplier nanoTime;
  private final Sleeper sleeper;

  /**
   * A limiter with a full bucket, on the system's monotonic clock.
   *
   * @param writesPerSecond the sustained rate
   * @param burst how many writes may go at once after a quiet period
   */
  public WriteRateLimiter(double writesPerSecond, int burst) {
    this(writesPerSecond, burst, System::nanoTime, TimeUnit.NANOSECONDS::sleep);
  }

  /**
   * A limiter with a full bucket on a given clock.
   *
   * @param writesPerSecond the sustained rate
   * @param burst how many writes may go at once after a quiet period
   * @param nanoTime the monotonic time in nanoseconds
   * @param sleeper how to wait for a token
   */
  public WriteRateLimiter(
      double writesPerSecond, int burst, LongSupplier nanoTime, Sleeper sleeper) {
    this.nanoTime = nanoTime;
    this.sleeper = sleeper;
    this.bucket = new TokenBucket(writesPerSecond, burst, nanoTime.getAsLong());
  }

  /**
   * Waits for a token.
   *
   * @throws InterruptedException when interrupted while waiting
   */
  public void acquire() throws InterruptedException {
    long wait;
    synchronized (bucket) {
      wait = bucket.reserve(nanoTime.getAsLong());
    }
    if (wait > 0) {
      sleeper.sleep(wait);
    }
  }
}
