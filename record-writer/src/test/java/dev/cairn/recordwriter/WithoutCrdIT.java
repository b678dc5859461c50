package dev.cairn.recordwriter;

import static dev.cairn.recordwriter.TestDecisions.objectName;
import static dev.cairn.recordwriter.TestDecisions.publish;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The local stack's default path: a bare CRUD mock where nobody installed the DNSEndpoint or Gslb
 * CRDs, and the writer started with only the master URL, bootstrap servers, port and topic prefix.
 */
class WithoutCrdIT {

  @Test
  void writesToABareCrudMock() {
    try (MockKubernetes api = new MockKubernetes(false);
        StateProducer<TargetDecision> decisions =
            StateProducer.decisions(EmbeddedBroker.bootstrapServers(), "bare.");
        StateProducer<GslbStatus> statuses =
            StateProducer.gslbStatuses(EmbeddedBroker.bootstrapServers(), "bare.");
        WriterRun writer = WriterRun.start(api, "bare.")) {
      decisions.send(publish("bare", "web", "192.0.2.1"));
      String uid = api.createGslb("bare", "gslb").getMetadata().getUid();
      statuses.send(TestStatuses.healthy("bare", "gslb", uid, "192.0.2.1"));

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> api.get("bare", objectName("web")) != null);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> api.getGslb("bare", "gslb").getAdditionalProperties().get("status") != null);
    }
  }
}
