package dev.cairn.dnsresponder.zone;

import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.Problem;
import java.util.Optional;

/**
 * DNS names as this server stores them: lower case, no trailing dot, labels of letters, digits,
 * {@code -} and {@code _} (service labels such as {@code _acme-challenge} are names, though not
 * host names), 1 to 63 octets each, 253 in all. Wildcards are not served, so {@code *} is refused
 * rather than published as a literal label.
 */
final class OwnerNames {

  private OwnerNames() {}

  /** Lower-cases and strips one trailing dot. */
  static String normalise(String name) {
    return Hostnames.normalise(name);
  }

  /** The problem with {@code raw} as an owner or CNAME target name, or empty. */
  static Optional<Problem> check(String field, String raw) {
    if (raw == null || raw.isEmpty()) {
      return Optional.of(new Problem(field, raw, "the name is empty"));
    }
    String name = normalise(raw);
    if (name.isEmpty()) {
      return Optional.of(new Problem(field, raw, "the name is only a dot"));
    }
    if (name.length() > Hostnames.MAX_NAME) {
      return Optional.of(
          new Problem(field, raw, "the name is longer than " + Hostnames.MAX_NAME + " octets"));
    }
    int start = 0;
    while (start <= name.length()) {
      int end = name.indexOf('.', start);
      if (end < 0) {
        end = name.length();
      }
      int length = end - start;
      if (length == 0) {
        return Optional.of(new Problem(field, raw, "the name has an empty label"));
      }
      if (length > Hostnames.MAX_LABEL) {
        return Optional.of(
            new Problem(field, raw, "a label is longer than " + Hostnames.MAX_LABEL + " octets"));
      }
      if (length == 1 && name.charAt(start) == '*') {
        return Optional.of(new Problem(field, raw, "wildcard names are not served"));
      }
      for (int i = start; i < end; i++) {
        char c = name.charAt(i);
        boolean ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!ok) {
          return Optional.of(
              new Problem(
                  field,
                  raw,
                  "the character '" + c + "' is not allowed; use letters, digits, '-' and '_'"));
        }
      }
      start = end + 1;
    }
    return Optional.empty();
  }
}
