package dev.cairn.healthprober.resolution;

import java.util.Objects;

/**
 * One hostname to resolve through one resolver. {@link #key()} is the Kafka key of its {@code
 * HostnameResolution}.
 *
 * @param server the resolver as normalised by {@link HostnameTargets#normaliseServer}
 * @param hostname the host name, normalised (lower case, no trailing dot)
 */
public record ResolutionKey(String server, String hostname) implements Comparable<ResolutionKey> {

  public ResolutionKey {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(hostname, "hostname");
  }

  /** The Kafka key: {@code <server>|<hostname>}. */
  public String key() {
    return server + "|" + hostname;
  }

  /** Parses a key written by {@link #key()}; {@code null} when it is not one. */
  public static ResolutionKey parse(String key) {
    int bar = key == null ? -1 : key.lastIndexOf('|');
    if (bar <= 0 || bar == key.length() - 1) {
      return null;
    }
    return new ResolutionKey(key.substring(0, bar), key.substring(bar + 1));
  }

  @Override
  public int compareTo(ResolutionKey o) {
    int c = server.compareTo(o.server);
    return c != 0 ? c : hostname.compareTo(o.hostname);
  }
}
