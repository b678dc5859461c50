package dev.cairn.recordwriter.delegation;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The zone delegation k8gb publishes for external-dns (k8gb.md §7.2): for each load-balanced zone,
 * one DNSEndpoint {@code k8gb-ns-extdns-<zone, dots as dashes>} labelled {@value #DNSTYPE_LABEL}=
 * {@value #DNSTYPE_VALUE}, which external-dns (filtering on that label) pushes to the edge DNS: the
 * zone's NS records, one name per cluster ({@link DelegationZone#nsName}, this cluster's and the
 * peers'), and this cluster's name server name with its addresses as glue. This class decides those
 * records as {@link TargetDecision}s the record-writer writes like any other; it reads nothing and
 * sends nothing.
 *
 * <p>Where Cairn differs from k8gb:
 *
 * <ul>
 *   <li>IPv6 addresses become AAAA glue; k8gb kept IPv4 only.
 *   <li>While this cluster's addresses are unknown (the responder's load balancer has none yet),
 *       what is published is kept as it is ({@link Disposition#NO_TARGETS} with a grace of {@value
 *       #KEEP_SECONDS} s) and nothing is created; k8gb failed the whole pass.
 * </ul>
 */
public final class DelegationRecords {

  /** The label external-dns selects on, k8gb's. */
  public static final String DNSTYPE_LABEL = "k8gb.io/dnstype";

  /** The same label in k8gb's legacy group, which k8gb also sets. */
  public static final String LEGACY_DNSTYPE_LABEL = "k8gb.absa.oss/dnstype";

  /** The value for records meant for the edge DNS. */
  public static final String DNSTYPE_VALUE = "extdns";

  /** The kind of the (virtual) source of a delegation decision. */
  public static final String SOURCE_KIND = "ZoneDelegation";

  /** How long a delegation whose addresses are unknown is kept: ten years, in effect for good. */
  public static final long KEEP_SECONDS = 315_360_000L;

  private DelegationRecords() {}

  /**
   * What to publish.
   *
   * @param namespace the namespace of the DNSEndpoints (the record-writer's)
   * @param zones the delegated zones
   * @param gluePrefix the prefix of the name server names ({@code gslb-ns-})
   * @param geoTag this cluster's geo tag
   * @param peerGeoTags the other clusters' geo tags
   * @param ttlSeconds the TTL of the NS and glue records
   */
  public record Spec(
      String namespace,
      List<DelegationZone> zones,
      String gluePrefix,
      String geoTag,
      List<String> peerGeoTags,
      long ttlSeconds) {

    public Spec {
      Objects.requireNonNull(namespace, "namespace");
      zones = List.copyOf(zones);
      gluePrefix = gluePrefix == null ? "" : gluePrefix;
      Objects.requireNonNull(geoTag, "geoTag");
      peerGeoTags = List.copyOf(peerGeoTags);
    }
  }

  /** The DNSEndpoint name of a zone's delegation, as k8gb names it. */
  public static String objectName(DelegationZone zone) {
    return "k8gb-ns-extdns-" + zone.loadBalancedZone().replace('.', '-');
  }

  /**
   * The decisions, one per zone.
   *
   * @param addresses this cluster's name server addresses (IPv4 and IPv6 literals; others are
   *     skipped); empty while unknown
   */
  public static List<TargetDecision> decide(Spec spec, List<String> addresses) {
    List<String> v4 = new ArrayList<>();
    List<String> v6 = new ArrayList<>();
    for (String a : new TreeSet<>(addresses)) {
      IpLiteral.parse(a)
          .ifPresent(ip -> (ip.family() == IpLiteral.Family.IPV4 ? v4 : v6).add(ip.text()));
    }
    TreeSet<String> tags = new TreeSet<>(spec.peerGeoTags());
    tags.add(spec.geoTag());
    List<TargetDecision> decisions = new ArrayList<>();
    for (DelegationZone zone : spec.zones()) {
      String own = zone.nsName(spec.gluePrefix(), spec.geoTag());
      List<String> names =
          new ArrayList<>(tags.stream().map(t -> zone.nsName(spec.gluePrefix(), t)).toList());
      names.sort(null);
      List<DnsRecord> records = new ArrayList<>();
      records.add(DnsRecord.of(zone.loadBalancedZone(), "NS", spec.ttlSeconds(), names));
      if (!v4.isEmpty()) {
        records.add(DnsRecord.of(own, "A", spec.ttlSeconds(), v4));
      }
      if (!v6.isEmpty()) {
        records.add(DnsRecord.of(own, "AAAA", spec.ttlSeconds(), v6));
      }
      records.sort(Comparator.comparing(DnsRecord::dnsName).thenComparing(DnsRecord::recordType));
      boolean known = !v4.isEmpty() || !v6.isEmpty();
      String name = objectName(zone);
      decisions.add(
          new TargetDecision(
              ObjectRef.of(SOURCE_KIND, spec.namespace(), name),
              null,
              null,
              spec.namespace(),
              name,
              known ? Disposition.PUBLISH : Disposition.NO_TARGETS,
              known ? records : List.of(),
              Map.of(DNSTYPE_LABEL, DNSTYPE_VALUE, LEGACY_DNSTYPE_LABEL, DNSTYPE_VALUE),
              known ? null : KEEP_SECONDS,
              Explanation.of(
                  known
                      ? "the delegation of "
                          + zone.loadBalancedZone()
                          + " to "
                          + names.size()
                          + " clusters, with "
                          + own
                          + "'s addresses"
                      : "this cluster's name server addresses are not known yet; the published"
                          + " delegation is kept as it is"),
              List.of()));
    }
    return decisions;
  }
}
