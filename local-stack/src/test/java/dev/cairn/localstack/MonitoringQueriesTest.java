package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the metric names of the alert rules are read (TwoClusterIT checks they are exported). */
class MonitoringQueriesTest {

  @Test
  void readsTheMetricsOfAnExpressionWithoutLabelsFunctionsOrKeywords() {
    assertThat(
            MonitoringQueries.metricNames(
                "sum by (namespace, pod) (rate(a_total{result=~\"error|or\"}[5m])) > 0"
                    + " or max(b{c=\"d}\"}) / on (pod) c_seconds > 0.1 and bool d"
                    + " unless histogram_quantile(0.99, sum by (le) (rate(e_bucket[10m])))"))
        .containsExactly("a_total", "b", "c_seconds", "d", "e_bucket");
  }

  @Test
  void everyAlertReadsAtLeastOneMetric() throws Exception {
    Map<String, Set<String>> byAlert = MonitoringQueries.read();
    assertThat(byAlert).hasSizeGreaterThanOrEqualTo(20);
    byAlert.forEach((alert, names) -> assertThat(names).as(alert).isNotEmpty());
    assertThat(byAlert.get("CairnWriterWritesFailing"))
        .containsExactly(
            "cairn_writer_gslb_status_writes_total",
            "cairn_writer_gslb_writes_total",
            "cairn_writer_ingress_writes_total",
            "cairn_writer_writes_total");
  }

  @Test
  void documentedMetersGiveTheirPrometheusNamesAndAMisspeltMetricIsReported() throws Exception {
    Set<String> documented = MonitoringQueries.documentedNames(MeterDocs.read());
    assertThat(documented)
        .contains(
            "cairn_engine_records_malformed_total",
            "cairn_prober_queries_total",
            "cairn_watcher_sync_age_seconds",
            "cairn_writer_leader",
            "cairn_writer_apply_latency_seconds_count",
            "responder_synced")
        .doesNotContain("cairn_writer_event_to_write_seconds_bucket", "cairn_writer_leader_total");
    assertThat(
            MonitoringQueries.unexported(
                Map.of("A", Set.of("responder_synced", "responder_syncd", "kafka_x")),
                Set.of("kafka_y"),
                documented))
        .containsExactlyInAnyOrder(
            "A reads responder_syncd, which no service exports",
            "A reads kafka_x, which no service exports");
  }
}
