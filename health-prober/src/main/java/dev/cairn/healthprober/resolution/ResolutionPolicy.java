package dev.cairn.healthprober.resolution;

import java.time.Duration;
import java.util.Objects;

/**
 * When to resolve a hostname again.
 *
 * @param ttlFloor the shortest time an answer is used before it is resolved again
 * @param ttlCeiling the longest time an answer is used, whatever its TTL
 * @param retryMax the longest wait between attempts while lookups fail (they start at {@code
 *     ttlFloor} and double)
 */
public record ResolutionPolicy(Duration ttlFloor, Duration ttlCeiling, Duration retryMax) {

  public ResolutionPolicy {
    Objects.requireNonNull(ttlFloor, "ttlFloor");
    Objects.requireNonNull(ttlCeiling, "ttlCeiling");
    Objects.requireNonNull(retryMax, "retryMax");
    if (ttlFloor.isNegative() || ttlFloor.isZero()) {
      throw new IllegalArgumentException("resolution TTL floor must be positive, got " + ttlFloor);
    }
    if (ttlCeiling.compareTo(ttlFloor) < 0) {
      throw new IllegalArgumentException(
          "resolution TTL ceiling " + ttlCeiling + " is below the floor " + ttlFloor);
    }
    if (retryMax.compareTo(ttlFloor) < 0) {
      throw new IllegalArgumentException(
          "resolution retry maximum " + retryMax + " is below the TTL floor " + ttlFloor);
    }
  }

  /** How long an answer with this TTL is used: the TTL clamped to floor..ceiling. */
  public Duration lifetime(Long ttlSeconds) {
    Duration ttl = ttlSeconds == null ? ttlFloor : Duration.ofSeconds(Math.max(0, ttlSeconds));
    if (ttl.compareTo(ttlFloor) < 0) {
      return ttlFloor;
    }
    return ttl.compareTo(ttlCeiling) > 0 ? ttlCeiling : ttl;
  }

  /** The wait after the n-th failure in a row (n ≥ 1): floor × 2^(n-1), at most retryMax. */
  public Duration retryAfter(int failures) {
    int shift = Math.max(0, Math.min(failures - 1, 30));
    Duration d = ttlFloor.multipliedBy(1L << shift);
    return d.compareTo(retryMax) > 0 ? retryMax : d;
  }
}
