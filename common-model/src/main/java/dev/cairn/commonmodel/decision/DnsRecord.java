package dev.cairn.commonmodel.decision;

import dev.cairn.commonmodel.Copies;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One endpoint of a desired DNSEndpoint ({@code spec.endpoints[]}).
 *
 * @param dnsName the record name, lower case, without a trailing dot
 * @param recordType {@code A}, {@code AAAA} or {@code CNAME}
 * @param ttlSeconds {@code recordTTL}
 * @param targets the targets, sorted and without duplicates
 * @param labels the endpoint labels (k8gb's {@code strategy} and {@code weight-*} labels)
 */
public record DnsRecord(
    String dnsName,
    String recordType,
    long ttlSeconds,
    List<String> targets,
    Map<String, String> labels) {

  public DnsRecord {
    Objects.requireNonNull(dnsName, "dnsName");
    Objects.requireNonNull(recordType, "recordType");
    targets = Copies.list(targets);
    labels = Copies.sortedMap(labels);
  }

  /** A record without labels. */
  public static DnsRecord of(String dnsName, String type, long ttl, List<String> targets) {
    return new DnsRecord(dnsName, type, ttl, targets, Map.of());
  }
}
