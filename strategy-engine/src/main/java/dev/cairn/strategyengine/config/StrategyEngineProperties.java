package dev.cairn.strategyengine.config;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.gslb.HttpRouteTargets;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.stream.CatchUp;
import dev.cairn.strategyengine.stream.EngineTopology.StoreType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The strategy-engine's settings, prefix {@code engine}. Validated when bound: a bad value stops
 * the application before it touches Kafka.
 *
 * @param applicationId the Kafka Streams application id (consumer group, internal topic prefix);
 *     one per cluster in the local stack
 * @param stateDir the Kafka Streams state directory; Streams adds the application id below it;
 *     default {@code <java.io.tmpdir>/cairn-strategy-engine}
 * @param enableIpv4 publish A targets (direct-dns {@code --enable-ipv4})
 * @param enableIpv6 publish AAAA targets (direct-dns {@code --enable-ipv6})
 * @param resolveTargetHostnames resolve host name targets unless a route says otherwise (direct-dns
 *     {@code --resolve-target-hostnames})
 * @param dnsResolver the resolver whose answers are used when a route names none, {@code
 *     host[:port]} (direct-dns {@code --dns-resolver})
 * @param resolutionMaxStale how long after its TTL ran out a failing resolution's last good answer
 *     is still used (RFC 8767 serve-stale)
 * @param resolutionExpiryCheckInterval how often routes using stale resolutions are re-checked
 * @param commitInterval Kafka Streams {@code commit.interval.ms}: how often offsets are committed
 *     and stores flushed. It does not delay decisions (no store has a cache, so every change is
 *     forwarded at once); it bounds how much input a crashed engine processes again (harmlessly:
 *     decisions are compared with the last one published). 100 ms cost a third of the replay
 *     throughput (GslbBench, docs/benchmarks.md); Streams' own at-least-once default is 30 s
 * @param pollInterval Kafka Streams {@code poll.ms}: the longest an idle stream thread blocks
 *     before it runs due punctuations, so it bounds how late a route or Gslb marked by an input
 *     that did not advance stream time is decided (Streams would wait 100 ms)
 * @param producerLinger the {@code linger.ms} of the engine's producers (decisions, statuses, the
 *     broadcast hop, changelogs). Kafka Streams would use 100 ms, which a peer-answer change pays
 *     twice (broadcast, then output); 5 ms is Kafka 4's client default
 * @param producerBatchSize the {@code batch.size} of the engine's producers: the most bytes of one
 *     partition's records sent together. It adds no latency (a batch goes when it is full or {@code
 *     producerLinger} has passed, whichever comes first); it is what a replay or a burst of
 *     decisions is sent in. The client's 16 KB held about twenty statuses, and the broker and the
 *     producer's network thread spent more on requests than the stream thread on deciding: 256 KB
 *     decided the engine benchmark's replay 1.6–1.9 times as fast with a third less CPU
 *     (docs/benchmarks.md). More than 1 MB needs {@code max.request.size} (producer) and {@code
 *     message.max.bytes} (broker) raised with it
 * @param maxOutputSize the largest encoded decision or Gslb status the engine sends. A larger one
 *     (a route or Gslb with thousands of host names and targets) would be refused by the producer
 *     and stop the engine; it is not sent, the previous one stays, and the engine logs it, counts
 *     it ({@code cairn.engine.outputs.too.large}) and, for a Gslb, says so in its status. The
 *     default 1000KB fits Kafka's default 1 MiB ({@code max.request.size}, {@code
 *     message.max.bytes}); raise those with it
 * @param statestoreCacheMaxBytes Kafka Streams {@code statestore.cache.max.bytes}; 0 forwards every
 *     change at once
 * @param streamThreads Kafka Streams {@code num.stream.threads}
 * @param catchUp how decisions are batched while the engine works through a backlog, {@code
 *     engine.catch-up.*}
 * @param stateStoreType {@code rocksdb} (default) or {@code in-memory}
 * @param topics topic prefix, partitions and replicas
 * @param gslb the Gslb (k8gb) settings, {@code engine.gslb.*}
 */
@ConfigurationProperties(prefix = "engine", ignoreUnknownFields = false)
public record StrategyEngineProperties(
    @DefaultValue("cairn-strategy-engine") String applicationId,
    Path stateDir,
    @DefaultValue("true") boolean enableIpv4,
    @DefaultValue("false") boolean enableIpv6,
    @DefaultValue("false") boolean resolveTargetHostnames,
    @DefaultValue(PlacementSettings.DEFAULT_DNS_RESOLVER) String dnsResolver,
    @DefaultValue("24h") Duration resolutionMaxStale,
    @DefaultValue("1m") Duration resolutionExpiryCheckInterval,
    @DefaultValue("1s") Duration commitInterval,
    @DefaultValue("10ms") Duration pollInterval,
    @DefaultValue("5ms") Duration producerLinger,
    @DefaultValue("256KB") DataSize producerBatchSize,
    @DefaultValue("1000KB") DataSize maxOutputSize,
    @DefaultValue("0") long statestoreCacheMaxBytes,
    @DefaultValue("1") int streamThreads,
    @DefaultValue CatchUpSettings catchUp,
    @DefaultValue("rocksdb") StoreType stateStoreType,
    @DefaultValue TopicSettings topics,
    @DefaultValue Gslb gslb) {

  public StrategyEngineProperties {
    if (applicationId == null || !applicationId.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException(
          "engine.application-id must be letters, digits, '.', '_' or '-', got '"
              + applicationId
              + "'");
    }
    if (stateDir == null) {
      stateDir = Path.of(System.getProperty("java.io.tmpdir"), "cairn-strategy-engine");
    }
    requirePositive("engine.resolution-expiry-check-interval", resolutionExpiryCheckInterval);
    requirePositive("engine.commit-interval", commitInterval);
    requirePositive("engine.poll-interval", pollInterval);
    if (producerLinger == null || producerLinger.isNegative()) {
      throw new IllegalArgumentException(
          "engine.producer-linger must not be negative, got " + producerLinger);
    }
    if (producerBatchSize == null
        || producerBatchSize.toBytes() < 1
        || producerBatchSize.toBytes() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "engine.producer-batch-size must be between 1B and 2GB, got " + producerBatchSize);
    }
    if (maxOutputSize == null
        || maxOutputSize.toBytes() < 1024
        || maxOutputSize.toBytes() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "engine.max-output-size must be between 1KB and 2GB, got " + maxOutputSize);
    }
    if (statestoreCacheMaxBytes < 0) {
      throw new IllegalArgumentException("engine.statestore-cache-max-bytes must not be negative");
    }
    if (streamThreads < 1) {
      throw new IllegalArgumentException("engine.stream-threads must be at least 1");
    }
    if (topics == null) {
      topics = TopicSettings.defaults();
    }
    if (catchUp == null) {
      catchUp = new CatchUpSettings(null, null, null);
    }
    placementSettings(
        enableIpv4, enableIpv6, resolveTargetHostnames, dnsResolver, resolutionMaxStale);
    if (gslb == null) {
      gslb = new Gslb(null, List.of(), List.of(), null, null, null, null, null, null);
    }
    gslb.settings();
  }

  /** The Gslb settings the core receives. */
  public GslbSettings gslbSettings() {
    return gslb.settings();
  }

  /** How the topology batches decisions while it catches up. */
  public CatchUp catchUpSettings() {
    return new CatchUp(catchUp.lag(), catchUp.idle(), catchUp.maxDelay());
  }

  /** The settings the placement core receives. */
  public PlacementSettings placementSettings() {
    return placementSettings(
        enableIpv4, enableIpv6, resolveTargetHostnames, dnsResolver, resolutionMaxStale);
  }

  private static PlacementSettings placementSettings(
      boolean ipv4, boolean ipv6, boolean resolve, String resolver, Duration maxStale) {
    return new PlacementSettings(ipv4, ipv6, resolve, resolver, maxStale);
  }

  private static void requirePositive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }

  /**
   * How decisions are batched while the engine works through a backlog (a restart, a replay, a
   * burst it fell behind on), {@code engine.catch-up.*}: input changes mark the routes and Gslbs
   * they affect, and while the engine catches up the marks are decided once the backlog is worked
   * off or {@code max-delay} has passed, so a Gslb is decided once for its spec and all its peers'
   * answers instead of once per input.
   *
   * @param lag an input older than this (record timestamp against the engine's clock) when
   *     processed means the engine is catching up
   * @param idle no input for this long means the engine has worked off its backlog
   * @param maxDelay the longest a mark waits while the engine catches up
   */
  public record CatchUpSettings(
      @DefaultValue("1s") Duration lag,
      @DefaultValue("200ms") Duration idle,
      @DefaultValue("2s") Duration maxDelay) {

    public CatchUpSettings {
      lag = lag == null ? CatchUp.DEFAULTS.lag() : lag;
      idle = idle == null ? CatchUp.DEFAULTS.idle() : idle;
      maxDelay = maxDelay == null ? CatchUp.DEFAULTS.maxDelay() : maxDelay;
      requirePositive("engine.catch-up.lag", lag);
      requirePositive("engine.catch-up.idle", idle);
      requirePositive("engine.catch-up.max-delay", maxDelay);
    }
  }

  /**
   * The Gslb settings, {@code engine.gslb.*}.
   *
   * @param geoTag this cluster's geo tag (k8gb {@code CLUSTER_GEO_TAG}): letters, digits and {@code
   *     -}. Required for Gslbs to be decided; without it every Gslb is reported (status problem)
   *     and skipped
   * @param zones the load-balanced zones (k8gb {@code DNS_ZONES}); a Gslb host must equal one or
   *     lie below it. Empty: every host is accepted
   * @param exposedIps the cluster-wide local targets (k8gb {@code CLUSTER_EXPOSED_IPS}), IPv4 and
   *     IPv6; used when a Gslb has no {@code k8gb.io/exposed-ip-addresses} annotation
   * @param defaultTtl the record TTL when a Gslb's {@code dnsTtlSeconds} is absent or 0
   * @param splitBrainThreshold how long an unreachable peer's last answer is trusted when a Gslb's
   *     {@code splitBrainThresholdSeconds} is absent or 0
   * @param ttlMin the smallest {@code dnsTtlSeconds} accepted
   * @param ttlMax the largest {@code dnsTtlSeconds} accepted
   * @param punctuateInterval how often Gslbs whose trusted peer answers expire are re-decided
   * @param httpRouteTargets where an HTTPRoute resourceRef's local targets come from: {@code
   *     node-aware} (the route's direct-dns placement, the default) or {@code gateway} (its parent
   *     Gateway's {@code status.addresses}, as k8gb)
   */
  public record Gslb(
      String geoTag,
      @DefaultValue List<String> zones,
      @DefaultValue List<String> exposedIps,
      @DefaultValue("30s") Duration defaultTtl,
      @DefaultValue("300s") Duration splitBrainThreshold,
      @DefaultValue("1s") Duration ttlMin,
      @DefaultValue("1h") Duration ttlMax,
      @DefaultValue("1s") Duration punctuateInterval,
      @DefaultValue("node-aware") HttpRouteTargets httpRouteTargets) {

    public Gslb {
      zones = zones == null ? List.of() : List.copyOf(zones);
      exposedIps = exposedIps == null ? List.of() : List.copyOf(exposedIps);
      defaultTtl = defaultTtl == null ? Duration.ofSeconds(30) : defaultTtl;
      splitBrainThreshold =
          splitBrainThreshold == null
              ? GslbSettings.DEFAULT_SPLIT_BRAIN_THRESHOLD
              : splitBrainThreshold;
      ttlMin = ttlMin == null ? Duration.ofSeconds(1) : ttlMin;
      ttlMax = ttlMax == null ? Duration.ofHours(1) : ttlMax;
      punctuateInterval = punctuateInterval == null ? Duration.ofSeconds(1) : punctuateInterval;
      requireWholeSeconds("engine.gslb.default-ttl", defaultTtl);
      requireWholeSeconds("engine.gslb.split-brain-threshold", splitBrainThreshold);
      requireWholeSeconds("engine.gslb.ttl-min", ttlMin);
      requireWholeSeconds("engine.gslb.ttl-max", ttlMax);
      requirePositive("engine.gslb.punctuate-interval", punctuateInterval);
    }

    /** The settings the Gslb core receives; validates the values. */
    public GslbSettings settings() {
      return new GslbSettings(
          geoTag,
          zones,
          exposedIps,
          defaultTtl.toSeconds(),
          ttlMin.toSeconds(),
          ttlMax.toSeconds(),
          splitBrainThreshold,
          httpRouteTargets);
    }

    private static void requireWholeSeconds(String name, Duration value) {
      requirePositive(name, value);
      if (value.toNanosPart() != 0) {
        throw new IllegalArgumentException(name + " must be whole seconds, got " + value);
      }
    }
  }
}
