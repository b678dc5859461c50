package dev.cairn.recordwriter.plan;

import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.validation.Hostnames;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A DNS name and record type as a DNS server looks them up: the name lower-cased (ASCII, as {@link
 * Hostnames#normalise}) and without a trailing dot. Two DNSEndpoints that declare the same {@code
 * DnsName} compete for it: Cairn's dns-responder serves one of them, external-dns merges their
 * targets.
 *
 * @param name the name, lower case, no trailing dot
 * @param type the record type, upper case
 */
public record DnsName(String name, String type) implements Comparable<DnsName> {

  public DnsName {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    name = Hostnames.normalise(name);
    type = type.toUpperCase(Locale.ROOT);
  }

  /** The name an endpoint declares. */
  public static DnsName of(Endpoint endpoint) {
    return new DnsName(endpoint.dnsName(), endpoint.recordType());
  }

  /**
   * The names a decision publishes: those of the records {@link EndpointRules} accepts when it
   * publishes, else none. A rejected record is never written, so it claims no name: it must not
   * keep a name from a valid record of another source.
   */
  public static Set<DnsName> of(TargetDecision decision) {
    Set<DnsName> names = new TreeSet<>();
    if (decision != null && decision.disposition() == Disposition.PUBLISH) {
      for (Endpoint e : EndpointRules.check(decision.records()).endpoints()) {
        names.add(of(e));
      }
    }
    return names;
  }

  @Override
  public int compareTo(DnsName other) {
    int byName = name.compareTo(other.name);
    return byName != 0 ? byName : type.compareTo(other.type);
  }

  @Override
  public String toString() {
    return type + " " + name;
  }
}
