package dev.cairn.commonmodel.codec;

import java.nio.charset.StandardCharsets;

/**
 * The contract version carried by every message in the {@value #HEADER} header, as {@code
 * <major>.<minor>}. Minor versions are additive; a consumer that meets a newer major version stops
 * reading that topic rather than misreading it.
 *
 * @param major incremented on a breaking change (which also gets a new topic name)
 * @param minor incremented on an additive change
 */
public record SchemaVersion(int major, int minor) {

  /** The Kafka header that carries the version. */
  public static final String HEADER = "cairn-schema-version";

  /** The version this build writes and fully understands. */
  public static final SchemaVersion CURRENT = new SchemaVersion(1, 4);

  public SchemaVersion {
    if (major < 0 || minor < 0) {
      throw new IllegalArgumentException("version parts must not be negative");
    }
  }

  /**
   * Parses {@code <major>.<minor>} (a bare major means minor 0).
   *
   * @throws IllegalArgumentException when the text is not such a version
   */
  public static SchemaVersion parse(String text) {
    if (text == null || !text.matches("[0-9]{1,6}(\\.[0-9]{1,6})?")) {
      throw new IllegalArgumentException("'" + text + "' is not a schema version <major>.<minor>");
    }
    int dot = text.indexOf('.');
    return dot < 0
        ? new SchemaVersion(Integer.parseInt(text), 0)
        : new SchemaVersion(
            Integer.parseInt(text.substring(0, dot)), Integer.parseInt(text.substring(dot + 1)));
  }

  /** Parses the UTF-8 bytes of a header value; a header without value is not a version. */
  public static SchemaVersion parse(byte[] header) {
    return parse(header == null ? null : new String(header, StandardCharsets.UTF_8));
  }

  /** True when a consumer built at this version can read messages of {@code other}. */
  public boolean canRead(SchemaVersion other) {
    return other.major <= major;
  }

  /** The UTF-8 header value. */
  public byte[] toHeader() {
    return toString().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }
}
