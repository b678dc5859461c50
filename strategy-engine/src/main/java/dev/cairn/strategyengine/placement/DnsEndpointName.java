package dev.cairn.strategyengine.placement;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The name of the DNSEndpoint of an HTTPRoute, as direct-dns names it (§8): {@code httproute-} +
 * the route name cut to 44 characters + {@code -} + the first 8 hex digits of SHA-1 over {@code
 * <namespace>/<name>}. At most 63 characters.
 *
 * <p>Cairn's fix: a cut that ends in {@code .} made direct-dns produce {@code .-}, which the API
 * server rejects forever; trailing dots of the cut are dropped. Should the result still not be a
 * DNS-1123 subdomain (only possible for a route name the API server would not accept), the name
 * falls back to {@code httproute-<hash>}, so it is always valid.
 */
public final class DnsEndpointName {

  /** The longest part of the route name kept: 63 - len("httproute--") - 8. */
  public static final int MAX_ROUTE_PART = 44;

  /**
   * One digest per thread, reset by each use: cloning a shared prototype per name cost as much as
   * the hashing itself.
   */
  private static final ThreadLocal<MessageDigest> SHA1 =
      ThreadLocal.withInitial(DnsEndpointName::sha1);

  private static final HexFormat HEX = HexFormat.of();

  private DnsEndpointName() {}

  /** The DNSEndpoint name for the route {@code namespace/name}. */
  public static String forRoute(String namespace, String name) {
    String hash = sha1Prefix(namespace + "/" + name);
    String cut = name.length() > MAX_ROUTE_PART ? name.substring(0, MAX_ROUTE_PART) : name;
    int end = cut.length();
    while (end > 0 && cut.charAt(end - 1) == '.') {
      end--;
    }
    cut = cut.substring(0, end);
    String candidate = "httproute-" + cut + "-" + hash;
    return !cut.isEmpty() && isSubdomain(candidate) ? candidate : "httproute-" + hash;
  }

  /** A DNS-1123 subdomain: dot-separated labels of {@code [a-z0-9-]}, alphanumeric at both ends. */
  static boolean isSubdomain(String name) {
    int labelStart = 0;
    for (int i = 0; i <= name.length(); i++) {
      char c = i < name.length() ? name.charAt(i) : '.';
      if (c == '.') {
        if (i == labelStart || name.charAt(i - 1) == '-' || name.charAt(labelStart) == '-') {
          return false;
        }
        labelStart = i + 1;
      } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
        return false;
      }
    }
    return name.length() <= 253;
  }

  private static String sha1Prefix(String text) {
    byte[] hash = SHA1.get().digest(text.getBytes(StandardCharsets.UTF_8));
    return HEX.formatHex(hash, 0, 4);
  }

  private static MessageDigest sha1() {
    try {
      return MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-1", e);
    }
  }
}
