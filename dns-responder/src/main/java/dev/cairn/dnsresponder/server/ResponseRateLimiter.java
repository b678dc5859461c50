package dev.cairn.dnsresponder.server;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Response rate limiting per client prefix (/24 for IPv4, /56 for IPv6), a token bucket per prefix
 * holding one second of responses. Over the limit, every {@code slip}-th response is sent as an
 * empty truncated reply, so a real client behind the prefix retries over TCP (which is not
 * limited), and the others are dropped; {@code slip} 0 drops them all. Pure: the caller passes the
 * time.
 */
public final class ResponseRateLimiter {

  /** What to do with one response. */
  public enum Decision {
    /** Within the rate: send the response. */
    SEND,
    /** Over the rate, and this one slips: send an empty truncated reply. */
    SLIP,
    /** Over the rate: send nothing. */
    DROP
  }

  private static final long SECOND = 1_000_000_000L;

  private final double perSecond;
  private final int slip;
  private final int maxTracked;
  private final ConcurrentHashMap<Long, Bucket> buckets = new ConcurrentHashMap<>();
  private final AtomicLong lastSweep = new AtomicLong(Long.MIN_VALUE);

  /**
   * @param responsesPerSecond the responses each prefix gets per second (positive)
   * @param slip every how many limited responses one is sent truncated (0: none)
   * @param maxTracked how many prefixes are tracked before idle ones are forgotten
   */
  public ResponseRateLimiter(int responsesPerSecond, int slip, int maxTracked) {
    if (responsesPerSecond < 1 || slip < 0 || maxTracked < 1) {
      throw new IllegalArgumentException("rate, slip and table size must be positive");
    }
    this.perSecond = responsesPerSecond;
    this.slip = slip;
    this.maxTracked = maxTracked;
  }

  /**
   * Decides the fate of one response to {@code client}.
   *
   * @param nowNanos a monotonic time in nanoseconds ({@link System#nanoTime()})
   */
  public Decision check(InetAddress client, long nowNanos) {
    long key = prefix(client);
    Bucket bucket = buckets.get(key);
    if (bucket == null) {
      sweepIfFull(nowNanos);
      bucket = buckets.computeIfAbsent(key, k -> new Bucket(perSecond, nowNanos));
    }
    return bucket.take(perSecond, slip, nowNanos);
  }

  /** Number of prefixes tracked. */
  int tracked() {
    return buckets.size();
  }

  private void sweepIfFull(long nowNanos) {
    if (buckets.size() < maxTracked) {
      return;
    }
    long last = lastSweep.get();
    if (last != Long.MIN_VALUE && nowNanos - last < SECOND) {
      return;
    }
    if (lastSweep.compareAndSet(last, nowNanos)) {
      // A bucket idle for a second is full again: forgetting it changes nothing.
      buckets.values().removeIf(b -> b.idleSince(nowNanos) >= SECOND);
    }
  }

  /** The prefix key: /24 of IPv4 or /56 of IPv6, with the family in a bit no prefix uses. */
  static long prefix(InetAddress address) {
    byte[] b = address.getAddress();
    if (address instanceof Inet4Address) {
      return (1L << 40) | ((b[0] & 0xFFL) << 16) | ((b[1] & 0xFFL) << 8) | (b[2] & 0xFFL);
    }
    long key = 1L << 60;
    for (int i = 0; i < 7; i++) {
      key |= (b[i] & 0xFFL) << (8 * (6 - i));
    }
    return key;
  }

  private static final class Bucket {
    private double tokens;
    private long updated;
    private long limited;

    Bucket(double tokens, long now) {
      this.tokens = tokens;
      this.updated = now;
    }

    synchronized Decision take(double perSecond, int slip, long now) {
      long elapsed = now - updated;
      if (elapsed > 0) {
        tokens = Math.min(perSecond, tokens + elapsed * perSecond / SECOND);
        updated = now;
      }
      if (tokens >= 1) {
        tokens -= 1;
        return Decision.SEND;
      }
      limited++;
      return slip > 0 && limited % slip == 0 ? Decision.SLIP : Decision.DROP;
    }

    synchronized long idleSince(long now) {
      return now - updated;
    }
  }
}
