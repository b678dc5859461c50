package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;

/**
 * Recognises host names and IPv4 literals that are already valid and in canonical form, so that the
 * common case skips the general parsers without allocating: a name for which {@link
 * #isCanonicalHostname} holds passes {@link Hostnames#check} and {@link Hostnames#checkPattern} and
 * {@link Hostnames#normalise} returns it unchanged; a text for which {@link #isCanonicalIpv4} holds
 * is exactly what {@link IpLiteral#isIpv4} accepts, and is its own canonical text. Anything else
 * goes through those, which name the problem.
 */
public final class CanonicalText {

  private CanonicalText() {}

  /**
   * True when {@code text} is labels of 1 to 63 lower-case ASCII letters, digits and hyphens,
   * neither starting nor ending with a hyphen, separated by single dots, at most 253 octets in all,
   * without a trailing dot.
   */
  public static boolean isCanonicalHostname(String text) {
    int length = text.length();
    if (length == 0 || length > Hostnames.MAX_NAME) {
      return false;
    }
    int labelStart = 0;
    for (int i = 0; i <= length; i++) {
      char c = i < length ? text.charAt(i) : '.';
      if (c == '.') {
        int label = i - labelStart;
        if (label == 0
            || label > Hostnames.MAX_LABEL
            || text.charAt(labelStart) == '-'
            || text.charAt(i - 1) == '-') {
          return false;
        }
        labelStart = i + 1;
      } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
        return false;
      }
    }
    return true;
  }

  /**
   * True when {@code text} is a strict dotted quad, as {@link IpLiteral#isIpv4} decides: four
   * decimal octets of at most 255 without leading zeros. Such a text is its own canonical form.
   */
  public static boolean isCanonicalIpv4(String text) {
    if (text == null) {
      return false;
    }
    int parts = 0;
    int value = -1;
    int digits = 0;
    for (int i = 0; i <= text.length(); i++) {
      char c = i < text.length() ? text.charAt(i) : '.';
      if (c == '.') {
        if (digits == 0 || parts > 3) {
          return false;
        }
        parts++;
        value = -1;
        digits = 0;
      } else if (c >= '0' && c <= '9') {
        if (digits > 0 && value == 0) {
          return false; // a leading zero
        }
        value = (value < 0 ? 0 : value * 10) + (c - '0');
        digits++;
        if (value > 255) {
          return false;
        }
      } else {
        return false;
      }
    }
    return parts == 4;
  }
}
