package dev.cairn.strategyengine.config;

import dev.cairn.strategyengine.stream.InputErrors;
import dev.cairn.strategyengine.stream.StreamsFailures;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.stereotype.Component;

/**
 * Health {@code streams}: UP only while Kafka Streams is RUNNING; part of the readiness group. When
 * the engine stopped (a record of a newer schema version, or a fatal error), the details say why.
 */
@Component("streams")
class StreamsHealthIndicator implements HealthIndicator {

  private final StreamsBuilderFactoryBean factory;
  private final InputErrors inputErrors;
  private final StreamsFailures failures;

  StreamsHealthIndicator(
      StreamsBuilderFactoryBean factory, InputErrors inputErrors, StreamsFailures failures) {
    this.factory = factory;
    this.inputErrors = inputErrors;
    this.failures = failures;
  }

  @Override
  public Health health() {
    KafkaStreams streams = factory.getKafkaStreams();
    KafkaStreams.State state = streams == null ? null : streams.state();
    Health.Builder health =
        state == KafkaStreams.State.RUNNING ? Health.up() : Health.outOfService();
    health.withDetail("state", state == null ? "NOT_STARTED" : state.name());
    health.withDetail("malformedRecordsSkipped", inputErrors.malformedCount());
    inputErrors.stopReason().ifPresent(reason -> health.down().withDetail("stopped", reason));
    failures.failure().ifPresent(reason -> health.down().withDetail("failure", reason));
    return health.build();
  }
}
