package dev.cairn.helm;

import static dev.cairn.helm.RenderedChart.NAMESPACE;
import static dev.cairn.helm.RenderedChart.RELEASE;
import static dev.cairn.helm.RenderedChart.render;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Cairn's Grafana dashboard: the ConfigMap the chart renders for Grafana's sidecar, the dashboard's
 * shape, and each panel's query parsed by promtool.
 */
class GrafanaDashboardTest {

  static final Path DASHBOARD = Path.of("cairn", "files", "grafana-dashboard.json");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** The chart's minimal values with this feature enabled, and the given keys and values. */
  private static Map<String, Object> with(Object... keysAndValues) {
    Map<String, Object> values = RenderedChart.values(keysAndValues);
    values.putIfAbsent("global.grafanaDashboard.enabled", true);
    return values;
  }

  static JsonNode dashboard() throws IOException {
    return JSON.readTree(Files.readString(DASHBOARD));
  }

  /** Every query of the dashboard, by panel title and refId. */
  static Map<String, String> queries(JsonNode dashboard) {
    Map<String, String> queries = new LinkedHashMap<>();
    for (JsonNode panel : dashboard.get("panels")) {
      for (JsonNode target : panel.path("targets")) {
        queries.put(
            panel.get("title").asString() + " " + target.get("refId").asString(),
            target.get("expr").asString());
      }
    }
    return queries;
  }

  @Test
  void noDashboardUnlessAskedFor() {
    assertThat(render().all(ConfigMap.class))
        .noneMatch(c -> c.getMetadata().getName().endsWith("grafana-dashboard"));
  }

  @Test
  void theConfigMapCarriesTheDashboardForTheSidecar() throws IOException {
    ConfigMap map = render(with()).get(ConfigMap.class, RELEASE + "-grafana-dashboard");
    assertThat(map.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
    assertThat(map.getMetadata().getLabels())
        .containsEntry("grafana_dashboard", "1")
        .containsEntry("app.kubernetes.io/part-of", "cairn");
    assertThat(JSON.readTree(map.getData().get("cairn.json"))).isEqualTo(dashboard());

    ConfigMap elsewhere =
        render(
                with(
                    "global.grafanaDashboard.namespace",
                    "monitoring",
                    "global.grafanaDashboard.labels.grafana_dashboard",
                    "cairn",
                    "global.grafanaDashboard.annotations.grafana_folder",
                    "DNS"))
            .get(ConfigMap.class, RELEASE + "-grafana-dashboard");
    assertThat(elsewhere.getMetadata().getNamespace()).isEqualTo("monitoring");
    assertThat(elsewhere.getMetadata().getLabels()).containsEntry("grafana_dashboard", "cairn");
    assertThat(elsewhere.getMetadata().getAnnotations()).containsEntry("grafana_folder", "DNS");
    assertThat(RenderedChart.failure(with("global.grafanaDashboard.namespace", "Not_A_Name")))
        .contains("grafanaDashboard", "namespace");
  }

  @Test
  void everyPanelQueriesThePickedDataSourceAndNamespaceAndSaysWhatItShows() throws IOException {
    JsonNode dashboard = dashboard();
    assertThat(dashboard.get("uid").asString()).isEqualTo("cairn-overview");
    List<String> variables = new ArrayList<>();
    dashboard.get("templating").get("list").forEach(v -> variables.add(v.get("name").asString()));
    assertThat(variables).containsExactly("datasource", "namespace");

    int queries = 0;
    for (JsonNode panel : dashboard.get("panels")) {
      String title = panel.get("title").asString();
      JsonNode pos = panel.get("gridPos");
      assertThat(pos.get("x").asInt() + pos.get("w").asInt()).as(title).isLessThanOrEqualTo(24);
      if (panel.get("type").asString().equals("row")) {
        continue;
      }
      assertThat(panel.path("description").asString()).as(title).isNotBlank();
      assertThat(panel.get("datasource").get("uid").asString())
          .as(title)
          .isEqualTo("${datasource}");
      assertThat(panel.get("targets")).as(title).isNotEmpty();
      for (JsonNode target : panel.get("targets")) {
        queries++;
        assertThat(target.get("datasource").get("uid").asString()).isEqualTo("${datasource}");
        assertThat(target.get("expr").asString())
            .as("%s: every selector takes the namespace variable", title)
            .contains("namespace=~\"$namespace\"");
      }
    }
    assertThat(queries).isGreaterThanOrEqualTo(30);
  }

  @Test
  void panelsDoNotOverlap() throws IOException {
    List<int[]> boxes = new ArrayList<>();
    for (JsonNode panel : dashboard().get("panels")) {
      JsonNode p = panel.get("gridPos");
      int[] box = {p.get("x").asInt(), p.get("y").asInt(), p.get("w").asInt(), p.get("h").asInt()};
      for (int[] other : boxes) {
        boolean apart =
            box[0] + box[2] <= other[0]
                || other[0] + other[2] <= box[0]
                || box[1] + box[3] <= other[1]
                || other[1] + other[3] <= box[1];
        assertThat(apart).as("%s overlaps another panel", panel.get("title")).isTrue();
      }
      boxes.add(box);
    }
  }

  @Test
  void promtoolParsesEveryQuery(@TempDir Path dir) throws Exception {
    Promtool promtool = Promtool.findOrSkip();
    List<Map<String, Object>> rules = new ArrayList<>();
    int i = 0;
    for (String expr : queries(dashboard()).values()) {
      rules.add(Map.of("record", "cairn:dashboard:query" + i++, "expr", grafanaVariables(expr)));
    }
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    options.setWidth(10_000);
    Path file = dir.resolve("dashboard-queries.yaml");
    Files.writeString(
        file,
        new Yaml(options)
            .dump(Map.of("groups", List.of(Map.of("name", "dashboard", "rules", rules)))));

    Promtool.Result check = promtool.run("check", "rules", file.toString());
    assertThat(check.exitCode()).as("promtool check rules:\n%s", check.output()).isZero();
    assertThat(check.output()).contains("SUCCESS: " + rules.size() + " rules found");
  }

  /** A query with Grafana's variables replaced as Grafana would: every namespace, a 5 m window. */
  static String grafanaVariables(String expr) {
    return expr.replace("$namespace", ".*").replace("$__rate_interval", "5m");
  }
}
