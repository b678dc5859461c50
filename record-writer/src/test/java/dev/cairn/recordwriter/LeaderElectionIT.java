package dev.cairn.recordwriter;

import static dev.cairn.recordwriter.TestDecisions.objectName;
import static dev.cairn.recordwriter.TestDecisions.publish;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.recordwriter.leader.LeaderElection;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two writers on one Lease: only the holder writes; on shutdown it gives the lease up. */
class LeaderElectionIT {

  private static final Duration WAIT = Duration.ofSeconds(40);

  @Test
  void onlyTheLeaderWritesAndAStandbyTakesOverWhenItStops() {
    try (MockKubernetes api = new MockKubernetes(true);
        StateProducer<TargetDecision> decisions =
            StateProducer.decisions(EmbeddedBroker.bootstrapServers(), "leader.");
        StateProducer<GslbStatus> statuses =
            StateProducer.gslbStatuses(EmbeddedBroker.bootstrapServers(), "leader.")) {
      String[] leaseSettings = {
        "writer.leader-election.namespace=cairn",
        "writer.leader-election.lease-duration=15s",
        "writer.leader-election.renew-deadline=10s"
      };
      WriterRun a = WriterRun.start(api, "leader.", leaseSettings);
      WriterRun b = WriterRun.start(api, "leader.", leaseSettings);
      try {
        await()
            .atMost(WAIT)
            .until(
                () ->
                    a.bean(LeaderElection.class).isLeader()
                        ^ b.bean(LeaderElection.class).isLeader());

        decisions.send(publish("leader", "web", "192.0.2.1"));
        await().atMost(WAIT).until(() -> api.get("leader", objectName("web")) != null);

        // Exactly one instance wrote, and it is the one holding the lease.
        assertThat(a.writes() > 0).isNotEqualTo(b.writes() > 0);
        WriterRun leader = a.writes() > 0 ? a : b;
        WriterRun standby = leader == a ? b : a;
        assertThat(leader.bean(LeaderElection.class).isLeader()).isTrue();
        assertThat(standby.writes()).isZero();
        Lease lease =
            api.client().leases().inNamespace("cairn").withName("cairn-record-writer").get();
        String leaderIdentity = leader.bean(LeaderElection.class).identity();
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo(leaderIdentity);

        // Gslb statuses too: only the leader writes them.
        String uid = api.createGslb("leader", "gslb").getMetadata().getUid();
        statuses.send(TestStatuses.healthy("leader", "gslb", uid, "192.0.2.1"));
        await()
            .atMost(WAIT)
            .until(
                () ->
                    api.getGslb("leader", "gslb").getAdditionalProperties().get("status") != null);
        assertThat(leader.counter("cairn.writer.gslb.status.writes")).isEqualTo(1);
        assertThat(standby.counter("cairn.writer.gslb.status.writes")).isZero();
        assertThat(api.writesOf(MockKubernetes.GSLB_STATUS_WRITES, "leader", "gslb")).hasSize(1);

        leader.close();

        Lease released =
            api.client().leases().inNamespace("cairn").withName("cairn-record-writer").get();
        assertThat(released.getSpec().getHolderIdentity()).isNotEqualTo(leaderIdentity);
        await().atMost(WAIT).until(() -> standby.bean(LeaderElection.class).isLeader());
        decisions.send(publish("leader", "web", "192.0.2.2"));
        await()
            .atMost(WAIT)
            .until(
                () -> RecordWriterIT.targets(api.get("leader", objectName("web"))),
                t -> t.equals(List.of("192.0.2.2")));
        assertThat(standby.writes()).isPositive();
      } finally {
        a.close();
        b.close();
      }
    }
  }

  @Test
  void losingTheLeaseStopsWritingButNotTheProcess() {
    try (MockKubernetes api = new MockKubernetes(true);
        StateProducer<TargetDecision> decisions =
            StateProducer.decisions(EmbeddedBroker.bootstrapServers(), "lost.");
        WriterRun writer = WriterRun.start(api, "lost.", "writer.leader-election.namespace=lost")) {
      LeaderElection election = writer.bean(LeaderElection.class);
      await().atMost(WAIT).until(election::isLeader);

      // Another instance takes the lease (as after a network partition).
      await()
          .atMost(WAIT)
          .ignoreExceptions()
          .until(
              () ->
                  api.client()
                          .leases()
                          .inNamespace("lost")
                          .withName("cairn-record-writer")
                          .edit(
                              l -> {
                                l.getSpec().setHolderIdentity("someone-else");
                                l.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC));
                                return l;
                              })
                      != null);
      await().atMost(WAIT).until(() -> !election.isLeader());
      decisions.send(publish("lost", "web", "192.0.2.1"));
      await()
          .during(Duration.ofSeconds(1))
          .atMost(Duration.ofSeconds(2))
          .until(() -> api.get("lost", objectName("web")) == null);
      assertThat(writer.isRunning()).isTrue();

      // The thief never renews: once its lease expires this instance leads and catches up.
      await().atMost(WAIT).until(election::isLeader);
      await().atMost(WAIT).until(() -> api.get("lost", objectName("web")) != null);
    }
  }
}
