package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;

/**
 * Normalises a DNS resolver address written {@code host[:port]} exactly as direct-dns does (§9), so
 * that the engine and the health-prober derive the same {@code <server>|<hostname>} key of {@code
 * cairn.health.hostname-resolutions.v1}: trim; empty stays empty; text containing {@code :} is kept
 * as is; otherwise {@code :53} is appended.
 *
 * <p>A bare IPv6 address ({@code 2606:4700::1111}) therefore keeps its colons; direct-dns could
 * never dial it, the prober dials it at port 53 (see {@code docs/compatibility.md}).
 */
public final class ResolverAddress {

  /** The default port. */
  public static final int DNS_PORT = 53;

  private ResolverAddress() {}

  /** The normalised address; empty for empty input. */
  public static String normalise(String text) {
    if (text == null) {
      return "";
    }
    String s = text.strip();
    if (s.isEmpty() || s.indexOf(':') >= 0) {
      return s;
    }
    return s + ":" + DNS_PORT;
  }

  /**
   * True when a normalised address can be dialled: {@code host:port} with a valid host name or IPv4
   * literal, {@code [ipv6]:port}, or a bare IPv6 literal (port 53), with a port from 1 to 65535.
   */
  public static boolean isValid(String normalised) {
    if (normalised == null || normalised.isEmpty()) {
      return false;
    }
    if (IpLiteral.isIpv6(normalised)) {
      return true;
    }
    int colon = normalised.lastIndexOf(':');
    if (colon <= 0 || !isPort(normalised.substring(colon + 1))) {
      return false;
    }
    String host = normalised.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      return IpLiteral.isIpv6(host.substring(1, host.length() - 1));
    }
    return IpLiteral.isIpv4(host) || Hostnames.isValid(host);
  }

  private static boolean isPort(String text) {
    if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(Character::isDigit)) {
      return false;
    }
    int port = Integer.parseInt(text);
    return port > 0 && port <= 65535;
  }
}
