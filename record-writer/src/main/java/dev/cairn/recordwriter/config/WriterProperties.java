package dev.cairn.recordwriter.config;

import dev.cairn.commonmodel.TopicSettings;
import java.net.URI;
import java.time.Duration;
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
 */
@ConfigurationProperties(prefix = "writer")
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
    @DefaultValue IngressAnnotations ingressAnnotations) {

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
