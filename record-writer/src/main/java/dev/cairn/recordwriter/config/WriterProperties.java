package dev.cairn.recordwriter.config;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.commonmodel.validation.GeoTags;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The record-writer's settings ({@code writer.*}). Checked when bound, so bad configuration stops
 * the service before it touches Kafka or the API server.
 *
 * @param kubernetes how to reach the API server
 * @param topics topic prefix and creation settings
 * @param gracePeriod how long the last records of a source without targets are kept; zero or less
 *     deletes them at once. A decision's {@code gracePeriodSeconds} overrides it
 * @param resyncPeriod how often everything Cairn owns is listed and converged
 * @param leaderElection the Lease that makes one instance the writer
 * @param rateLimit the token bucket every DNSEndpoint and Gslb status write goes through
 * @param maxConcurrentWrites how many DNSEndpoint and Gslb status writes may be in flight at once
 *     (never two to the same object); 1 to 64
 * @param statusWriteMaxDelay how long a Gslb status write yields to DNSEndpoint writes (what DNS
 *     answers goes first); once it has waited this long it goes before DNSEndpoint writes queued
 *     after it had. Zero or more
 * @param fieldManager the field manager named in {@code managedFields} of the objects written
 * @param events the Kubernetes Events recorded on source objects (conflicts, rejected endpoints,
 *     Gslb problems)
 * @param embeddedIngress the Ingress created for a Gslb with {@code spec.ingress} and no
 *     resourceRef, as k8gb creates it
 * @param ingressAnnotations the Gslb created for an Ingress annotated {@code k8gb.io/strategy}, as
 *     k8gb creates it
 * @param delegation the zone delegation published for external-dns to push to the edge DNS, as k8gb
 *     publishes it
 */
@ConfigurationProperties(prefix = "writer", ignoreUnknownFields = false)
public record WriterProperties(
    @DefaultValue Kubernetes kubernetes,
    @DefaultValue TopicSettings topics,
    @DefaultValue("5m") Duration gracePeriod,
    @DefaultValue("10m") Duration resyncPeriod,
    @DefaultValue LeaderElection leaderElection,
    @DefaultValue RateLimit rateLimit,
    @DefaultValue("8") int maxConcurrentWrites,
    @DefaultValue("5s") Duration statusWriteMaxDelay,
    @DefaultValue("cairn-record-writer") String fieldManager,
    @DefaultValue Events events,
    @DefaultValue EmbeddedIngress embeddedIngress,
    @DefaultValue IngressAnnotations ingressAnnotations,
    @DefaultValue Delegation delegation) {

  public WriterProperties {
    if (resyncPeriod == null || resyncPeriod.isZero() || resyncPeriod.isNegative()) {
      throw new IllegalArgumentException(
          "writer.resync-period must be positive, got " + resyncPeriod);
    }
    if (gracePeriod == null) {
      throw new IllegalArgumentException("writer.grace-period must be set");
    }
    if (maxConcurrentWrites < 1 || maxConcurrentWrites > 64) {
      throw new IllegalArgumentException(
          "writer.max-concurrent-writes must be 1 to 64, got " + maxConcurrentWrites);
    }
    if (statusWriteMaxDelay == null || statusWriteMaxDelay.isNegative()) {
      throw new IllegalArgumentException(
          "writer.status-write-max-delay must be zero or positive, got " + statusWriteMaxDelay);
    }
    if (fieldManager == null || fieldManager.isBlank() || fieldManager.length() > 128) {
      throw new IllegalArgumentException(
          "writer.field-manager must be 1 to 128 characters, got '" + fieldManager + "'");
    }
  }

  /**
   * The API server.
   *
   * @param masterUrl the API server URL; when unset, fabric8's auto-configuration (kubeconfig,
   *     in-cluster service account) applies
   */
  public record Kubernetes(URI masterUrl) {}

  /**
   * Leader election on a Lease.
   *
   * @param enabled false makes this instance write without a lease (a single replica)
   * @param leaseName the Lease's name
   * @param namespace the Lease's namespace; default the client's namespace (the pod's own)
   * @param identity this instance's name in the Lease; default the host name plus a random suffix
   * @param leaseDuration how long a lease is valid without renewal
   * @param renewDeadline how long the leader keeps trying to renew before it stops writing
   * @param retryPeriod how often candidates try to acquire and the leader renews
   */
  public record LeaderElection(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("cairn-record-writer") String leaseName,
      String namespace,
      String identity,
      @DefaultValue("15s") Duration leaseDuration,
      @DefaultValue("10s") Duration renewDeadline,
      @DefaultValue("2s") Duration retryPeriod) {

    public LeaderElection {
      if (leaseName == null || leaseName.isBlank()) {
        throw new IllegalArgumentException("writer.leader-election.lease-name must be set");
      }
      if (retryPeriod == null || retryPeriod.isZero() || retryPeriod.isNegative()) {
        throw new IllegalArgumentException(
            "writer.leader-election.retry-period must be positive, got " + retryPeriod);
      }
      if (renewDeadline == null || renewDeadline.compareTo(retryPeriod) <= 0) {
        throw new IllegalArgumentException(
            "writer.leader-election.renew-deadline ("
                + renewDeadline
                + ") must be longer than retry-period ("
                + retryPeriod
                + ")");
      }
      if (leaseDuration == null || leaseDuration.compareTo(renewDeadline) <= 0) {
        throw new IllegalArgumentException(
            "writer.leader-election.lease-duration ("
                + leaseDuration
                + ") must be longer than renew-deadline ("
                + renewDeadline
                + ")");
      }
    }
  }

  /**
   * Kubernetes Events ({@code events.k8s.io/v1}, type Warning) on the source HTTPRoute or Gslb, so
   * {@code kubectl describe} shows conflicts and rejected input. Each condition is recorded once;
   * one that persists is recorded again (its count bumped) after {@code refreshInterval}, which
   * keeps it visible past the API server's event TTL (one hour by default).
   *
   * @param enabled false records no Events
   * @param refreshInterval how long a recorded condition counts as recorded
   * @param writesPerSecond the sustained rate of Event writes (their own bucket, apart from record
   *     and status writes)
   * @param burst how many Event writes may go at once after a quiet period
   */
  public record Events(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("30m") Duration refreshInterval,
      @DefaultValue("5") double writesPerSecond,
      @DefaultValue("25") int burst) {

    public Events {
      if (refreshInterval == null || refreshInterval.isZero() || refreshInterval.isNegative()) {
        throw new IllegalArgumentException(
            "writer.events.refresh-interval must be positive, got " + refreshInterval);
      }
      if (!(writesPerSecond > 0)) {
        throw new IllegalArgumentException(
            "writer.events.writes-per-second must be positive, got " + writesPerSecond);
      }
      if (burst < 1) {
        throw new IllegalArgumentException("writer.events.burst must be at least 1, got " + burst);
      }
    }
  }

  /**
   * The Ingress k8gb creates for a Gslb that embeds {@code spec.ingress} (k8gb.md §1.5): same name
   * and namespace, spec from {@code spec.ingress}, controlled by the Gslb. Its load-balancer status
   * is the cluster's local targets for that Gslb.
   *
   * @param enabled false creates no Ingress (k8gb still running beside Cairn creates it, or the
   *     Ingresses are managed by other means); an embedded Gslb then has local targets only from
   *     its annotation or {@code engine.gslb.exposed-ips}, or from an Ingress of its name created
   *     by someone else
   */
  public record EmbeddedIngress(@DefaultValue("true") boolean enabled) {}

  /**
   * k8gb's Ingress-annotation mode (k8gb.md §1.6): an Ingress annotated {@code k8gb.io/strategy}
   * (with {@code k8gb.io/dns-ttl-seconds}, {@code k8gb.io/primary-geotag}) gets a Gslb of its name,
   * controlled by the Ingress, whose resourceRef is the Ingress.
   *
   * @param enabled false creates no Gslb for annotated Ingresses (k8gb still running beside Cairn
   *     creates them); Gslbs created before are left as they are
   */
  public record IngressAnnotations(@DefaultValue("true") boolean enabled) {}

  /**
   * The zone delegation k8gb publishes for external-dns (k8gb.md §7.2, k8gb's {@code
   * extdns.enabled}): per zone, a DNSEndpoint {@code k8gb-ns-extdns-<zone>} labelled {@code
   * k8gb.io/dnstype=extdns} with the zone's NS records (this cluster's and the peers' name servers,
   * {@code <glue-prefix><geo-tag>-<zone>.<parent>}) and this cluster's name server's addresses as
   * glue.
   *
   * @param enabled whether to publish it
   * @param zones the delegated zones ({@code parent-zone}, {@code load-balanced-zone})
   * @param gluePrefix the prefix of the name server names (k8gb's {@code GLUEA_PREFIX})
   * @param geoTag this cluster's geo tag
   * @param peerGeoTags the other clusters' geo tags (k8gb's {@code EXT_GSLB_CLUSTERS_GEO_TAGS})
   * @param addresses this cluster's name server addresses (the dns-responder's), IPv4 and IPv6
   * @param service the dns-responder's Service whose load-balancer addresses are this cluster's
   *     name server addresses, {@code name} (in the writer's namespace) or {@code namespace/name};
   *     used when {@code addresses} is empty
   * @param namespace where the DNSEndpoints go; default the writer's own namespace
   * @param ttl the TTL of the NS and glue records (k8gb's {@code NS_RECORD_TTL})
   */
  public record Delegation(
      @DefaultValue("false") boolean enabled,
      @DefaultValue List<DelegationZone> zones,
      @DefaultValue("gslb-ns-") String gluePrefix,
      String geoTag,
      @DefaultValue List<String> peerGeoTags,
      @DefaultValue List<String> addresses,
      String service,
      String namespace,
      @DefaultValue("30s") Duration ttl) {

    private static final Pattern GLUE_PREFIX = Pattern.compile("[A-Za-z0-9-]*");

    public Delegation {
      if (enabled) {
        check(zones, gluePrefix, geoTag, peerGeoTags, addresses, service, ttl);
      }
    }

    private static void check(
        List<DelegationZone> zones,
        String gluePrefix,
        String geoTag,
        List<String> peerGeoTags,
        List<String> addresses,
        String service,
        Duration ttl) {
      List<String> problems = new ArrayList<>();
      if (zones.isEmpty()) {
        problems.add("writer.delegation.zones needs at least one zone");
      }
      if (gluePrefix == null || !GLUE_PREFIX.matcher(gluePrefix).matches()) {
        problems.add(
            "writer.delegation.glue-prefix may hold only letters, digits and '-', got '"
                + gluePrefix
                + "'");
      }
      if (!GeoTags.isValid(geoTag)) {
        problems.add(
            "writer.delegation.geo-tag is required: this cluster's geo tag (letters, digits, '-'),"
                + " got '"
                + geoTag
                + "'");
      }
      for (int i = 0; i < peerGeoTags.size(); i++) {
        if (!GeoTags.isValid(peerGeoTags.get(i))) {
          problems.add(
              "writer.delegation.peer-geo-tags["
                  + i
                  + "] is not a geo tag: '"
                  + peerGeoTags.get(i)
                  + "'");
        }
      }
      for (int i = 0; i < addresses.size(); i++) {
        if (IpLiteral.parse(addresses.get(i)).isEmpty()) {
          problems.add(
              "writer.delegation.addresses["
                  + i
                  + "] is not an IPv4 or IPv6 literal: '"
                  + addresses.get(i)
                  + "'");
        }
      }
      if (addresses.isEmpty() && (service == null || service.isBlank())) {
        problems.add(
            "writer.delegation needs addresses or service: this cluster's name server addresses,"
                + " or the dns-responder Service that has them");
      }
      if (ttl == null || ttl.isNegative() || ttl.getSeconds() < 1 || ttl.getNano() != 0) {
        problems.add("writer.delegation.ttl must be whole seconds, at least 1s, got " + ttl);
      }
      if (problems.isEmpty() && GeoTags.isValid(geoTag)) {
        for (DelegationZone zone : zones) {
          for (String tag : peerGeoTagsAnd(geoTag, peerGeoTags)) {
            String ns = zone.nsName(gluePrefix, tag);
            if (Hostnames.check("ns", ns).isPresent()) {
              problems.add(
                  "writer.delegation: the name server name '"
                      + ns
                      + "' of zone "
                      + zone.loadBalancedZone()
                      + " is not a valid host name (too long?)");
            }
          }
        }
      }
      if (!problems.isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", problems));
      }
    }

    private static List<String> peerGeoTagsAnd(String own, List<String> peers) {
      List<String> all = new ArrayList<>(peers);
      all.add(own);
      return all;
    }
  }

  /**
   * The token bucket of API writes (DNSEndpoint creates, updates and deletes, and Gslb status
   * writes).
   *
   * @param writesPerSecond the sustained rate of creates, updates and deletes
   * @param burst how many writes may go at once after a quiet period
   */
  public record RateLimit(
      @DefaultValue("50") double writesPerSecond, @DefaultValue("100") int burst) {

    public RateLimit {
      if (!(writesPerSecond > 0)) {
        throw new IllegalArgumentException(
            "writer.rate-limit.writes-per-second must be positive, got " + writesPerSecond);
      }
      if (burst < 1) {
        throw new IllegalArgumentException(
            "writer.rate-limit.burst must be at least 1, got " + burst);
      }
    }
  }
}
