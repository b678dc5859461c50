package dev.cairn.commonmodel.validation;

import java.util.Optional;

/** Bounds of a DNS TTL in seconds (RFC 2181 §8: an unsigned 31-bit number). */
public final class Ttl {

  /** The smallest TTL Cairn publishes: 0 would mean "do not cache" and defeat negative caches. */
  public static final long MIN_SECONDS = 1;

  /** The largest TTL RFC 2181 §8 allows. */
  public static final long MAX_SECONDS = 2_147_483_647L;

  private Ttl() {}

  /** Checks a TTL against {@link #MIN_SECONDS}..{@link #MAX_SECONDS}. */
  public static Optional<Problem> check(String field, long seconds) {
    return check(field, seconds, MIN_SECONDS, MAX_SECONDS);
  }

  /** Checks a TTL against the given inclusive bounds. */
  public static Optional<Problem> check(String field, long seconds, long min, long max) {
    if (seconds < min || seconds > max) {
      return Optional.of(
          new Problem(
              field,
              Long.toString(seconds),
              "TTL must be between " + min + " and " + max + " seconds"));
    }
    return Optional.empty();
  }

  /**
   * Parses a TTL written as decimal digits, with no sign, spaces or unit.
   *
   * @return the value, or empty when the text is not such a number or is out of bounds
   */
  public static Optional<Long> parse(String text) {
    if (text == null || text.isEmpty() || text.length() > 10) {
      return Optional.empty();
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return Optional.empty();
      }
    }
    long value = Long.parseLong(text);
    return value >= MIN_SECONDS && value <= MAX_SECONDS ? Optional.of(value) : Optional.empty();
  }
}
