package dev.cairn.healthprober.config;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.healthprober.peer.Peer;
import dev.cairn.healthprober.peer.ServerAddress;
import dev.cairn.healthprober.resolution.ResolutionPolicy;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of the health-prober, prefix {@code prober}. Every value is checked when it is
 * bound, so a bad configuration stops the service before it touches Kafka or the network.
 *
 * @param geoTag this cluster's geo tag; never probed (required)
 * @param peers static peers: {@code geo-tag} and {@code servers} ({@code ip[:port]}, {@code
 *     [v6]:port}; port 53 by default)
 * @param delegation peer discovery through zone delegation, as k8gb does it
 * @param interval how often every (host, peer) is probed
 * @param sweepSpread the share of {@code interval} over which a sweep releases its hosts, in slices
 *     10 ms apart and always in the same order: 0 queues them all at once (a burst of queries at
 *     every peer), 1 spreads them over the whole interval; with the default of 0.5, every probe of
 *     a sweep has ended before the next starts even when it times out (2 × 1 s with the defaults)
 * @param livenessInterval how often, between sweeps, one host is probed at each peer whose circuit
 *     is closed and that has nothing queued: a peer that fails it is judged unreachable at once
 *     (circuit opened, every host settled) instead of at the next sweep; 0 turns it off
 * @param queryTimeout how long one query waits for its reply
 * @param queryAttempts queries per question before it counts as unreachable; each retry goes to the
 *     peer's next server
 * @param peerRefreshInterval how often discovered peers are looked up again
 * @param maxInFlightPerPeer the bulkhead: host probes (one A and one AAAA query each) in flight per
 *     peer, so a slow peer never holds up the others
 * @param sockets UDP sockets (random source ports) shared by all queries
 * @param maxRecords the most address records taken from one reply
 * @param ednsPayloadSize the EDNS0 UDP payload size advertised in queries; 0 sends no EDNS
 * @param defaultSplitBrainThreshold the staleness threshold of a Gslb without {@code
 *     splitBrainThresholdSeconds}
 * @param circuitBreaker the per-peer circuit breaker
 * @param resolveTargetHostnames whether routes without the {@code
 *     directdns.meisterlala.dev/resolve-target-hostnames} annotation resolve node hostnames
 * @param resolveLoadBalancerHostnames whether every Ingress's and LoadBalancer Service's
 *     load-balancer host name ({@code status.loadBalancer.ingress[].hostname}), every Gateway's
 *     {@code Hostname} address and every Gslb's {@code k8gb.io/exposed-hostnames} is resolved
 *     through {@code defaultResolver}, for Gslbs whose local targets come from a load-balancer
 *     status (k8gb resolves them through its edge DNS servers); {@code engine.dns-resolver} must
 *     equal {@code defaultResolver}
 * @param defaultResolver the resolver of routes without a {@code dns-server} annotation, and of
 *     load-balancer host names
 * @param resolution when hostname targets are resolved again
 * @param topics topic prefix, partitions and replication of the topics this service declares
 */
@ConfigurationProperties(prefix = "prober", ignoreUnknownFields = false)
public record ProberProperties(
    String geoTag,
    @DefaultValue List<Peer> peers,
    @DefaultValue Delegation delegation,
    @DefaultValue("5s") Duration interval,
    @DefaultValue("0.5") double sweepSpread,
    @DefaultValue("1s") Duration livenessInterval,
    @DefaultValue("1s") Duration queryTimeout,
    @DefaultValue("2") int queryAttempts,
    @DefaultValue("60s") Duration peerRefreshInterval,
    @DefaultValue("100") int maxInFlightPerPeer,
    @DefaultValue("4") int sockets,
    @DefaultValue("64") int maxRecords,
    @DefaultValue("1232") int ednsPayloadSize,
    @DefaultValue("300s") Duration defaultSplitBrainThreshold,
    @DefaultValue CircuitBreaker circuitBreaker,
    @DefaultValue("false") boolean resolveTargetHostnames,
    @DefaultValue("true") boolean resolveLoadBalancerHostnames,
    @DefaultValue("1.1.1.1:53") String defaultResolver,
    @DefaultValue Resolution resolution,
    @DefaultValue TopicSettings topics) {

  public ProberProperties {
    if (!Peer.isValidGeoTag(geoTag)) {
      throw new IllegalArgumentException(
          "prober.geo-tag is required: this cluster's geo tag (letters, digits, '-'), got '"
              + geoTag
              + "'");
    }
    positive("prober.interval", interval);
    if (!(sweepSpread >= 0 && sweepSpread <= 1)) {
      throw new IllegalArgumentException(
          "prober.sweep-spread must be between 0 and 1 (a share of prober.interval), got "
              + sweepSpread);
    }
    if (livenessInterval == null || livenessInterval.isNegative()) {
      throw new IllegalArgumentException(
          "prober.liveness-interval must be zero (off) or a positive duration, got "
              + livenessInterval);
    }
    positive("prober.query-timeout", queryTimeout);
    positive("prober.peer-refresh-interval", peerRefreshInterval);
    positive("prober.default-split-brain-threshold", defaultSplitBrainThreshold);
    range("prober.query-attempts", queryAttempts, 1, 8);
    range("prober.max-in-flight-per-peer", maxInFlightPerPeer, 1, 10_000);
    range("prober.sockets", sockets, 1, 64);
    range("prober.max-records", maxRecords, 1, 1024);
    if (ednsPayloadSize != 0) {
      range("prober.edns-payload-size", ednsPayloadSize, 512, 4096);
    }
    Set<String> tags = new HashSet<>();
    for (Peer p : peers) {
      if (!tags.add(p.geoTag())) {
        throw new IllegalArgumentException(
            "prober.peers lists geo tag '"
                + p.geoTag()
                + "' twice; put all its servers in one entry");
      }
    }
    if (defaultResolver == null || defaultResolver.isBlank()) {
      throw new IllegalArgumentException("prober.default-resolver must not be empty");
    }
    topics = topics == null ? TopicSettings.defaults() : topics;
  }

  /** The part of the interval a sweep spreads its hosts over. */
  public Duration sweepSpreadDuration() {
    return Duration.ofNanos(Math.round(interval.toNanos() * sweepSpread));
  }

  /** The peers configured statically, without this cluster. */
  public List<Peer> staticPeers() {
    return peers.stream().filter(p -> !p.geoTag().equals(geoTag)).toList();
  }

  static void positive(String name, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be a positive duration, got " + d);
    }
  }

  static void range(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be between " + min + " and " + max + ", got " + value);
    }
  }

  /**
   * Peer discovery through zone delegation (k8gb.md §5): for each zone, the name servers {@code
   * <glue-prefix><geo-tag>-<lb zone dashed>.<parent>} of the configured geo tags, or, without geo
   * tags, those named by the NS RRset the edge servers return for the load-balanced zone; every A
   * and AAAA glue address of each becomes a server of that peer.
   *
   * @param zones the delegated zones ({@code parent-zone}, {@code load-balanced-zone})
   * @param gluePrefix the prefix of the name server names (may be empty)
   * @param geoTags the peers' geo tags; empty means: read them from the NS RRset
   * @param edgeServers the edge DNS servers asked for NS and glue, tried in order
   * @param peerPort the port of the peers' DNS servers found this way
   */
  public record Delegation(
      @DefaultValue List<DelegationZone> zones,
      @DefaultValue("gslb-ns-") String gluePrefix,
      @DefaultValue List<String> geoTags,
      @DefaultValue List<ServerAddress> edgeServers,
      @DefaultValue("53") int peerPort) {

    public Delegation {
      gluePrefix = gluePrefix == null ? "" : gluePrefix;
      if (!gluePrefix.isEmpty() && !gluePrefix.matches("[A-Za-z0-9-]+")) {
        throw new IllegalArgumentException(
            "prober.delegation.glue-prefix may hold only letters, digits and '-', got '"
                + gluePrefix
                + "'");
      }
      for (String tag : geoTags) {
        if (!Peer.isValidGeoTag(tag)) {
          throw new IllegalArgumentException(
              "prober.delegation.geo-tags: '" + tag + "' is not a geo tag (letters, digits, '-')");
        }
      }
      if (!zones.isEmpty() && edgeServers.isEmpty()) {
        throw new IllegalArgumentException(
            "prober.delegation.edge-servers is required when prober.delegation.zones is set");
      }
      range("prober.delegation.peer-port", peerPort, 1, 65_535);
    }

    /** True when peers are discovered at all. */
    public boolean enabled() {
      return !zones.isEmpty();
    }
  }

  /**
   * The per-peer circuit breaker (resilience4j). A probe that times out or fails counts as a
   * failure; SERVFAIL and REFUSED are answers and do not. While open, the peer is not queried and
   * its (host, peer) states carry the failure on; after the wait the breaker lets a few probes
   * through (half-open). The wait grows exponentially with jitter after each failed half-open
   * phase.
   *
   * @param failureRateThreshold percentage of failed probes that opens the breaker
   * @param slidingWindowSize probes in the count-based window
   * @param minimumNumberOfCalls probes before the rate is computed
   * @param waitInOpenState the first wait before half-open
   * @param backoffMultiplier growth of the wait after each failed half-open phase
   * @param randomizationFactor jitter of the wait (0..1)
   * @param maxWaitInOpenState the longest wait
   * @param permittedCallsInHalfOpenState probes let through while half-open
   */
  public record CircuitBreaker(
      @DefaultValue("80") float failureRateThreshold,
      @DefaultValue("20") int slidingWindowSize,
      @DefaultValue("10") int minimumNumberOfCalls,
      @DefaultValue("5s") Duration waitInOpenState,
      @DefaultValue("2.0") double backoffMultiplier,
      @DefaultValue("0.5") double randomizationFactor,
      @DefaultValue("2m") Duration maxWaitInOpenState,
      @DefaultValue("3") int permittedCallsInHalfOpenState) {

    public CircuitBreaker {
      if (failureRateThreshold <= 0 || failureRateThreshold > 100) {
        throw new IllegalArgumentException(
            "prober.circuit-breaker.failure-rate-threshold must be in (0, 100], got "
                + failureRateThreshold);
      }
      range("prober.circuit-breaker.sliding-window-size", slidingWindowSize, 1, 10_000);
      range("prober.circuit-breaker.minimum-number-of-calls", minimumNumberOfCalls, 1, 10_000);
      positive("prober.circuit-breaker.wait-in-open-state", waitInOpenState);
      positive("prober.circuit-breaker.max-wait-in-open-state", maxWaitInOpenState);
      if (maxWaitInOpenState.compareTo(waitInOpenState) < 0) {
        throw new IllegalArgumentException(
            "prober.circuit-breaker.max-wait-in-open-state is below wait-in-open-state");
      }
      if (backoffMultiplier < 1.0) {
        throw new IllegalArgumentException(
            "prober.circuit-breaker.backoff-multiplier must be at least 1, got "
                + backoffMultiplier);
      }
      if (randomizationFactor < 0 || randomizationFactor >= 1) {
        throw new IllegalArgumentException(
            "prober.circuit-breaker.randomization-factor must be in [0, 1), got "
                + randomizationFactor);
      }
      range(
          "prober.circuit-breaker.permitted-calls-in-half-open-state",
          permittedCallsInHalfOpenState,
          1,
          1_000);
    }
  }

  /**
   * When hostname targets are resolved again.
   *
   * @param ttlFloor the shortest lifetime of an answer (a lower TTL is raised to it)
   * @param ttlCeiling the longest lifetime of an answer (a higher TTL is lowered to it)
   * @param retryMax the longest wait between attempts while lookups fail
   */
  public record Resolution(
      @DefaultValue("5s") Duration ttlFloor,
      @DefaultValue("1h") Duration ttlCeiling,
      @DefaultValue("60s") Duration retryMax) {

    public Resolution {
      positive("prober.resolution.ttl-floor", ttlFloor);
      positive("prober.resolution.ttl-ceiling", ttlCeiling);
      positive("prober.resolution.retry-max", retryMax);
      policy(ttlFloor, ttlCeiling, retryMax);
    }

    /** The core policy. */
    public ResolutionPolicy policy() {
      return policy(ttlFloor, ttlCeiling, retryMax);
    }

    private static ResolutionPolicy policy(Duration floor, Duration ceiling, Duration retry) {
      try {
        return new ResolutionPolicy(floor, ceiling, retry);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("prober.resolution: " + e.getMessage(), e);
      }
    }
  }
}
