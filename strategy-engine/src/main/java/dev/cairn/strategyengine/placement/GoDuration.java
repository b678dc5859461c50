package dev.cairn.strategyengine.placement;

import java.time.Duration;
import java.util.Optional;

/**
 * Durations written the way direct-dns's flags are written (Go syntax restricted to whole numbers):
 * one or more {@code <digits><unit>} parts with units {@code h}, {@code m} and {@code s} ({@code
 * 90s}, {@code 5m}, {@code 1h30m}), or plain digits meaning seconds. Signs, fractions and other
 * units are refused.
 */
public final class GoDuration {

  private static final long MAX_SECONDS = 10L * 365 * 24 * 3600;

  private GoDuration() {}

  /** The parsed duration, or empty when the text is not such a duration or exceeds ten years. */
  public static Optional<Duration> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    String s = text.strip();
    if (s.isEmpty()) {
      return Optional.empty();
    }
    if (s.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return s.length() > 10 ? Optional.empty() : bounded(Long.parseLong(s));
    }
    long seconds = 0;
    int i = 0;
    String lastUnit = null;
    while (i < s.length()) {
      int start = i;
      while (i < s.length() && Character.isDigit(s.charAt(i))) {
        i++;
      }
      if (i == start || i - start > 10 || i >= s.length()) {
        return Optional.empty();
      }
      long value = Long.parseLong(s.substring(start, i));
      String unit = String.valueOf(s.charAt(i++));
      long factor =
          switch (unit) {
            case "h" -> 3600;
            case "m" -> 60;
            case "s" -> 1;
            default -> -1;
          };
      if (factor < 0 || (lastUnit != null && rank(unit) <= rank(lastUnit))) {
        return Optional.empty();
      }
      lastUnit = unit;
      seconds += value * factor;
      if (seconds > MAX_SECONDS) {
        return Optional.empty();
      }
    }
    return bounded(seconds);
  }

  private static int rank(String unit) {
    return switch (unit) {
      case "h" -> 0;
      case "m" -> 1;
      default -> 2;
    };
  }

  private static Optional<Duration> bounded(long seconds) {
    return seconds > MAX_SECONDS ? Optional.empty() : Optional.of(Duration.ofSeconds(seconds));
  }
}
