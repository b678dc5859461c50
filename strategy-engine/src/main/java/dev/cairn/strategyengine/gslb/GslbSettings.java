package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.commonmodel.validation.Ttl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Engine-wide Gslb settings, the counterparts of k8gb's operator configuration.
 *
 * @param geoTag this cluster's geo tag ({@code CLUSTER_GEO_TAG}); {@code null} when unset, in which
 *     case no Gslb is decided (each is reported and skipped)
 * @param zones the load-balanced zones ({@code DNS_ZONES}); a Gslb host must equal one or lie below
 *     it (a suffix match on labels). Empty: every host is accepted
 * @param exposedIps the cluster-wide local targets override ({@code CLUSTER_EXPOSED_IPS}), in
 *     canonical text, IPv4 and IPv6; empty when not set
 * @param defaultTtlSeconds the record TTL when a Gslb gives none or 0 (k8gb: 30)
 * @param ttlMinSeconds the smallest {@code dnsTtlSeconds} accepted
 * @param ttlMaxSeconds the largest {@code dnsTtlSeconds} accepted
 * @param splitBrainThreshold how long an unreachable peer's last answer is trusted when a Gslb
 *     gives no {@code splitBrainThresholdSeconds} (or 0)
 * @param httpRouteTargets where an HTTPRoute resourceRef's local targets come from; {@code null}
 *     means {@link HttpRouteTargets#NODE_AWARE}
 */
public record GslbSettings(
    String geoTag,
    List<String> zones,
    List<String> exposedIps,
    long defaultTtlSeconds,
    long ttlMinSeconds,
    long ttlMaxSeconds,
    Duration splitBrainThreshold,
    HttpRouteTargets httpRouteTargets) {

  /** k8gb's default record TTL ({@code dnsTtlSeconds: 0} means this). */
  public static final long DEFAULT_TTL_SECONDS = 30;

  /** The smallest TTL accepted by default. */
  public static final long DEFAULT_TTL_MIN_SECONDS = 1;

  /** The largest TTL accepted by default: longer caching defeats failover. */
  public static final long DEFAULT_TTL_MAX_SECONDS = 3600;

  /**
   * The default split-brain threshold: k8gb's historical default (≤ v0.14,
   * splitBrainThresholdSeconds 300), ten probe intervals of the prober's default.
   */
  public static final Duration DEFAULT_SPLIT_BRAIN_THRESHOLD = Duration.ofSeconds(300);

  /** Settings with node-aware local targets for HTTPRoutes. */
  public GslbSettings(
      String geoTag,
      List<String> zones,
      List<String> exposedIps,
      long defaultTtlSeconds,
      long ttlMinSeconds,
      long ttlMaxSeconds,
      Duration splitBrainThreshold) {
    this(
        geoTag,
        zones,
        exposedIps,
        defaultTtlSeconds,
        ttlMinSeconds,
        ttlMaxSeconds,
        splitBrainThreshold,
        HttpRouteTargets.NODE_AWARE);
  }

  public GslbSettings {
    httpRouteTargets = httpRouteTargets == null ? HttpRouteTargets.NODE_AWARE : httpRouteTargets;
    geoTag = geoTag == null || geoTag.isBlank() ? null : geoTag.strip();
    if (geoTag != null && !isGeoTag(geoTag)) {
      throw new IllegalArgumentException(
          "engine.gslb.geo-tag may hold only letters, digits and '-', got '" + geoTag + "'");
    }
    LinkedHashSet<String> normalisedZones = new LinkedHashSet<>();
    for (String zone : zones == null ? List.<String>of() : zones) {
      String text = zone == null ? "" : zone.strip();
      Optional<Problem> problem = Hostnames.check("engine.gslb.zones", text);
      if (problem.isPresent()) {
        throw new IllegalArgumentException(problem.get().toString());
      }
      normalisedZones.add(Hostnames.normalise(text));
    }
    zones = List.copyOf(normalisedZones);
    LinkedHashSet<String> ips = new LinkedHashSet<>();
    for (String ip : exposedIps == null ? List.<String>of() : exposedIps) {
      String text = ip == null ? "" : ip.strip();
      ips.add(
          IpLiteral.parse(text)
              .map(IpLiteral::text)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "engine.gslb.exposed-ips: '"
                              + text
                              + "' is not a strict IPv4 or IPv6 address literal")));
    }
    exposedIps = List.copyOf(ips);
    if (ttlMinSeconds < Ttl.MIN_SECONDS || ttlMaxSeconds > Ttl.MAX_SECONDS) {
      throw new IllegalArgumentException(
          "engine.gslb.ttl-min and ttl-max must lie between "
              + Ttl.MIN_SECONDS
              + " and "
              + Ttl.MAX_SECONDS
              + " seconds");
    }
    if (ttlMinSeconds > ttlMaxSeconds) {
      throw new IllegalArgumentException(
          "engine.gslb.ttl-min (" + ttlMinSeconds + "s) exceeds ttl-max (" + ttlMaxSeconds + "s)");
    }
    if (defaultTtlSeconds < ttlMinSeconds || defaultTtlSeconds > ttlMaxSeconds) {
      throw new IllegalArgumentException(
          "engine.gslb.default-ttl ("
              + defaultTtlSeconds
              + "s) must lie between ttl-min and ttl-max");
    }
    Objects.requireNonNull(splitBrainThreshold, "splitBrainThreshold");
    if (splitBrainThreshold.isNegative() || splitBrainThreshold.isZero()) {
      throw new IllegalArgumentException(
          "engine.gslb.split-brain-threshold must be positive, got " + splitBrainThreshold);
    }
  }

  /** The defaults for a cluster with this geo tag, without zones or an exposed-IP override. */
  public static GslbSettings defaults(String geoTag) {
    return new GslbSettings(
        geoTag,
        List.of(),
        List.of(),
        DEFAULT_TTL_SECONDS,
        DEFAULT_TTL_MIN_SECONDS,
        DEFAULT_TTL_MAX_SECONDS,
        DEFAULT_SPLIT_BRAIN_THRESHOLD);
  }

  /**
   * True when {@code text} is a geo tag: one or more ASCII letters, digits and {@code -} (k8gb's
   * {@code ^[a-zA-Z\-\d]+$}).
   */
  static boolean isGeoTag(String text) {
    if (text.isEmpty()) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-')) {
        return false;
      }
    }
    return true;
  }

  /**
   * True when {@code host} lies in one of the zones ({@link Hostnames#isInZone}), or no zone is
   * configured. The zones are normalised already, so only the host is (when it needs it).
   */
  public boolean inZones(String host) {
    if (zones.isEmpty()) {
      return true;
    }
    String name = isNormalised(host) ? host : Hostnames.normalise(host);
    for (String zone : zones) {
      int below = name.length() - zone.length();
      if (name.endsWith(zone) && (below == 0 || (below > 0 && name.charAt(below - 1) == '.'))) {
        return true;
      }
    }
    return false;
  }

  /** True when {@link Hostnames#normalise} would return the name unchanged. */
  private static boolean isNormalised(String name) {
    if (name.endsWith(".")) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c >= 'A' && c <= 'Z') {
        return false;
      }
    }
    return true;
  }

  /** A copy with other zones, for tests and the local stack. */
  public GslbSettings withZones(List<String> otherZones) {
    return new GslbSettings(
        geoTag,
        new ArrayList<>(otherZones),
        exposedIps,
        defaultTtlSeconds,
        ttlMinSeconds,
        ttlMaxSeconds,
        splitBrainThreshold,
        httpRouteTargets);
  }

  /** A copy with another source of HTTPRoute local targets. */
  public GslbSettings withHttpRouteTargets(HttpRouteTargets targets) {
    return new GslbSettings(
        geoTag,
        zones,
        exposedIps,
        defaultTtlSeconds,
        ttlMinSeconds,
        ttlMaxSeconds,
        splitBrainThreshold,
        targets);
  }
}
