package dev.cairn.topologywatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.topologywatcher.lifecycle.WatcherStatus;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Two watchers and a Lease in the CRUD mock API server. */
class LeaderFailoverIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  private MockCluster cluster;
  private KubernetesClient kube;

  @BeforeEach
  void startCluster() {
    cluster = new MockCluster();
    kube = cluster.client();
  }

  @AfterEach
  void stopCluster() {
    cluster.close();
  }

  @Test
  void onlyTheLeaderPublishesAndTheStandbyTakesOverWithoutRepublishing() {
    kube.resource(Fixtures.node("node-a", "eu-1a", true, "10.0.0.1")).create();
    kube.resource(Fixtures.service("shop", "web", "ClusterIP", null)).create();
    String prefix = "failover.";
    try (TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      RunningWatcher first = RunningWatcher.start(cluster, prefix);
      RunningWatcher second = null;
      try {
        await().atMost(WAIT).until(() -> syncedMarkers(topics).size() == 1);
        // The recorder reads each topic on its own: the marker can arrive before the state it
        // follows on the broker.
        await().atMost(WAIT).untilAsserted(() -> assertThat(topics.state()).hasSize(2));

        second = RunningWatcher.start(cluster, prefix);
        RunningWatcher standby = second;
        await().atMost(WAIT).until(() -> standby.readiness() == 200);
        assertThat(first.status().role()).isEqualTo(WatcherStatus.Role.LEADER);
        assertThat(standby.status().role()).isEqualTo(WatcherStatus.Role.STANDBY);
        assertThat(standby.status().leaderIdentity()).isEqualTo(first.status().identity());

        kube.resource(Fixtures.node("node-a", "eu-1b", true, "10.0.0.1")).update();
        await()
            .atMost(WAIT)
            .until(
                () ->
                    "eu-1b"
                        .equals(((NodeState) topics.latest(Topics.NODES, "Node/node-a")).zone()));
        assertThat(standby.publishing()).isFalse();
        assertThat(standby.get("/actuator/prometheus").body())
            .contains("cairn_watcher_leader 0.0")
            .contains("cairn_watcher_events_published_total{kind=\"Node\",op=\"upsert\"} 0.0")
            .contains(
                "cairn_watcher_events_published_total{kind=\"SyncMarker\",op=\"upsert\"} 0.0");
        int published = topics.state().size();
        assertThat(published).isEqualTo(3);

        first.close();
        first = null;
        await().atMost(WAIT).until(() -> syncedMarkers(topics).size() == 2);
        List<SyncMarker> synced = syncedMarkers(topics);
        assertThat(synced.get(1).generation()).isNotEqualTo(synced.get(0).generation());
        assertThat(topics.state()).hasSize(published);
        assertThat(standby.status().role()).isEqualTo(WatcherStatus.Role.LEADER);
        assertThat(standby.readiness()).isEqualTo(200);

        kube.resource(Fixtures.node("node-b", "eu-1a", false, "10.0.0.2")).create();
        await().atMost(WAIT).until(() -> topics.latest(Topics.NODES, "Node/node-b") != null);
        assertThat(topics.state()).hasSize(published + 1);
      } finally {
        if (first != null) {
          first.close();
        }
        if (second != null) {
          second.close();
        }
      }
    }
  }

  @Test
  void aRestartPublishesExactlyWhatChangedWhileNoWatcherRan() {
    kube.resource(Fixtures.node("node-a", "eu-1a", true, "10.0.0.1")).create();
    kube.resource(Fixtures.node("node-b", "eu-1a", true, "10.0.0.2")).create();
    kube.resource(Fixtures.service("shop", "web", "ClusterIP", null)).create();
    kube.resource(Fixtures.service("shop", "api", "ClusterIP", null)).create();
    String prefix = "restart.";
    try (TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      try (RunningWatcher watcher = RunningWatcher.start(cluster, prefix)) {
        await().atMost(WAIT).until(() -> syncedMarkers(topics).size() == 1);
      }
      await().atMost(WAIT).untilAsserted(() -> assertThat(topics.state()).hasSize(4));
      int before = topics.state().size();

      kube.nodes().withName("node-b").delete();
      kube.resource(Fixtures.service("shop", "web", "NodePort", null)).update();
      Service api = kube.services().inNamespace("shop").withName("api").get();
      // An annotation no rule reads changes nothing published (a label would: schema 1.3 carries
      // them for resourceRef selectors).
      api.getMetadata().setAnnotations(Map.of("team.example.com/owner", "payments"));
      kube.resource(api).update();

      try (RunningWatcher watcher = RunningWatcher.start(cluster, prefix)) {
        await().atMost(WAIT).until(() -> syncedMarkers(topics).size() == 2);
        await()
            .atMost(WAIT)
            .untilAsserted(
                () ->
                    assertThat(topics.state().subList(before, topics.state().size()))
                        .extracting(TopicRecorder.Message::key)
                        .containsExactlyInAnyOrder("Node/node-b", "Service/shop/web"));
        assertThat(topics.latest(Topics.NODES, "Node/node-b")).isNull();
        assertThat(((ServiceState) topics.latest(Topics.SERVICES, "Service/shop/web")).type())
            .isEqualTo("NodePort");
      }
    }
  }

  @Test
  void aLeaderThatLosesItsLeaseStopsPublishingAndLeadsAgainLater() {
    kube.resource(Fixtures.node("node-a", "eu-1a", true, "10.0.0.1")).create();
    String prefix = "lease-loss.";
    try (TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix);
        RunningWatcher watcher = RunningWatcher.start(cluster, prefix)) {
      await().atMost(WAIT).until(() -> syncedMarkers(topics).size() == 1);

      // Another holder takes the lease (as after a partition); the watcher cannot renew it.
      kube.leases()
          .inNamespace("default")
          .withName("cairn-topology-watcher")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"spec\":{\"holderIdentity\":\"intruder\",\"leaseDurationSeconds\":4,"
                  + "\"renewTime\":\""
                  + DateTimeFormatter.ISO_INSTANT.format(
                      Instant.now().truncatedTo(ChronoUnit.MICROS))
                  + "\"}}");
      await().atMost(WAIT).until(() -> watcher.status().role() == WatcherStatus.Role.STANDBY);
      assertThat(watcher.publishing()).isFalse();

      // A change while standing by is published when the watcher leads again (the intruder
      // never renews), as part of the new term's differences.
      kube.resource(Fixtures.node("node-a", "eu-1b", true, "10.0.0.1")).update();
      await().atMost(WAIT).until(() -> syncedMarkers(topics).size() == 2);
      assertThat(watcher.status().role()).isEqualTo(WatcherStatus.Role.LEADER);
      assertThat(((NodeState) topics.latest(Topics.NODES, "Node/node-a")).zone())
          .isEqualTo("eu-1b");
      assertThat(topics.of(Topics.NODES, "Node/node-a")).hasSize(2);
    }
  }

  private static List<SyncMarker> syncedMarkers(TopicRecorder topics) {
    return topics.markers().stream().filter(SyncMarker::synced).toList();
  }
}
