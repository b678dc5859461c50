package dev.cairn.topologywatcher.config;

import dev.cairn.commonmodel.TopicSettings;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of the topology-watcher, prefix {@code watcher}. Checked when bound: a bad value
 * stops the service before it touches Kafka or the API server.
 *
 * @param kubernetes how to reach the API server
 * @param topics topic prefix, partitions and replicas of the contract topics
 * @param namespaces the namespaces to watch; empty means all namespaces (Nodes are always watched
 *     cluster-wide)
 * @param labelSelector a label selector ({@code app=web,tier!=cache}) applied to the namespaced
 *     kinds (routes, Gateways, Services, EndpointSlices, Gslbs), not to Nodes; unset means
 *     everything
 * @param resyncPeriod how often every kind is re-listed from scratch to repair drift; only real
 *     differences are published
 * @param crdPollInterval how often a kind whose CRD is not installed (Gateway API, Gslb) is looked
 *     for again
 * @param leaderElection the Lease that picks the one replica that publishes
 * @param clusterName a name for this cluster in logs and health details only
 */
@ConfigurationProperties(prefix = "watcher", ignoreUnknownFields = false)
public record WatcherProperties(
    @DefaultValue Kubernetes kubernetes,
    @DefaultValue TopicSettings topics,
    @DefaultValue List<String> namespaces,
    String labelSelector,
    @DefaultValue("10m") Duration resyncPeriod,
    @DefaultValue("30s") Duration crdPollInterval,
    @DefaultValue LeaderElection leaderElection,
    @DefaultValue("default") String clusterName) {

  public WatcherProperties {
    kubernetes = kubernetes == null ? new Kubernetes(null) : kubernetes;
    topics = topics == null ? TopicSettings.defaults() : topics;
    namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
    for (String ns : namespaces) {
      if (ns == null || ns.isBlank()) {
        throw new IllegalArgumentException("watcher.namespaces must not hold blank entries");
      }
    }
    if (labelSelector != null && labelSelector.isBlank()) {
      labelSelector = null;
    }
    positive("watcher.resync-period", resyncPeriod);
    positive("watcher.crd-poll-interval", crdPollInterval);
    leaderElection = leaderElection == null ? LeaderElection.defaults() : leaderElection;
    if (clusterName == null || clusterName.isBlank()) {
      throw new IllegalArgumentException("watcher.cluster-name must not be blank");
    }
  }

  /**
   * How to reach the API server.
   *
   * @param masterUrl the API server URL; unset means fabric8's auto-configuration (kubeconfig,
   *     in-cluster service account)
   */
  public record Kubernetes(URI masterUrl) {}

  /**
   * The Lease that elects the publishing replica (client-go's defaults).
   *
   * @param enabled elect a leader; when false this replica always publishes
   * @param leaseName the Lease name
   * @param namespace the Lease namespace; unset means the pod's namespace (from the client
   *     configuration), else {@code default}
   * @param identity this replica's holder identity; unset means {@code <hostname>-<random>}
   * @param leaseDuration how long a lease is valid without renewal
   * @param renewDeadline how long the leader keeps trying to renew before it stops publishing
   * @param retryPeriod the pause between acquire and renew attempts
   */
  public record LeaderElection(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("cairn-topology-watcher") String leaseName,
      String namespace,
      String identity,
      @DefaultValue("15s") Duration leaseDuration,
      @DefaultValue("10s") Duration renewDeadline,
      @DefaultValue("2s") Duration retryPeriod) {

    public LeaderElection {
      if (leaseName == null || leaseName.isBlank()) {
        throw new IllegalArgumentException("watcher.leader-election.lease-name must not be blank");
      }
      if (namespace != null && namespace.isBlank()) {
        namespace = null;
      }
      if (identity != null && identity.isBlank()) {
        identity = null;
      }
      positive("watcher.leader-election.lease-duration", leaseDuration);
      positive("watcher.leader-election.renew-deadline", renewDeadline);
      positive("watcher.leader-election.retry-period", retryPeriod);
      if (renewDeadline.compareTo(leaseDuration) >= 0) {
        throw new IllegalArgumentException(
            "watcher.leader-election.renew-deadline ("
                + renewDeadline
                + ") must be shorter than lease-duration ("
                + leaseDuration
                + ")");
      }
      if (retryPeriod.compareTo(renewDeadline) >= 0) {
        throw new IllegalArgumentException(
            "watcher.leader-election.retry-period ("
                + retryPeriod
                + ") must be shorter than renew-deadline ("
                + renewDeadline
                + ")");
      }
    }

    static LeaderElection defaults() {
      return new LeaderElection(
          true,
          "cairn-topology-watcher",
          null,
          null,
          Duration.ofSeconds(15),
          Duration.ofSeconds(10),
          Duration.ofSeconds(2));
    }
  }

  private static void positive(String name, Duration value) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(name + " must be a positive duration, got " + value);
    }
  }
}
