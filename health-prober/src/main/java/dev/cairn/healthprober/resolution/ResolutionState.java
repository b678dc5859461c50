package dev.cairn.healthprober.resolution;

import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.ProbeStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the prober knows about one (resolver, hostname).
 *
 * @param status the outcome of the latest lookup
 * @param ipv4 the last good IPv4 answer
 * @param ipv6 the last good IPv6 answer
 * @param resolvedAt when the last good answer arrived, {@code null} if never
 * @param expiresAt when the last good answer's (clamped) TTL runs out, {@code null} if never
 * @param stale true when the latest lookup failed and the last good answer is kept
 * @param failures lookups failed in a row
 * @param nextAttempt when to look it up again
 * @param published the record last handed out for publishing, {@code null} if none
 */
public record ResolutionState(
    ProbeStatus status,
    List<String> ipv4,
    List<String> ipv6,
    Instant resolvedAt,
    Instant expiresAt,
    boolean stale,
    int failures,
    Instant nextAttempt,
    HostnameResolution published) {

  public ResolutionState {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(nextAttempt, "nextAttempt");
    ipv4 = List.copyOf(ipv4);
    ipv6 = List.copyOf(ipv6);
  }

  /**
   * The state a published record stands for (read back after a restart); it is due for a lookup at
   * once.
   */
  public static ResolutionState of(HostnameResolution published, Instant now) {
    return new ResolutionState(
        published.status(),
        published.ipv4(),
        published.ipv6(),
        published.resolvedAt(),
        published.expiresAt(),
        published.stale(),
        0,
        now,
        published);
  }
}
