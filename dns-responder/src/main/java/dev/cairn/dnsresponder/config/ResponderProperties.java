package dev.cairn.dnsresponder.config;

import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.Ttl;
import dev.cairn.dnsresponder.answer.WeightedAnswer;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of the dns-responder (prefix {@code responder}). Checked when bound: a bad value
 * stops the application before it listens or talks to the API server.
 *
 * @param listenAddress the address the DNS listener binds (UDP and TCP)
 * @param port the DNS port (UDP and TCP); 0 picks a free port, see {@code DnsServer.udpPort()}
 * @param workers threads answering UDP
 * @param zones the zones served (at least one)
 * @param labelSelector label selectors for DNSEndpoints, OR'd (one informer each); the default
 *     matches what k8gb's CoreDNS serves
 * @param defaultTtl the TTL of records whose endpoint has no positive {@code recordTTL}
 * @param debounce the delay between a DNSEndpoint change and the snapshot rebuild
 * @param snapshotFile the local JSON copy of the endpoints; unset: no copy is kept
 * @param snapshotWriteInterval how often at most the copy is rewritten when it changed
 * @param snapshotGrace how long to wait for the API server at start before serving the copy
 * @param snapshotMaxAge the oldest copy that is served
 * @param clusterId the cluster's identity, written into and required from the copy
 * @param ednsUdpSize the EDNS UDP payload size advertised and used at most (512..65535)
 * @param weightedAnswer {@code one} or {@code all-ordered}: how weighted sets are answered
 * @param maxAnswerRecords the most records of one set in an answer
 * @param maxRecords the most records a snapshot may hold; a larger build is refused and the
 *     previous view keeps serving
 * @param rateLimit UDP responses per second per client /24 (IPv4) or /56 (IPv6); 0 turns response
 *     rate limiting off
 * @param rateLimitSlip every how many rate-limited responses one goes out truncated (TC) so real
 *     clients retry over TCP; 0 drops them all
 * @param tcpIdleTimeout how long an idle TCP connection is kept
 * @param tcpMaxConnections open TCP connections at most
 * @param geoip the GeoIP database for {@code strategy: geoip}
 * @param kubernetes the API server connection
 */
@ConfigurationProperties(prefix = "responder", ignoreUnknownFields = false)
public record ResponderProperties(
    @DefaultValue("127.0.0.1") InetAddress listenAddress,
    @DefaultValue("5353") int port,
    @DefaultValue("2") int workers,
    List<Zone> zones,
    @DefaultValue("k8gb.io/dnstype=local") List<String> labelSelector,
    @DefaultValue("60s") Duration defaultTtl,
    @DefaultValue("50ms") Duration debounce,
    Path snapshotFile,
    @DefaultValue("30s") Duration snapshotWriteInterval,
    @DefaultValue("15s") Duration snapshotGrace,
    @DefaultValue("24h") Duration snapshotMaxAge,
    @DefaultValue("local") String clusterId,
    @DefaultValue("1232") int ednsUdpSize,
    @DefaultValue("one") WeightedAnswer weightedAnswer,
    @DefaultValue("32") int maxAnswerRecords,
    @DefaultValue("1000000") int maxRecords,
    @DefaultValue("0") int rateLimit,
    @DefaultValue("2") int rateLimitSlip,
    @DefaultValue("10s") Duration tcpIdleTimeout,
    @DefaultValue("128") int tcpMaxConnections,
    @DefaultValue GeoIp geoip,
    @DefaultValue Kubernetes kubernetes) {

  public ResponderProperties {
    List<String> errors = new ArrayList<>();
    check(errors, port >= 0 && port <= 65535, "responder.port must be 0..65535, not " + port);
    check(errors, workers >= 1 && workers <= 64, "responder.workers must be 1..64");
    zones = zones == null ? List.of() : List.copyOf(zones);
    check(errors, !zones.isEmpty(), "responder.zones needs at least one zone");
    labelSelector = labelSelector == null ? List.of() : List.copyOf(labelSelector);
    check(errors, !labelSelector.isEmpty(), "responder.label-selector needs a selector");
    checkTtl(errors, "responder.default-ttl", defaultTtl);
    check(errors, positive(debounce), "responder.debounce must be positive");
    check(
        errors,
        positive(snapshotWriteInterval),
        "responder.snapshot-write-interval must be positive");
    check(errors, !snapshotGrace.isNegative(), "responder.snapshot-grace must not be negative");
    check(errors, positive(snapshotMaxAge), "responder.snapshot-max-age must be positive");
    check(errors, clusterId != null && !clusterId.isBlank(), "responder.cluster-id is empty");
    check(
        errors,
        ednsUdpSize >= 512 && ednsUdpSize <= 65535,
        "responder.edns-udp-size must be 512..65535");
    check(errors, maxAnswerRecords >= 1, "responder.max-answer-records must be positive");
    check(errors, maxRecords >= 1, "responder.max-records must be positive");
    check(errors, rateLimit >= 0, "responder.rate-limit must not be negative");
    check(errors, rateLimitSlip >= 0, "responder.rate-limit-slip must not be negative");
    check(errors, positive(tcpIdleTimeout), "responder.tcp-idle-timeout must be positive");
    check(errors, tcpMaxConnections >= 1, "responder.tcp-max-connections must be positive");
    for (int i = 0; i < zones.size(); i++) {
      zones.get(i).check("responder.zones[" + i + "]", errors);
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", errors));
    }
  }

  /**
   * One zone.
   *
   * @param name the zone apex, e.g. {@code cloud.example.com}
   * @param ns the apex name servers; default one, {@code ns1.<zone>} without addresses
   * @param negativeTtl the SOA TTL and MINIMUM: how long NXDOMAIN and NODATA are cached
   * @param nsTtl the TTL of the apex NS records and their glue
   * @param hostmaster the SOA RNAME: a label (relative to the zone) or an absolute name
   * @param refresh SOA REFRESH
   * @param retry SOA RETRY
   * @param expire SOA EXPIRE
   */
  public record Zone(
      String name,
      List<NameServer> ns,
      @DefaultValue("30s") Duration negativeTtl,
      @DefaultValue("1h") Duration nsTtl,
      @DefaultValue("hostmaster") String hostmaster,
      @DefaultValue("2h") Duration refresh,
      @DefaultValue("30m") Duration retry,
      @DefaultValue("14d") Duration expire) {

    public Zone {
      ns = ns == null ? List.of() : List.copyOf(ns);
    }

    void check(String path, List<String> errors) {
      if (name == null || name.isBlank() || !isDnsName(name)) {
        errors.add(path + ".name '" + name + "' is not a DNS name");
      }
      for (int i = 0; i < ns.size(); i++) {
        NameServer server = ns.get(i);
        if (server.name() == null || !isDnsName(server.name())) {
          errors.add(path + ".ns[" + i + "].name '" + server.name() + "' is not a DNS name");
        }
        for (String address : server.addresses()) {
          if (IpLiteral.parse(address).isEmpty()) {
            errors.add(path + ".ns[" + i + "].addresses '" + address + "' is not an IP address");
          }
        }
      }
      if (hostmaster == null || !isDnsName(hostmaster)) {
        errors.add(path + ".hostmaster '" + hostmaster + "' is not a DNS name");
      }
      checkTtl(errors, path + ".negative-ttl", negativeTtl);
      checkTtl(errors, path + ".ns-ttl", nsTtl);
      checkTtl(errors, path + ".refresh", refresh);
      checkTtl(errors, path + ".retry", retry);
      checkTtl(errors, path + ".expire", expire);
    }
  }

  /**
   * An apex name server.
   *
   * @param name its host name
   * @param addresses its addresses, served as glue when the name is inside a served zone
   */
  public record NameServer(String name, List<String> addresses) {
    public NameServer {
      addresses = addresses == null ? List.of() : List.copyOf(addresses);
    }
  }

  /**
   * GeoIP for endpoints labelled {@code strategy: geoip}.
   *
   * @param database the MaxMind DB file ({@code .mmdb}); unset: geoip answers carry every target
   * @param field the record fields compared, tried in order ({@code datacenter}, or e.g. {@code
   *     country.iso_code,continent.code})
   * @param reloadInterval how often the file is checked for changes
   */
  public record GeoIp(
      Path database,
      @DefaultValue("datacenter") List<String> field,
      @DefaultValue("10s") Duration reloadInterval) {
    public GeoIp {
      field = field == null ? List.of("datacenter") : List.copyOf(field);
      if (field.isEmpty() || !positive(reloadInterval)) {
        throw new IllegalArgumentException(
            "responder.geoip.field needs a field and responder.geoip.reload-interval must be"
                + " positive");
      }
    }
  }

  /**
   * The API server.
   *
   * @param masterUrl the API server URL; unset: fabric8's auto-configuration (kubeconfig,
   *     in-cluster service account)
   */
  public record Kubernetes(URI masterUrl) {}

  private static boolean positive(Duration d) {
    return d != null && !d.isNegative() && !d.isZero();
  }

  private static void check(List<String> errors, boolean ok, String message) {
    if (!ok) {
      errors.add(message);
    }
  }

  private static void checkTtl(List<String> errors, String property, Duration d) {
    if (d == null || Ttl.check(property, d.toSeconds()).isPresent()) {
      errors.add(property + " must be between 1 second and " + Ttl.MAX_SECONDS + " seconds");
    }
  }

  private static boolean isDnsName(String name) {
    String n = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    if (n.isEmpty() || n.length() > 253) {
      return false;
    }
    for (String label : n.toLowerCase(Locale.ROOT).split("\\.", -1)) {
      if (label.isEmpty() || label.length() > 63 || !label.matches("[a-z0-9_-]+")) {
        return false;
      }
    }
    return true;
  }
}
