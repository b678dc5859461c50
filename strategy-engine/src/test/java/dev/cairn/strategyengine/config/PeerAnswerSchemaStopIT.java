package dev.cairn.strategyengine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.SchemaVersion;
import dev.cairn.strategyengine.StrategyEngineApplication;
import dev.cairn.strategyengine.stream.InputErrors;
import dev.cairn.strategyengine.stream.StreamsFailures;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A peer answer of a newer schema version stops the engine as a record of any other input topic
 * does, although the answers are read by the global thread (ADR 0004): the global consumer uses the
 * engine's deserialization handler, and the stop is reported as one, not as a crash.
 */
class PeerAnswerSchemaStopIT {

  private static final String PREFIX = "schema.";

  private static EmbeddedKafkaKraftBroker broker;

  @BeforeAll
  static void startBroker() {
    broker = new EmbeddedKafkaKraftBroker(1, 1);
    broker.afterPropertiesSet();
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.destroy();
    }
  }

  @Test
  void aPeerAnswerOfANewerSchemaVersionStopsTheEngineAsAnyInputDoes() throws Exception {
    try (ConfigurableApplicationContext engine =
        StrategyEngineApplication.builder()
            .properties(
                "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                "spring.kafka.streams.cleanup.on-startup=true",
                "engine.application-id=schema-stop-it",
                "engine.state-dir=target/schema-stop-it-state",
                "engine.gslb.geo-tag=eu",
                "engine.topics.prefix=" + PREFIX,
                "server.port=0")
            .run()) {
      EngineStates.await(engine, Duration.ofSeconds(60), KafkaStreams.State.RUNNING);
      io.micrometer.core.instrument.MeterRegistry registry =
          engine.getBean(io.micrometer.core.instrument.MeterRegistry.class);
      assertThat(registry.get("cairn.engine.streams.running").gauge().value()).isEqualTo(1.0);

      try (KafkaProducer<String, byte[]> producer =
          new KafkaProducer<>(
              Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()),
              new StringSerializer(),
              new ByteArraySerializer())) {
        ProducerRecord<String, byte[]> record =
            new ProducerRecord<>(
                PREFIX + Topics.PEER_ANSWERS.name(),
                "PeerAnswer/us/app.cloud.example.com",
                "{}".getBytes(StandardCharsets.UTF_8));
        record.headers().add(SchemaVersion.HEADER, "2.0".getBytes(StandardCharsets.UTF_8));
        producer.send(record).get();
      }

      InputErrors inputErrors = engine.getBean(InputErrors.class);
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(inputErrors.stopReason())
                      .hasValueSatisfying(
                          reason -> assertThat(reason).contains("schema version 2.0")));
      EngineStates.await(
          engine,
          Duration.ofSeconds(30),
          KafkaStreams.State.PENDING_ERROR,
          KafkaStreams.State.ERROR,
          KafkaStreams.State.PENDING_SHUTDOWN,
          KafkaStreams.State.NOT_RUNNING);
      assertThat(engine.getBean(StreamsFailures.class).failure())
          .as("a schema stop, not a crash")
          .isEmpty();
      // Kafka Streams' own meters leave with the stopped client; the engine's gauge stays, at 0,
      // for CairnEngineNotRunning to see.
      assertThat(registry.get("cairn.engine.streams.running").gauge().value()).isZero();
    }
  }
}
