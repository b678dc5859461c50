package dev.cairn.recordwriter;

import static dev.cairn.recordwriter.TestDecisions.objectName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.codec.SchemaVersion;
import dev.cairn.commonmodel.decision.TargetDecision;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A writer that cannot read the decisions to their end (a record of a newer major schema version
 * blocks the reader) deletes nothing: the orphan it owns stays, and health says why.
 */
class UnreadableDecisionsIT {

  @Test
  void deletesNothingBeforeTheDecisionsAreReadToTheEnd() throws Exception {
    try (MockKubernetes api = new MockKubernetes(true);
        StateProducer<TargetDecision> decisions =
            StateProducer.decisions(EmbeddedBroker.bootstrapServers(), "blocked.")) {
      api.create(
          RecordWriterIT.owned(
              "blocked", objectName("orphan"), "HTTPRoute/blocked/orphan", "192.0.2.1"));
      try (KafkaProducer<String, String> raw =
          new KafkaProducer<>(
              Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedBroker.bootstrapServers()),
              new StringSerializer(),
              new StringSerializer())) {
        ProducerRecord<String, String> future =
            new ProducerRecord<>(decisions.topic(), "HTTPRoute/blocked/future", "{}");
        future.headers().add(SchemaVersion.HEADER, "2.0".getBytes(StandardCharsets.UTF_8));
        raw.send(future).get();
      }

      try (WriterRun writer = WriterRun.start(api, "blocked.")) {
        String health =
            await()
                .atMost(Duration.ofSeconds(30))
                .until(
                    () -> writer.get("/actuator/health").body(),
                    body -> body.contains("blockedReason"));
        assertThat(health).contains("\"DOWN\"");
        assertThat(writer.get("/actuator/health/readiness").statusCode()).isEqualTo(503);

        await()
            .during(Duration.ofSeconds(3))
            .atMost(Duration.ofSeconds(5))
            .until(() -> api.get("blocked", objectName("orphan")) != null);
        assertThat(writer.writes()).isZero();
      }
    }
  }
}
