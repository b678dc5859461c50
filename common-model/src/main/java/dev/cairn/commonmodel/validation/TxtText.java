package dev.cairn.commonmodel.validation;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The text of a TXT record as DNS carries it: its UTF-8 octets in character-strings of at most 255
 * octets, each after a length octet (RFC 1035 §3.3.14), so {@code n} octets of text take {@code n +
 * ceil(n / 255)} octets of record data (one empty string for empty text).
 */
public final class TxtText {

  /**
   * The most record data a TXT target may take: a reply with it, its header, its question (a name
   * of up to 255 octets), its owner and the OPT record fits the 65,535 octets of a DNS message.
   * Larger text cannot be served at all: the record's length field itself overflows at 65,535.
   */
  public static final int MAX_RDATA_OCTETS = 65_000;

  private TxtText() {}

  /** The octets of record data {@code text} takes. */
  public static int rdataOctets(String text) {
    return rdataOctets(text.getBytes(StandardCharsets.UTF_8).length);
  }

  private static int rdataOctets(int textOctets) {
    return textOctets + Math.max(1, (textOctets + 254) / 255);
  }

  /** A problem naming {@code field} when {@code text} takes more than {@link #MAX_RDATA_OCTETS}. */
  public static Optional<Problem> check(String field, String text) {
    if (text == null) {
      return Optional.empty();
    }
    int octets = text.getBytes(StandardCharsets.UTF_8).length;
    int rdata = rdataOctets(octets);
    if (rdata <= MAX_RDATA_OCTETS) {
      return Optional.empty();
    }
    return Optional.of(
        new Problem(
            field,
            text.length() > 40 ? text.substring(0, 40) + "…" : text,
            "TXT text of "
                + octets
                + " octets takes "
                + rdata
                + " octets of record data; a DNS record served in a reply holds at most "
                + MAX_RDATA_OCTETS));
  }
}
