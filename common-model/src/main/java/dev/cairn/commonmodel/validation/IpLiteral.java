package dev.cairn.commonmodel.validation;

import java.util.Objects;
import java.util.Optional;

/**
 * A strictly parsed IP address literal in canonical text form.
 *
 * <p>Parsing never resolves names and accepts only what RFC 791 dotted-quad and RFC 4291 §2.2 text
 * forms allow: {@code 010.0.0.1} (leading zero, octal in some parsers), {@code 1.2.3}, {@code
 * fe80::1%eth0} (zone), {@code [::1]} (brackets), {@code 1.2.3.4:80} and surrounding whitespace are
 * all rejected. IPv6 is canonicalised per RFC 5952 (lower case, longest zero run compressed). An
 * IPv4-mapped IPv6 address ({@code ::ffff:192.0.2.1}) is returned as the IPv4 address it maps, so
 * it is published in an A record with an IPv4 target.
 *
 * @param family the address family
 * @param text the canonical text form
 */
public record IpLiteral(Family family, String text) {

  /** IPv4 or IPv6. */
  public enum Family {
    IPV4("A"),
    IPV6("AAAA");

    private final String recordType;

    Family(String recordType) {
      this.recordType = recordType;
    }

    /** The DNS record type for addresses of this family. */
    public String recordType() {
      return recordType;
    }
  }

  public IpLiteral {
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(text, "text");
  }

  /** Parses an IPv4 or IPv6 literal; empty if the text is not exactly one. */
  public static Optional<IpLiteral> parse(String text) {
    if (text == null || text.isEmpty()) {
      return Optional.empty();
    }
    if (text.indexOf(':') >= 0) {
      int[] groups = parseIpv6Groups(text);
      if (groups == null) {
        return Optional.empty();
      }
      if (isIpv4Mapped(groups)) {
        return Optional.of(
            new IpLiteral(
                Family.IPV4,
                (groups[6] >> 8)
                    + "."
                    + (groups[6] & 0xff)
                    + "."
                    + (groups[7] >> 8)
                    + "."
                    + (groups[7] & 0xff)));
      }
      return Optional.of(new IpLiteral(Family.IPV6, formatIpv6(groups)));
    }
    int[] octets = parseIpv4Octets(text);
    if (octets == null) {
      return Optional.empty();
    }
    return Optional.of(
        new IpLiteral(
            Family.IPV4, octets[0] + "." + octets[1] + "." + octets[2] + "." + octets[3]));
  }

  /** True if the text is a strict IPv4 literal. */
  public static boolean isIpv4(String text) {
    return text != null && text.indexOf(':') < 0 && parseIpv4Octets(text) != null;
  }

  /** True if the text is a strict IPv6 literal (IPv4-mapped included). */
  public static boolean isIpv6(String text) {
    return text != null && text.indexOf(':') >= 0 && parseIpv6Groups(text) != null;
  }

  /**
   * Parses a literal or reports a problem naming the field and value.
   *
   * @param field the field path used in the problem
   */
  public static IpLiteral require(String field, String text) {
    return parse(text)
        .orElseThrow(
            () ->
                new ValidationException(
                    new Problem(field, text, "not a strict IPv4 or IPv6 address literal")));
  }

  private static int[] parseIpv4Octets(String text) {
    int[] octets = new int[4];
    int part = 0;
    int value = -1;
    int digits = 0;
    for (int i = 0; i <= text.length(); i++) {
      char c = i < text.length() ? text.charAt(i) : '.';
      if (c == '.') {
        if (digits == 0 || part > 3) {
          return null;
        }
        octets[part++] = value;
        value = -1;
        digits = 0;
      } else if (c >= '0' && c <= '9') {
        if (digits > 0 && value == 0) {
          return null; // leading zero
        }
        value = (value < 0 ? 0 : value * 10) + (c - '0');
        digits++;
        if (value > 255) {
          return null;
        }
      } else {
        return null;
      }
    }
    return part == 4 ? octets : null;
  }

  private static int[] parseIpv6Groups(String text) {
    int doubleColon = text.indexOf("::");
    if (doubleColon >= 0 && text.indexOf("::", doubleColon + 1) >= 0) {
      return null;
    }
    String head = doubleColon >= 0 ? text.substring(0, doubleColon) : text;
    String tail = doubleColon >= 0 ? text.substring(doubleColon + 2) : "";
    int[] headGroups = parseGroupList(head, doubleColon < 0);
    if (headGroups == null) {
      return null;
    }
    int[] tailGroups = doubleColon >= 0 ? parseGroupList(tail, true) : new int[0];
    if (tailGroups == null) {
      return null;
    }
    int total = headGroups.length + tailGroups.length;
    if (doubleColon < 0 ? total != 8 : total > 7) {
      return null;
    }
    if (doubleColon >= 0 && headGroups.length > 0 && endsWithIpv4(head)) {
      return null; // an embedded IPv4 may only come last
    }
    int[] groups = new int[8];
    System.arraycopy(headGroups, 0, groups, 0, headGroups.length);
    System.arraycopy(tailGroups, 0, groups, 8 - tailGroups.length, tailGroups.length);
    return groups;
  }

  private static boolean endsWithIpv4(String s) {
    return s.indexOf('.') >= 0;
  }

  /** Parses {@code h:h:h} (possibly ending in a dotted IPv4 when allowed); empty text is none. */
  private static int[] parseGroupList(String text, boolean ipv4AllowedLast) {
    if (text.isEmpty()) {
      return new int[0];
    }
    String[] parts = text.split(":", -1);
    boolean lastIsIpv4 = parts[parts.length - 1].indexOf('.') >= 0;
    if (lastIsIpv4 && !ipv4AllowedLast) {
      return null;
    }
    int[] groups = new int[parts.length + (lastIsIpv4 ? 1 : 0)];
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      if (i == parts.length - 1 && lastIsIpv4) {
        int[] octets = parseIpv4Octets(part);
        if (octets == null) {
          return null;
        }
        groups[i] = (octets[0] << 8) | octets[1];
        groups[i + 1] = (octets[2] << 8) | octets[3];
        continue;
      }
      if (part.isEmpty() || part.length() > 4) {
        return null;
      }
      int value = 0;
      for (int j = 0; j < part.length(); j++) {
        int digit = Character.digit(part.charAt(j), 16);
        if (digit < 0 || part.charAt(j) > 'f') {
          return null;
        }
        value = value * 16 + digit;
      }
      groups[i] = value;
    }
    return groups;
  }

  private static boolean isIpv4Mapped(int[] g) {
    return g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xffff;
  }

  private static String formatIpv6(int[] groups) {
    int bestStart = -1;
    int bestLength = 0;
    for (int i = 0; i < 8; ) {
      if (groups[i] != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < 8 && groups[j] == 0) {
        j++;
      }
      if (j - i > bestLength) {
        bestStart = i;
        bestLength = j - i;
      }
      i = j;
    }
    if (bestLength < 2) {
      bestStart = -1; // RFC 5952 §4.2.2: a single 0 group is not compressed
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        sb.append("::");
        i += bestLength - 1;
        continue;
      }
      if (!sb.isEmpty() && sb.charAt(sb.length() - 1) != ':') {
        sb.append(':');
      }
      sb.append(Integer.toHexString(groups[i]));
    }
    return sb.toString();
  }
}
