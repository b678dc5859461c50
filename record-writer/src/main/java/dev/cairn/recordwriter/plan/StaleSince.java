package dev.cairn.recordwriter.plan;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The text form of the {@value Ownership#STALE_SINCE_ANNOTATION} annotation, compatible with
 * k8s-direct-dns: written in UTC like Go's {@code time.RFC3339Nano} (fraction with trailing zeros
 * removed, none when whole seconds: {@code 2026-03-14T12:00:00Z}, {@code 2026-03-14T12:00:01.5Z}),
 * read as RFC 3339 with an optional fraction of up to nine digits and any offset.
 */
public final class StaleSince {

  private static final Pattern RFC3339 =
      Pattern.compile(
          "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?"
              + "(Z|[+-][0-9]{2}:[0-9]{2})");

  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

  private StaleSince() {}

  /** Formats an instant as Go's RFC3339Nano in UTC. */
  public static String format(Instant instant) {
    StringBuilder sb = new StringBuilder(SECONDS.format(instant));
    int nanos = instant.getNano();
    if (nanos != 0) {
      String fraction = String.format("%09d", nanos);
      int end = fraction.length();
      while (fraction.charAt(end - 1) == '0') {
        end--;
      }
      sb.append('.').append(fraction, 0, end);
    }
    return sb.append('Z').toString();
  }

  /** Parses an annotation value (surrounding spaces ignored); empty if it is not RFC 3339. */
  public static Optional<Instant> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    String t = text.strip();
    if (!RFC3339.matcher(t).matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(t).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
