package dev.cairn.localstack;

import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The same end-to-end path as {@link EndToEndIT}, on a Kafka broker in a container
 * (Testcontainers). Skipped cleanly when no Docker engine is available.
 */
@Testcontainers(disabledWithoutDocker = true)
class EndToEndTestcontainersIT {

  @Container static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.1.1");

  @Test
  void writesTheDnsEndpointAndFollowsReadinessOnAContainerBroker() {
    try (LocalStack stack =
        LocalStack.start(
            PipelineScenario.options().withBootstrapServers(KAFKA.getBootstrapServers()))) {
      PipelineScenario.createTopology(stack.cluster(PipelineScenario.CLUSTER).client());
      PipelineScenario.awaitRecordWithTarget(stack.cluster(PipelineScenario.CLUSTER).client());
      PipelineScenario.setReady(stack.cluster(PipelineScenario.CLUSTER).client(), false);
      PipelineScenario.awaitRecordDeleted(stack.cluster(PipelineScenario.CLUSTER).client());
      PipelineScenario.setReady(stack.cluster(PipelineScenario.CLUSTER).client(), true);
      PipelineScenario.awaitRecordWithTarget(stack.cluster(PipelineScenario.CLUSTER).client());
    }
  }
}
