package dev.cairn.recordwriter;

import static dev.cairn.recordwriter.TestDecisions.objectName;
import static dev.cairn.recordwriter.TestDecisions.publish;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.decision.TargetDecision;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The grace period lives in the object, so it survives a restart of the writer. */
class GraceRestartIT {

  private static final Duration WAIT = Duration.ofSeconds(40);
  private static final String STALE_SINCE = "directdns.meisterlala.dev/stale-since";

  @Test
  void keepsTheTimerAcrossARestartAndRestoresTargetsThatCameBackMeanwhile() {
    try (MockKubernetes api = new MockKubernetes(true);
        StateProducer<TargetDecision> decisions =
            StateProducer.decisions(EmbeddedBroker.bootstrapServers(), "restart.")) {
      String[] grace = {"writer.grace-period=8s"};
      decisions.send(publish("restart", "expires", "192.0.2.1"));
      decisions.send(publish("restart", "recovers", "192.0.2.2"));
      String expiresSince;
      String recoversSince;
      try (WriterRun first = WriterRun.start(api, "restart.", grace)) {
        await().atMost(WAIT).until(() -> api.get("restart", objectName("expires")) != null);
        await().atMost(WAIT).until(() -> api.get("restart", objectName("recovers")) != null);
        decisions.send(TestDecisions.noTargets("restart", "expires"));
        decisions.send(TestDecisions.noTargets("restart", "recovers"));
        expiresSince = awaitStaleSince(api, "expires");
        recoversSince = awaitStaleSince(api, "recovers");
      }
      // While no writer runs, targets come back for one of them.
      decisions.send(publish("restart", "recovers", "192.0.2.3"));

      try (WriterRun second = WriterRun.start(api, "restart.", grace)) {
        GenericKubernetesResource restored =
            await()
                .atMost(WAIT)
                .until(
                    () -> api.get("restart", objectName("recovers")),
                    r -> r != null && !r.getMetadata().getAnnotations().containsKey(STALE_SINCE));
        assertThat(RecordWriterIT.targets(restored)).containsExactly("192.0.2.3");

        await().atMost(WAIT).until(() -> api.get("restart", objectName("expires")) == null);
        List<String> methods =
            api.writesTo("restart", objectName("expires")).stream()
                .map(MockKubernetes.Write::method)
                .toList();
        // Created, grace start recorded, deleted: the second writer never reset the timer.
        assertThat(methods).containsExactly("POST", "PUT", "DELETE");
        assertThat(second.get("/api/v1/records/restart/" + objectName("expires")).body())
            .contains("GRACE_EXPIRED");
      }
      assertThat(expiresSince).isNotBlank();
      assertThat(recoversSince).isNotBlank();
    }
  }

  private static String awaitStaleSince(MockKubernetes api, String route) {
    return await()
        .atMost(WAIT)
        .until(
            () -> api.get("restart", objectName(route)),
            r -> r.getMetadata().getAnnotations().containsKey(STALE_SINCE))
        .getMetadata()
        .getAnnotations()
        .get(STALE_SINCE);
  }
}
