package dev.cairn.topologywatcher.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class WatcherPropertiesTest {

  private static WatcherProperties bind(Map<String, String> values) {
    return new Binder(new MapConfigurationPropertySource(values))
        .bindOrCreate("watcher", WatcherProperties.class);
  }

  @Test
  void hasTheDocumentedDefaults() {
    WatcherProperties p = bind(Map.of());

    assertThat(p.kubernetes().masterUrl()).isNull();
    assertThat(p.topics().prefix()).isEmpty();
    assertThat(p.topics().partitions()).isEqualTo(1);
    assertThat(p.namespaces()).isEmpty();
    assertThat(p.labelSelector()).isNull();
    assertThat(p.resyncPeriod()).isEqualTo(Duration.ofMinutes(10));
    assertThat(p.crdPollInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(p.clusterName()).isEqualTo("default");
    WatcherProperties.LeaderElection election = p.leaderElection();
    assertThat(election.enabled()).isTrue();
    assertThat(election.leaseName()).isEqualTo("cairn-topology-watcher");
    assertThat(election.namespace()).isNull();
    assertThat(election.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
    assertThat(election.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
    assertThat(election.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void bindsEveryProperty() {
    WatcherProperties p =
        bind(
            Map.ofEntries(
                Map.entry("watcher.kubernetes.master-url", "https://10.0.0.1:6443"),
                Map.entry("watcher.topics.prefix", "eu."),
                Map.entry("watcher.topics.partitions", "3"),
                Map.entry("watcher.namespaces[0]", "shop"),
                Map.entry("watcher.namespaces[1]", "blog"),
                Map.entry("watcher.label-selector", "app=web"),
                Map.entry("watcher.resync-period", "5m"),
                Map.entry("watcher.crd-poll-interval", "10s"),
                Map.entry("watcher.leader-election.enabled", "false"),
                Map.entry("watcher.leader-election.namespace", "cairn"),
                Map.entry("watcher.leader-election.identity", "pod-1"),
                Map.entry("watcher.cluster-name", "eu")));

    assertThat(p.kubernetes().masterUrl()).hasToString("https://10.0.0.1:6443");
    assertThat(p.topics().prefix()).isEqualTo("eu.");
    assertThat(p.topics().partitions()).isEqualTo(3);
    assertThat(p.namespaces()).containsExactly("shop", "blog");
    assertThat(p.labelSelector()).isEqualTo("app=web");
    assertThat(p.resyncPeriod()).isEqualTo(Duration.ofMinutes(5));
    assertThat(p.crdPollInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(p.leaderElection().enabled()).isFalse();
    assertThat(p.leaderElection().namespace()).isEqualTo("cairn");
    assertThat(p.leaderElection().identity()).isEqualTo("pod-1");
    assertThat(p.clusterName()).isEqualTo("eu");
  }

  @Test
  void rejectsTimingsThatBreakLeaderElection() {
    assertThatThrownBy(
            () ->
                bind(
                    Map.of(
                        "watcher.leader-election.lease-duration", "10s",
                        "watcher.leader-election.renew-deadline", "10s")))
        .isInstanceOf(BindException.class)
        .rootCause()
        .hasMessageContaining("renew-deadline (PT10S) must be shorter than lease-duration (PT10S)");
  }

  @Test
  void rejectsANonPositiveResyncPeriodAndBlankNamespaces() {
    assertThatThrownBy(() -> bind(Map.of("watcher.resync-period", "0s")))
        .rootCause()
        .hasMessageContaining("watcher.resync-period must be a positive duration");
    assertThatThrownBy(() -> bind(Map.of("watcher.namespaces[0]", " ")))
        .rootCause()
        .hasMessageContaining("watcher.namespaces must not hold blank entries");
  }
}
