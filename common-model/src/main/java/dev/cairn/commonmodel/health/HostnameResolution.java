package dev.cairn.commonmodel.health;

import dev.cairn.commonmodel.Copies;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The resolution of a hostname target (for routes with {@code resolve-target-hostnames}). Published
 * on {@code cairn.health.hostname-resolutions.v1}, keyed {@code <server>|<hostname>}.
 *
 * @param hostname the resolved name, normalised
 * @param server the resolver used, {@code address:port}
 * @param status the outcome of the latest lookup
 * @param ipv4 the last good A answers, sorted
 * @param ipv6 the last good AAAA answers, sorted
 * @param resolvedAt when the last good answer arrived, {@code null} if never
 * @param expiresAt when the last good answer's TTL runs out
 * @param stale true when the latest lookup failed and the last good answer is being kept
 */
public record HostnameResolution(
    String hostname,
    String server,
    ProbeStatus status,
    List<String> ipv4,
    List<String> ipv6,
    Instant resolvedAt,
    Instant expiresAt,
    boolean stale) {

  public HostnameResolution {
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(status, "status");
    ipv4 = Copies.list(ipv4);
    ipv6 = Copies.list(ipv6);
  }

  /** The Kafka key: {@code <server>|<hostname>}. */
  public String key() {
    return server + "|" + hostname;
  }
}
