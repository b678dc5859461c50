package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.validation.Problem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Gslb's spec with defaults applied, once it passed validation.
 *
 * @param strategy the strategy
 * @param ttlSeconds the record TTL
 * @param splitBrainThreshold how long an unreachable peer's last answer is trusted
 * @param policy how the health of a host's Services combines
 */
record GslbSpec(
    Strategy strategy, long ttlSeconds, Duration splitBrainThreshold, HealthPolicy policy) {

  /** The largest weight k8gb accepts. */
  static final int MAX_WEIGHT = 1000;

  /**
   * The outcome of validating a spec.
   *
   * @param spec the spec, {@code null} when a blocking problem was found
   * @param blocking problems that stop the Gslb from being decided
   * @param notes problems that were worked around (reported, not blocking)
   */
  record Validated(GslbSpec spec, List<Problem> blocking, List<Problem> notes) {
    Validated {
      blocking = blocking.isEmpty() ? List.of() : List.copyOf(blocking);
      notes = notes.isEmpty() ? List.of() : List.copyOf(notes);
    }
  }

  /**
   * Validates {@code spec.strategy} and {@code spec.serviceHealthPolicy} and applies the defaults
   * (k8gb.md §1.1, with Cairn's stricter rules): the type is one of roundRobin, failover, geoip
   * (case-sensitive); weights are allowed only with roundRobin, keyed by geo tags, each 0..1000;
   * failover needs a primaryGeoTag; dnsTtlSeconds 0 or absent means the engine default and must
   * otherwise lie within the engine's bounds; splitBrainThresholdSeconds 0 or absent means the
   * engine default and must not be negative.
   */
  static Validated validate(GslbState gslb, GslbSettings settings) {
    List<Problem> blocking = new ArrayList<>();
    List<Problem> notes = new ArrayList<>();
    HealthPolicy policy = policy(gslb.serviceHealthPolicy(), notes);
    GslbStrategy s = gslb.strategy();
    if (s == null) {
      blocking.add(new Problem("spec.strategy", null, "spec.strategy is required"));
      return new Validated(null, blocking, notes);
    }
    String type = s.type();
    boolean known =
        RoundRobin.TYPE.equals(type) || Failover.TYPE.equals(type) || GeoIp.TYPE.equals(type);
    if (!known) {
      blocking.add(
          new Problem(
              "spec.strategy.type",
              type,
              "not one of roundRobin, failover, geoip (the spelling is case-sensitive)"));
    }
    long ttl = settings.defaultTtlSeconds();
    Integer rawTtl = s.dnsTtlSeconds();
    if (rawTtl != null && rawTtl != 0) {
      if (rawTtl < settings.ttlMinSeconds() || rawTtl > settings.ttlMaxSeconds()) {
        blocking.add(
            new Problem(
                "spec.strategy.dnsTtlSeconds",
                rawTtl.toString(),
                "must be 0 (the default, "
                    + settings.defaultTtlSeconds()
                    + ") or between "
                    + settings.ttlMinSeconds()
                    + " and "
                    + settings.ttlMaxSeconds()
                    + " seconds (engine.gslb.ttl-min, engine.gslb.ttl-max)"));
      } else {
        ttl = rawTtl;
      }
    }
    Map<String, Integer> weights = s.weight();
    if (!weights.isEmpty() && known && !RoundRobin.TYPE.equals(type)) {
      blocking.add(
          new Problem(
              "spec.strategy.weight",
              String.valueOf(weights),
              "weights are only allowed with the roundRobin strategy, not " + type));
    }
    for (Map.Entry<String, Integer> entry : weights.entrySet()) {
      String tag = entry.getKey();
      Integer weight = entry.getValue();
      boolean tagValid = GslbSettings.isGeoTag(tag);
      boolean weightValid = weight != null && weight >= 0 && weight <= MAX_WEIGHT;
      if (tagValid && weightValid) {
        continue;
      }
      String field = "spec.strategy.weight[" + tag + "]";
      if (!tagValid) {
        blocking.add(new Problem(field, tag, "a geo tag may hold only letters, digits and '-'"));
      }
      if (!weightValid) {
        blocking.add(
            new Problem(
                field, String.valueOf(weight), "a weight must be between 0 and " + MAX_WEIGHT));
      }
    }
    String primary = s.primaryGeoTag() == null ? null : s.primaryGeoTag().strip();
    if (primary != null && !primary.isEmpty() && !GslbSettings.isGeoTag(primary)) {
      blocking.add(
          new Problem(
              "spec.strategy.primaryGeoTag",
              s.primaryGeoTag(),
              "a geo tag may hold only letters, digits and '-'"));
    }
    if (Failover.TYPE.equals(type) && (primary == null || primary.isEmpty())) {
      blocking.add(
          new Problem(
              "spec.strategy.primaryGeoTag",
              s.primaryGeoTag(),
              "the failover strategy needs the primary cluster's geo tag"));
    }
    Duration threshold = settings.splitBrainThreshold();
    Integer rawThreshold = s.splitBrainThresholdSeconds();
    if (rawThreshold != null && rawThreshold < 0) {
      blocking.add(
          new Problem(
              "spec.strategy.splitBrainThresholdSeconds",
              rawThreshold.toString(),
              "must be 0 (the default, "
                  + settings.splitBrainThreshold().toSeconds()
                  + ") or a positive number of seconds"));
    } else if (rawThreshold != null && rawThreshold > 0) {
      threshold = Duration.ofSeconds(rawThreshold);
    }
    if (!blocking.isEmpty()) {
      return new Validated(null, blocking, notes);
    }
    Strategy strategy =
        switch (type) {
          case RoundRobin.TYPE -> new RoundRobin(weights);
          case Failover.TYPE -> new Failover(primary);
          default -> new GeoIp();
        };
    return new Validated(new GslbSpec(strategy, ttl, threshold, policy), blocking, notes);
  }

  private static HealthPolicy policy(String raw, List<Problem> notes) {
    if (raw == null || raw.isEmpty() || HealthPolicy.ANY.text().equals(raw)) {
      return HealthPolicy.ANY;
    }
    if (HealthPolicy.ALL.text().equals(raw)) {
      return HealthPolicy.ALL;
    }
    notes.add(new Problem("spec.serviceHealthPolicy", raw, "not Any or All; treated as Any"));
    return HealthPolicy.ANY;
  }
}
