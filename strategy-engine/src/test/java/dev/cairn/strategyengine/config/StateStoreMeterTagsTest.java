package dev.cairn.strategyengine.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

class StateStoreMeterTagsTest {

  private static PrometheusMeterRegistry registry(boolean filtered) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    if (filtered) {
      registry.config().meterFilter(new StateStoreMeterTags());
    }
    return registry;
  }

  private static void storeMeters(PrometheusMeterRegistry registry) {
    registry.gauge(
        "kafka.stream.state.put.rate",
        Tags.of("rocksdb.state.id", "decisions", "task.id", "0_0", "thread.id", "t1"),
        1.5);
    registry.gauge(
        "kafka.stream.state.put.rate",
        Tags.of("in.memory.state.id", "gslb-deadlines", "task.id", "0_0", "thread.id", "t1"),
        2.5);
  }

  @Test
  void aStoresMetersOfEveryTypeAreExportedUnderOneSetOfTagKeys() {
    PrometheusMeterRegistry registry = registry(true);
    storeMeters(registry);

    String scraped = registry.scrape();

    assertThat(scraped)
        .contains(
            "kafka_stream_state_put_rate{state_id=\"decisions\",store_type=\"rocksdb\","
                + "task_id=\"0_0\",thread_id=\"t1\"} 1.5")
        .contains(
            "kafka_stream_state_put_rate{state_id=\"gslb-deadlines\",store_type=\"in.memory\","
                + "task_id=\"0_0\",thread_id=\"t1\"} 2.5");
  }

  @Test
  void withoutItPrometheusKeepsOnlyTheFirstStoreType() {
    PrometheusMeterRegistry registry = registry(false);
    storeMeters(registry);

    assertThat(registry.scrape()).contains("decisions").doesNotContain("gslb-deadlines");
  }

  @Test
  void otherMetersAreLeftAsTheyAre() {
    PrometheusMeterRegistry registry = registry(true);
    registry.gauge("kafka.stream.thread.process.rate", Tags.of("thread.id", "t1"), 3.0);
    registry.gauge(
        "kafka.stream.state.other", Tags.of("thread.id", "t1", "state.id", "already"), 4.0);

    assertThat(registry.scrape())
        .contains("kafka_stream_thread_process_rate{thread_id=\"t1\"} 3.0")
        .contains("kafka_stream_state_other{state_id=\"already\",thread_id=\"t1\"} 4.0");
  }
}
