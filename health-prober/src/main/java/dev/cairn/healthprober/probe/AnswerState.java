package dev.cairn.healthprober.probe;

import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the prober knows about one (host, peer): the latest status, the peer's last good answer, the
 * timing of success and failure, and the record last handed out for publishing.
 *
 * @param status the latest status
 * @param ipv4 the IPv4 targets of the last reachable answer
 * @param ipv6 the IPv6 targets of the last reachable answer
 * @param ttlSeconds the TTL of the last reachable answer, {@code null} without records
 * @param server the server that answered last, or was last asked
 * @param lastSuccess when the peer last answered (OK, NXDOMAIN, NODATA), {@code null} if never
 * @param failingSince when the current run of unreachable results began, {@code null} if reachable
 * @param published the record last handed out for publishing, {@code null} if none
 */
public record AnswerState(
    ProbeStatus status,
    List<String> ipv4,
    List<String> ipv6,
    Long ttlSeconds,
    String server,
    Instant lastSuccess,
    Instant failingSince,
    PeerAnswer published) {

  public AnswerState {
    Objects.requireNonNull(status, "status");
    ipv4 = List.copyOf(ipv4);
    ipv6 = List.copyOf(ipv6);
  }

  /**
   * The state a published record stands for, e.g. one read back from the topic after a restart, so
   * that {@code lastSuccess} and {@code failingSince} carry over.
   */
  public static AnswerState of(PeerAnswer published) {
    return new AnswerState(
        published.status(),
        published.ipv4(),
        published.ipv6(),
        published.ttlSeconds(),
        published.server(),
        published.lastSuccess(),
        published.failingSince(),
        published);
  }
}
