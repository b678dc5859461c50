package dev.cairn.commonmodel.validation;

import java.util.Optional;

/**
 * RFC 1123 host names as Cairn publishes them.
 *
 * <p>A name is normalised (one trailing dot removed, lower-cased) and then checked: labels of
 * letters, digits and hyphens, 1 to 63 octets, not starting or ending with a hyphen, and at most
 * 253 octets in all. {@link #checkPattern} also allows a leading {@code *} label, as Gateway API
 * route hostnames do.
 */
public final class Hostnames {

  /** The longest label, in octets (RFC 1035 §2.3.4). */
  public static final int MAX_LABEL = 63;

  /** The longest name without the trailing dot, in octets (RFC 1035 §2.3.4, RFC 2181 §11). */
  public static final int MAX_NAME = 253;

  private Hostnames() {}

  /**
   * Lower-cases ASCII letters and strips one trailing dot; {@code null} stays {@code null}. Only
   * ASCII is folded (RFC 4343): {@code toLowerCase} would turn the Kelvin sign U+212A into an ASCII
   * {@code k} and let a non-ASCII name pass the check.
   */
  public static String normalise(String name) {
    if (name == null) {
      return null;
    }
    String n = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    char[] chars = n.toCharArray();
    for (int i = 0; i < chars.length; i++) {
      if (chars[i] >= 'A' && chars[i] <= 'Z') {
        chars[i] = (char) (chars[i] + ('a' - 'A'));
      }
    }
    return new String(chars);
  }

  /**
   * Checks a concrete host name (no wildcard).
   *
   * @param field the field path reported in the problem
   * @param name the name as found
   * @return the problem, or empty when the name is valid
   */
  public static Optional<Problem> check(String field, String name) {
    return check(field, name, false);
  }

  /** Like {@link #check} but also accepts a leading {@code *} label ({@code *.example.com}). */
  public static Optional<Problem> checkPattern(String field, String name) {
    return check(field, name, true);
  }

  /** Returns the normalised name, or throws {@link ValidationException} naming the field. */
  public static String require(String field, String name) {
    Optional<Problem> problem = check(field, name);
    if (problem.isPresent()) {
      throw new ValidationException(problem.get());
    }
    return normalise(name);
  }

  /** True when {@link #check} finds nothing wrong. */
  public static boolean isValid(String name) {
    return check("name", name).isEmpty();
  }

  /** True when {@code name} equals {@code zone} or lies below it (a suffix match on labels). */
  public static boolean isInZone(String name, String zone) {
    String n = normalise(name);
    String z = normalise(zone);
    return n.equals(z) || n.endsWith("." + z);
  }

  private static Optional<Problem> check(String field, String raw, boolean wildcardAllowed) {
    if (raw == null || raw.isEmpty()) {
      return Optional.of(new Problem(field, raw, "host name is empty"));
    }
    if (!raw.equals(raw.strip())) {
      return Optional.of(new Problem(field, raw, "host name has surrounding whitespace"));
    }
    String name = normalise(raw);
    if (name.isEmpty()) {
      return Optional.of(new Problem(field, raw, "host name is only a dot"));
    }
    if (name.length() > MAX_NAME) {
      return Optional.of(
          new Problem(
              field, raw, "host name is " + name.length() + " octets long, more than " + MAX_NAME));
    }
    String[] labels = name.split("\\.", -1);
    for (int i = 0; i < labels.length; i++) {
      String label = labels[i];
      if (label.isEmpty()) {
        return Optional.of(new Problem(field, raw, "host name has an empty label"));
      }
      if (i == 0 && wildcardAllowed && label.equals("*") && labels.length > 1) {
        continue;
      }
      if (label.length() > MAX_LABEL) {
        return Optional.of(
            new Problem(
                field,
                raw,
                "label '"
                    + label
                    + "' is "
                    + label.length()
                    + " octets long, more than "
                    + MAX_LABEL));
      }
      if (label.charAt(0) == '-' || label.charAt(label.length() - 1) == '-') {
        return Optional.of(
            new Problem(field, raw, "label '" + label + "' starts or ends with a hyphen"));
      }
      for (int j = 0; j < label.length(); j++) {
        char c = label.charAt(j);
        boolean ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        if (!ok) {
          return Optional.of(
              new Problem(
                  field,
                  raw,
                  "label '"
                      + label
                      + "' has the character '"
                      + c
                      + "'; only letters, digits and '-' are allowed"));
        }
      }
    }
    return Optional.empty();
  }
}
