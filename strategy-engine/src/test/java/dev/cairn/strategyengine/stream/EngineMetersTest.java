package dev.cairn.strategyengine.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The malformed-record counter exists at 0 for every input topic before its first record. */
class EngineMetersTest {

  @Test
  void malformedRecordsAreCountedFromZeroPerInputTopic() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    EngineMeters meters =
        new EngineMeters(
            registry, List.of("eu.cairn.topology.routes.v1", "eu.cairn.topology.gslbs.v1"));

    assertThat(registry.get("cairn.engine.records.malformed").counters()).hasSize(2);
    assertThat(malformed(registry, "eu.cairn.topology.routes.v1")).isZero();

    meters.malformedRecord("eu.cairn.topology.routes.v1");
    assertThat(malformed(registry, "eu.cairn.topology.routes.v1")).isEqualTo(1);
    assertThat(registry.get("cairn.engine.records.malformed").counters()).hasSize(2);
  }

  @Test
  void outputsTooLargeAreCountedFromZeroPerOutput() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    EngineMeters meters = new EngineMeters(registry, List.of());

    assertThat(registry.get("cairn.engine.outputs.too.large").counters()).hasSize(2);
    assertThat(registry.get("cairn.engine.decisions.held").counters())
        .as("held decisions, from 0 for each disposition that can be held")
        .hasSize(3);
    meters.outputTooLarge("decision");
    assertThat(
            registry
                .get("cairn.engine.outputs.too.large")
                .tag("output", "decision")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get("cairn.engine.outputs.too.large")
                .tag("output", "status")
                .counter()
                .count())
        .isZero();
  }

  private static double malformed(SimpleMeterRegistry registry, String topic) {
    return registry.get("cairn.engine.records.malformed").tag("topic", topic).counter().count();
  }
}
