package dev.cairn.recordwriter.plan;

import dev.cairn.commonmodel.Copies;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * One {@code spec.endpoints[]} entry of a DNSEndpoint in normalised form, so that two endpoints
 * that mean the same record compare equal: the name and hostname targets lower-cased, IP targets in
 * canonical text (RFC 5952 for IPv6), targets sorted and de-duplicated, a TTL of 0 or less recorded
 * as 0 ("not configured", omitted on the wire), blank set identifiers as {@code null}.
 *
 * <p>Trailing dots are kept: {@code app.example.com.} and {@code app.example.com} are different
 * names to the k8s_crd CoreDNS plugin, so a current object with a trailing dot must be rewritten.
 *
 * @param dnsName the record name, lower case
 * @param recordType the record type, upper case
 * @param ttlSeconds {@code recordTTL}; 0 when not configured
 * @param targets the targets, canonical, sorted, unique
 * @param labels the endpoint labels, sorted by key
 * @param setIdentifier {@code setIdentifier}, or {@code null}
 * @param providerSpecific {@code providerSpecific} as name to value, sorted by name
 */
public record Endpoint(
    String dnsName,
    String recordType,
    long ttlSeconds,
    List<String> targets,
    Map<String, String> labels,
    String setIdentifier,
    Map<String, String> providerSpecific)
    implements Comparable<Endpoint> {

  private static final Comparator<Endpoint> ORDER =
      Comparator.comparing(Endpoint::dnsName)
          .thenComparing(Endpoint::recordType)
          .thenComparing(e -> e.setIdentifier() == null ? "" : e.setIdentifier());

  public Endpoint {
    Objects.requireNonNull(dnsName, "dnsName");
    Objects.requireNonNull(recordType, "recordType");
    dnsName = dnsName.toLowerCase(Locale.ROOT);
    recordType = recordType.toUpperCase(Locale.ROOT);
    ttlSeconds = Math.max(0, ttlSeconds);
    targets = canonicalTargets(recordType, targets);
    labels = Copies.sortedMap(labels);
    setIdentifier = setIdentifier == null || setIdentifier.isBlank() ? null : setIdentifier;
    providerSpecific = Copies.sortedMap(providerSpecific);
  }

  /** An endpoint without labels, set identifier or provider-specific properties. */
  public static Endpoint of(String dnsName, String recordType, long ttl, List<String> targets) {
    return new Endpoint(dnsName, recordType, ttl, targets, Map.of(), null, Map.of());
  }

  @Override
  public int compareTo(Endpoint other) {
    return ORDER.compare(this, other);
  }

  /** Sorts a list of endpoints into the canonical order (name, type, set identifier). */
  public static List<Endpoint> sorted(List<Endpoint> endpoints) {
    List<Endpoint> copy = new ArrayList<>(endpoints);
    copy.sort(null);
    return List.copyOf(copy);
  }

  private static List<String> canonicalTargets(String type, List<String> targets) {
    if (targets == null || targets.isEmpty()) {
      return List.of();
    }
    TreeSet<String> out = new TreeSet<>();
    for (String t : targets) {
      if (t != null) {
        out.add(canonicalTarget(type, t));
      }
    }
    return List.copyOf(out);
  }

  private static String canonicalTarget(String type, String target) {
    return switch (type) {
      case "A", "AAAA" -> IpLiteral.parse(target).map(IpLiteral::text).orElse(target);
      case "CNAME", "NS", "PTR", "DNAME" -> target.toLowerCase(Locale.ROOT);
      default -> target;
    };
  }
}
