package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.validation.IpLiteral.Family;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Engine-wide placement settings, the counterparts of direct-dns's flags.
 *
 * @param enableIpv4 publish A targets ({@code --enable-ipv4}, default true)
 * @param enableIpv6 publish AAAA targets ({@code --enable-ipv6}, default false)
 * @param resolveTargetHostnames resolve host name targets unless a route says otherwise ({@code
 *     --resolve-target-hostnames}, default false)
 * @param dnsResolver the resolver used when a route names none, normalised by {@link
 *     ResolverAddress} ({@code --dns-resolver}, default {@code 1.1.1.1:53})
 * @param resolutionMaxStale how long after its TTL ran out a resolution whose refresh keeps failing
 *     is still used (RFC 8767 serve-stale); positive
 */
public record PlacementSettings(
    boolean enableIpv4,
    boolean enableIpv6,
    boolean resolveTargetHostnames,
    String dnsResolver,
    Duration resolutionMaxStale) {

  /** direct-dns's default resolver. */
  public static final String DEFAULT_DNS_RESOLVER = "1.1.1.1:53";

  /** RFC 8767 §5 suggests a maximum stale timer of one to three days. */
  public static final Duration DEFAULT_RESOLUTION_MAX_STALE = Duration.ofDays(1);

  public PlacementSettings {
    if (!enableIpv4 && !enableIpv6) {
      throw new IllegalArgumentException(
          "engine.enable-ipv4 and engine.enable-ipv6 are both false: nothing could be published");
    }
    String resolver = ResolverAddress.normalise(dnsResolver);
    dnsResolver = resolver.isEmpty() ? DEFAULT_DNS_RESOLVER : resolver;
    if (!ResolverAddress.isValid(dnsResolver)) {
      throw new IllegalArgumentException(
          "engine.dns-resolver must be host[:port] or [ipv6]:port, got '" + dnsResolver + "'");
    }
    Objects.requireNonNull(resolutionMaxStale, "resolutionMaxStale");
    if (resolutionMaxStale.isNegative() || resolutionMaxStale.isZero()) {
      throw new IllegalArgumentException(
          "engine.resolution-max-stale must be positive, got " + resolutionMaxStale);
    }
  }

  /** direct-dns's defaults: IPv4 only, no hostname resolution, resolver {@code 1.1.1.1:53}. */
  public static PlacementSettings defaults() {
    return new PlacementSettings(
        true, false, false, DEFAULT_DNS_RESOLVER, DEFAULT_RESOLUTION_MAX_STALE);
  }

  /** The enabled address families. */
  public Set<Family> families() {
    EnumSet<Family> families = EnumSet.noneOf(Family.class);
    if (enableIpv4) {
      families.add(Family.IPV4);
    }
    if (enableIpv6) {
      families.add(Family.IPV6);
    }
    return families;
  }
}
