package dev.cairn.commonmodel.health;

import dev.cairn.commonmodel.Copies;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What one peer cluster's DNS server answered for {@code localtargets-<host>}. Published on {@code
 * cairn.health.peer-answers.v1}, keyed {@code PeerAnswer/<geoTag>/<host>}.
 *
 * @param host the Gslb host (without the {@code localtargets-} prefix)
 * @param geoTag the peer's geo tag
 * @param server the {@code address:port} that answered (or was last asked)
 * @param status the outcome of the latest probe
 * @param ipv4 the A targets of the latest successful answer, sorted
 * @param ipv6 the AAAA targets of the latest successful answer, sorted
 * @param ttlSeconds the smallest TTL of the answer's records, {@code null} without records
 * @param lastSuccess when the peer last answered (OK, NXDOMAIN or NODATA), {@code null} if never
 * @param failingSince when the current run of unreachable results began, {@code null} if reachable
 * @param observedAt when this state was published
 */
public record PeerAnswer(
    String host,
    String geoTag,
    String server,
    ProbeStatus status,
    List<String> ipv4,
    List<String> ipv6,
    Long ttlSeconds,
    Instant lastSuccess,
    Instant failingSince,
    Instant observedAt) {

  public PeerAnswer {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(geoTag, "geoTag");
    Objects.requireNonNull(status, "status");
    ipv4 = Copies.list(ipv4);
    ipv6 = Copies.list(ipv6);
  }

  /** The Kafka key: {@code PeerAnswer/<geoTag>/<host>}. */
  public String key() {
    return "PeerAnswer/" + geoTag + "/" + host;
  }
}
