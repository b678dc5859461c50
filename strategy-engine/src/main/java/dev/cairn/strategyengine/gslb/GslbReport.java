package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.Copies;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The full story of a Gslb decision, for the explain API: per host the local health and targets,
 * every peer's answer and how it counted, the strategy branch taken and the final targets. Holds
 * instants only (never ages), so equal inputs give an equal report; the API adds the ages.
 *
 * @param gslb the Gslb key, {@code Gslb/<ns>/<name>}
 * @param geoTag this cluster's geo tag ({@code null} when unset)
 * @param strategy {@code spec.strategy.type} as written
 * @param ttlSeconds the record TTL applied, {@code null} when the spec is invalid
 * @param splitBrainThresholdSeconds the threshold applied, {@code null} when the spec is invalid
 * @param decided false when the Gslb was not decided (invalid spec, no geo tag): its previous
 *     decision stays
 * @param localTargetsSource where the local targets came from
 * @param localTargets the local targets, IPv4 first
 * @param hosts one entry per host in the load-balanced zones, sorted by host
 * @param problems every problem, one line each
 */
public record GslbReport(
    String gslb,
    String geoTag,
    String strategy,
    Long ttlSeconds,
    Long splitBrainThresholdSeconds,
    boolean decided,
    String localTargetsSource,
    List<String> localTargets,
    List<HostReport> hosts,
    List<String> problems) {

  public GslbReport {
    Objects.requireNonNull(gslb, "gslb");
    localTargets = Copies.list(localTargets);
    hosts = Copies.list(hosts);
    problems = Copies.list(problems);
  }

  /**
   * One host.
   *
   * @param host the host
   * @param health {@code Healthy}, {@code Unhealthy} or {@code NotFound}
   * @param services the host's Services and their health
   * @param serving whether this cluster serves the host (Healthy with local targets)
   * @param peers every peer's answer, sorted by geo tag
   * @param branch the row of the decision table taken ({@link Branch}), {@code null} when the host
   *     was left out
   * @param rule the row in words
   * @param chosen geo tag to the targets chosen from it
   * @param finalTargets the targets of the host record, sorted (A then AAAA)
   * @param leftOut why the host gets no records although it is in a zone, {@code null} otherwise
   */
  public record HostReport(
      String host,
      String health,
      List<ServiceReport> services,
      boolean serving,
      List<PeerReport> peers,
      String branch,
      String rule,
      Map<String, List<String>> chosen,
      List<String> finalTargets,
      String leftOut) {

    public HostReport {
      Objects.requireNonNull(host, "host");
      services = Copies.list(services);
      peers = Copies.list(peers);
      chosen = sortedCopy(chosen);
      finalTargets = Copies.list(finalTargets);
    }

    /** As {@link Copies#sortedMap}, without a tree for the usual single geo tag. */
    private static Map<String, List<String>> sortedCopy(Map<String, List<String>> map) {
      if (map != null && map.size() == 1) {
        Map.Entry<String, List<String>> only = map.entrySet().iterator().next();
        if (only.getKey() != null && only.getValue() != null) {
          return Map.of(only.getKey(), only.getValue());
        }
      }
      return Copies.sortedMap(map);
    }
  }

  /**
   * One Service behind a host.
   *
   * @param service {@code namespace/name}
   * @param health {@code Healthy}, {@code Unhealthy} or {@code NotFound}
   * @param reason why
   */
  public record ServiceReport(String service, String health, String reason) {}

  /**
   * One peer's answer for a host.
   *
   * @param geoTag the peer
   * @param server the address that answered (or was last asked)
   * @param status the latest probe outcome
   * @param targets the targets of the latest successful answer, canonical
   * @param lastSuccess when the peer last answered
   * @param failingSince when the current unreachable run began
   * @param observedAt when the prober published this state
   * @param verdict how the answer counted ({@link PeerVerdict})
   * @param counted whether its targets took part in the decision
   * @param trustedUntil when an unreachable peer's last answer stops being trusted
   * @param reason the verdict in words
   */
  public record PeerReport(
      String geoTag,
      String server,
      String status,
      List<String> targets,
      Instant lastSuccess,
      Instant failingSince,
      Instant observedAt,
      String verdict,
      boolean counted,
      Instant trustedUntil,
      String reason) {

    public PeerReport {
      targets = Copies.list(targets);
    }
  }
}
