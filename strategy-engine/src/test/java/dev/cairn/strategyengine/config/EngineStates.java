package dev.cairn.strategyengine.config;

import java.time.Duration;
import java.util.Set;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/** Waits for the Kafka Streams client of an engine started in a test to reach a state. */
final class EngineStates {

  private EngineStates() {}

  /** Waits until the engine's Kafka Streams client is in one of {@code states}. */
  static void await(
      ConfigurableApplicationContext engine, Duration atMost, KafkaStreams.State... states) {
    StreamsBuilderFactoryBean factory = engine.getBean(StreamsBuilderFactoryBean.class);
    Set<KafkaStreams.State> wanted = Set.of(states);
    org.awaitility.Awaitility.await()
        .atMost(atMost)
        .until(
            () ->
                factory.getKafkaStreams() != null
                    && wanted.contains(factory.getKafkaStreams().state()));
  }
}
