package dev.cairn.recordwriter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The counters alerts read exist at 0 before their first event, so a first event is an increase.
 */
class WriterMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final WriterMetrics metrics = new WriterMetrics(registry);

  private double count(String name, String... tags) {
    return registry.get(name).tags(tags).counter().count();
  }

  @Test
  void theCountersAlertsReadStartAtZero() {
    assertThat(count("cairn.writer.writes", "operation", "update", "result", "invalid")).isZero();
    assertThat(count("cairn.writer.writes", "operation", "delete", "result", "error")).isZero();
    assertThat(count("cairn.writer.gslb.status.writes", "result", "invalid")).isZero();
    assertThat(count("cairn.writer.ingress.writes", "operation", "release", "result", "error"))
        .isZero();
    assertThat(count("cairn.writer.gslb.writes", "operation", "create", "result", "invalid"))
        .isZero();
    assertThat(count("cairn.writer.schema.rejected", "kind", "Gslb")).isZero();
    assertThat(count("cairn.writer.foreign.refused", "kind", "name_held_elsewhere")).isZero();
    assertThat(registry.get("cairn.writer.writes").counters()).hasSize(15);
    assertThat(registry.get("cairn.writer.foreign.refused").counters()).hasSize(4);
    assertThat(registry.get("cairn.writer.decisions.rejected").counter().count()).isZero();
    assertThat(registry.get("cairn.writer.endpoints.rejected").counter().count()).isZero();
    assertThat(count("cairn.writer.stale.since.reset", "cause", "unparseable")).isZero();
    assertThat(registry.get("cairn.writer.stale.since.reset").counters()).hasSize(2);
  }

  @Test
  void anEventCountsOnTheCounterThatWasThere() {
    metrics.claimRefused("FOREIGN_OBJECT");
    metrics.write("update", "invalid", Duration.ofMillis(3));
    metrics.schemaRejected("DNSEndpoint");
    metrics.staleSinceReset("FUTURE");
    metrics.decisionRejected();

    assertThat(count("cairn.writer.foreign.refused", "kind", "foreign_object")).isEqualTo(1);
    assertThat(count("cairn.writer.writes", "operation", "update", "result", "invalid"))
        .isEqualTo(1);
    assertThat(count("cairn.writer.schema.rejected", "kind", "DNSEndpoint")).isEqualTo(1);
    assertThat(registry.get("cairn.writer.foreign.refused").counters()).hasSize(4);
    assertThat(count("cairn.writer.stale.since.reset", "cause", "future")).isEqualTo(1);
    assertThat(registry.get("cairn.writer.decisions.rejected").counter().count()).isEqualTo(1);
  }
}
