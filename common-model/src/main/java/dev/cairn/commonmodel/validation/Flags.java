package dev.cairn.commonmodel.validation;

import java.util.Locale;
import java.util.Optional;

/**
 * Boolean annotation values, parsed leniently: {@code true/yes/on/1} and {@code false/no/off/0} in
 * any case, with surrounding spaces ignored. The originals used Go's {@code ParseBool}, so {@code
 * "no"} or {@code "off"} silently meant "enabled"; Cairn reads them as users mean them.
 */
public final class Flags {

  private Flags() {}

  /** The parsed flag, or empty when the text is none of the accepted spellings. */
  public static Optional<Boolean> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    return switch (text.strip().toLowerCase(Locale.ROOT)) {
      case "true", "t", "yes", "y", "on", "1", "enabled" -> Optional.of(Boolean.TRUE);
      case "false", "f", "no", "n", "off", "0", "disabled" -> Optional.of(Boolean.FALSE);
      default -> Optional.empty();
    };
  }
}
