package dev.cairn.dnsresponder.zone;

import dev.cairn.commonmodel.validation.Hostnames;
import java.util.List;
import java.util.Objects;

/**
 * A zone this server is authoritative for, with everything needed for its apex records.
 *
 * @param name the zone apex, lower case, without a trailing dot
 * @param nameServers the apex NS records, each with its glue addresses (may be empty)
 * @param hostmaster the SOA RNAME, an absolute name without a trailing dot
 * @param refreshSeconds SOA REFRESH
 * @param retrySeconds SOA RETRY
 * @param expireSeconds SOA EXPIRE
 * @param negativeTtlSeconds the SOA TTL and MINIMUM, so the negative-caching time (RFC 2308 §5)
 * @param nsTtlSeconds the TTL of the apex NS records and their glue
 */
public record ZoneSpec(
    String name,
    List<NameServer> nameServers,
    String hostmaster,
    long refreshSeconds,
    long retrySeconds,
    long expireSeconds,
    long negativeTtlSeconds,
    long nsTtlSeconds) {

  /**
   * One apex NS name.
   *
   * @param name the server's host name, lower case, without a trailing dot
   * @param addresses IPv4 and IPv6 literals; served as A/AAAA glue when the name is inside a zone
   */
  public record NameServer(String name, List<String> addresses) {
    public NameServer {
      name = Hostnames.normalise(Objects.requireNonNull(name, "name"));
      addresses = List.copyOf(addresses == null ? List.of() : addresses);
    }
  }

  public ZoneSpec {
    name = Hostnames.normalise(Objects.requireNonNull(name, "name"));
    nameServers = List.copyOf(Objects.requireNonNull(nameServers, "nameServers"));
    hostmaster = Hostnames.normalise(Objects.requireNonNull(hostmaster, "hostmaster"));
    if (nameServers.isEmpty()) {
      throw new IllegalArgumentException("zone " + name + " needs at least one name server");
    }
  }

  /** The SOA MNAME: the first name server. */
  public String primaryNameServer() {
    return nameServers.get(0).name();
  }
}
