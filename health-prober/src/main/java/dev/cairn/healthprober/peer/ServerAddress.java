package dev.cairn.healthprober.peer;

import dev.cairn.commonmodel.validation.IpLiteral;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.Optional;

/**
 * The address of a DNS server: an IP literal and a port. Host names are rejected on purpose: a
 * prober that resolves its peers' names through the system resolver would depend on the very DNS it
 * is probing.
 *
 * <p>Accepted text forms: {@code 192.0.2.1}, {@code 192.0.2.1:5353}, {@code 2001:db8::1}, {@code
 * [2001:db8::1]} and {@code [2001:db8::1]:5353}; a missing port means the default given to {@link
 * #parse}. {@link #toString()} is canonical ({@code 192.0.2.1:53}, {@code [2001:db8::1]:53}).
 */
public final class ServerAddress implements Comparable<ServerAddress> {

  /** The DNS port. */
  public static final int DNS_PORT = 53;

  private final IpLiteral ip;
  private final int port;
  private final InetSocketAddress socketAddress;
  private final String text; // toString() is asked for with every probe outcome

  private ServerAddress(IpLiteral ip, int port) {
    this.ip = Objects.requireNonNull(ip, "ip");
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("port must be 1..65535, got " + port);
    }
    this.port = port;
    try {
      // A validated literal: getByName parses it and never queries DNS.
      this.socketAddress = new InetSocketAddress(InetAddress.getByName(ip.text()), port);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("not an IP literal: " + ip.text(), e);
    }
    this.text =
        ip.family() == IpLiteral.Family.IPV6
            ? "[" + ip.text() + "]:" + port
            : ip.text() + ":" + port;
  }

  /** The server at an IP literal and port. */
  public static ServerAddress of(IpLiteral ip, int port) {
    return new ServerAddress(ip, port);
  }

  /**
   * Parses {@code ip}, {@code ip:port}, {@code [v6]} or {@code [v6]:port}; surrounding spaces are
   * ignored.
   *
   * @param text the text as configured
   * @param defaultPort the port when none is written
   * @return the address, or a reason why the text is not one
   */
  public static Result parse(String text, int defaultPort) {
    if (text == null || text.isBlank()) {
      return Result.error("server address is empty");
    }
    String s = text.strip();
    String host;
    String portText = null;
    if (s.startsWith("[")) {
      int close = s.indexOf(']');
      if (close < 0) {
        return Result.error("'[' without a closing ']'");
      }
      host = s.substring(1, close);
      String rest = s.substring(close + 1);
      if (!rest.isEmpty()) {
        if (!rest.startsWith(":")) {
          return Result.error("unexpected text after ']'");
        }
        portText = rest.substring(1);
      }
      if (!IpLiteral.isIpv6(host)) {
        return Result.error("'" + host + "' in brackets is not an IPv6 literal");
      }
    } else if (s.indexOf(':') != s.lastIndexOf(':')) {
      host = s; // several colons: a bare IPv6 literal, no port
    } else {
      int colon = s.indexOf(':');
      host = colon < 0 ? s : s.substring(0, colon);
      portText = colon < 0 ? null : s.substring(colon + 1);
    }
    Optional<IpLiteral> ip = IpLiteral.parse(host);
    if (ip.isEmpty()) {
      return Result.error(
          "'" + host + "' is not an IP address literal (host names are not resolved here)");
    }
    int port = defaultPort;
    if (portText != null) {
      if (portText.isEmpty()
          || portText.length() > 5
          || !portText.chars().allMatch(Character::isDigit)) {
        return Result.error("port '" + portText + "' is not a number");
      }
      port = Integer.parseInt(portText);
      if (port < 1 || port > 65_535) {
        return Result.error("port " + port + " is not in 1..65535");
      }
    }
    return new Result(new ServerAddress(ip.get(), port), null);
  }

  /**
   * Parses like {@link #parse} and throws when the text is not an address.
   *
   * @param field the configuration field, named in the error
   */
  public static ServerAddress require(String field, String text, int defaultPort) {
    Result r = parse(text, defaultPort);
    if (r.error() != null) {
      throw new IllegalArgumentException(field + "='" + text + "': " + r.error());
    }
    return r.address();
  }

  /** The IP literal. */
  public IpLiteral ip() {
    return ip;
  }

  /** The port. */
  public int port() {
    return port;
  }

  /** The socket address (never resolved: built from the literal). */
  public InetSocketAddress socketAddress() {
    return socketAddress;
  }

  /** The same IP on another port. */
  public ServerAddress withPort(int newPort) {
    return newPort == port ? this : new ServerAddress(ip, newPort);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ServerAddress other && ip.equals(other.ip) && port == other.port;
  }

  @Override
  public int hashCode() {
    return ip.hashCode() * 31 + port;
  }

  @Override
  public int compareTo(ServerAddress o) {
    int c = ip.family().compareTo(o.ip.family());
    if (c == 0) {
      c = ip.text().compareTo(o.ip.text());
    }
    return c != 0 ? c : Integer.compare(port, o.port);
  }

  @Override
  public String toString() {
    return text;
  }

  /**
   * The outcome of {@link #parse}: an address or an error, never both.
   *
   * @param address the address, {@code null} on error
   * @param error why the text is not an address, {@code null} on success
   */
  public record Result(ServerAddress address, String error) {
    static Result error(String reason) {
      return new Result(null, reason);
    }
  }
}
