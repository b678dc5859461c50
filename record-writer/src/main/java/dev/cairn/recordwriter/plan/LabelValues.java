package dev.cairn.recordwriter.plan;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Kubernetes label syntax: keys are an optional DNS subdomain prefix and a name of at most 63
 * characters; values are empty or at most 63 characters of letters, digits, {@code -}, {@code _}
 * and {@code .}, starting and ending with a letter or digit. A value that breaks these rules is
 * shortened and made unique with a hash rather than refused, so a label can always be written.
 */
public final class LabelValues {

  /** The longest label value and label name. */
  public static final int MAX_LENGTH = 63;

  private static final Pattern VALUE =
      Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
  private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final int HASH_LENGTH = 8;

  private LabelValues() {}

  /** True when the text is a valid label value. */
  public static boolean isValidValue(String value) {
    return value != null && value.length() <= MAX_LENGTH && VALUE.matcher(value).matches();
  }

  /** True when the text is a valid label key ({@code [prefix/]name}). */
  public static boolean isValidKey(String key) {
    if (key == null || key.isEmpty()) {
      return false;
    }
    int slash = key.lastIndexOf('/');
    String name = slash < 0 ? key : key.substring(slash + 1);
    if (name.length() > MAX_LENGTH || !NAME.matcher(name).matches()) {
      return false;
    }
    return slash < 0 || ObjectNames.isSubdomain(key.substring(0, slash));
  }

  /**
   * The value itself when valid; otherwise a valid value made from it: characters outside the
   * alphabet become {@code -}, the text is cut to leave room, and {@code -} plus the first eight
   * hex digits of the SHA-256 of the original value are appended, so distinct inputs stay distinct.
   */
  public static String sanitise(String value) {
    if (value == null) {
      return "";
    }
    if (isValidValue(value)) {
      return value;
    }
    StringBuilder sb = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_'
              || c == '.';
      sb.append(ok ? c : '-');
    }
    String head = sb.substring(0, Math.min(sb.length(), MAX_LENGTH - HASH_LENGTH - 1));
    head = trimToAlphanumeric(head);
    String hash = hash(value);
    return head.isEmpty() ? hash : head + "-" + hash;
  }

  private static String trimToAlphanumeric(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && !Character.isLetterOrDigit(s.charAt(start))) {
      start++;
    }
    while (end > start && !Character.isLetterOrDigit(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(start, end);
  }

  private static String hash(String value) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, HASH_LENGTH);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }
}
