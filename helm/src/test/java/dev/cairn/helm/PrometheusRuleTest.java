package dev.cairn.helm;

import static dev.cairn.helm.RenderedChart.NAMESPACE;
import static dev.cairn.helm.RenderedChart.RELEASE;
import static dev.cairn.helm.RenderedChart.minimalValues;
import static dev.cairn.helm.RenderedChart.render;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Cairn's alerting rules: the rule file as the chart wraps it in a PrometheusRule, and the rules
 * checked and unit-tested by Prometheus's own promtool (Debian package {@code prometheus}).
 */
class PrometheusRuleTest {

  static final Path RULES = Path.of("cairn", "files", "prometheus-rules.yaml");
  static final Path RULE_TESTS = Path.of("src", "test", "resources", "prometheus-rules-test.yaml");
  static final Path OPERATIONS = Path.of("..", "docs", "operations.md");

  /** The chart's minimal values with this feature enabled, and the given keys and values. */
  private static Map<String, Object> with(Object... keysAndValues) {
    Map<String, Object> values = RenderedChart.values(keysAndValues);
    values.putIfAbsent("global.prometheusRule.enabled", true);
    return values;
  }

  /** The rules of the file, in order, by alert name. */
  @SuppressWarnings("unchecked")
  static Map<String, Map<String, Object>> fileRules() throws IOException {
    Map<String, Object> file = new Yaml().load(Files.readString(RULES));
    return rules((List<Map<String, Object>>) file.get("groups"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Map<String, Object>> rules(List<Map<String, Object>> groups) {
    Map<String, Map<String, Object>> rules = new LinkedHashMap<>();
    for (Map<String, Object> group : groups) {
      for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
        rules.put((String) rule.get("alert"), rule);
      }
    }
    return rules;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> renderedGroups(RenderedChart chart) {
    List<GenericKubernetesResource> found = chart.generic("PrometheusRule");
    assertThat(found).hasSize(1);
    Map<String, Object> spec = found.get(0).get("spec");
    return (List<Map<String, Object>>) spec.get("groups");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> labels(Map<String, Object> rule) {
    return (Map<String, String>) rule.get("labels");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> annotations(Map<String, Object> rule) {
    return (Map<String, String>) rule.get("annotations");
  }

  @Test
  void noPrometheusRuleUnlessAskedFor() {
    assertThat(render().generic("PrometheusRule")).isEmpty();
  }

  @Test
  void thePrometheusRuleHoldsEveryAlertOfTheFileWithTheAddedLabels() throws IOException {
    RenderedChart chart =
        render(
            with(
                "global.prometheusRule.labels.release",
                "prom",
                "global.prometheusRule.alertLabels.team",
                "dns",
                "global.prometheusRule.alertLabels.severity",
                "page"));

    GenericKubernetesResource rule = chart.generic("PrometheusRule").get(0);
    assertThat(rule.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
    assertThat(rule.getMetadata().getName()).isEqualTo(RELEASE);
    assertThat(rule.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
    assertThat(rule.getMetadata().getLabels())
        .containsEntry("release", "prom")
        .containsEntry("app.kubernetes.io/part-of", "cairn");
    Map<String, Map<String, Object>> file = fileRules();
    Map<String, Map<String, Object>> rendered = rules(renderedGroups(chart));
    assertThat(rendered.keySet()).containsExactlyElementsOf(file.keySet());
    assertThat(file).hasSizeGreaterThanOrEqualTo(20);
    for (Map.Entry<String, Map<String, Object>> e : file.entrySet()) {
      Map<String, Object> got = rendered.get(e.getKey());
      Map<String, Object> want = e.getValue();
      assertThat(got.get("expr")).as(e.getKey()).isEqualTo(want.get("expr"));
      assertThat(got.get("for")).as(e.getKey()).isEqualTo(want.get("for"));
      assertThat(annotations(got)).as(e.getKey()).isEqualTo(annotations(want));
      assertThat(labels(got))
          .as("%s: the alert's own severity wins over alertLabels", e.getKey())
          .containsEntry("team", "dns")
          .containsEntry("severity", labels(want).get("severity"));
    }
  }

  @Test
  void everyAlertHasASeverityASummaryAndADescriptionWithoutTemplates() throws IOException {
    for (Map.Entry<String, Map<String, Object>> e : fileRules().entrySet()) {
      assertThat(e.getKey()).startsWith("Cairn");
      assertThat(labels(e.getValue()).get("severity"))
          .as(e.getKey())
          .isIn("critical", "warning", "info");
      assertThat(annotations(e.getValue())).as(e.getKey()).containsKeys("summary", "description");
      // The promtool tests take descriptions as they are written; a template would go untested.
      assertThat(annotations(e.getValue()).get("description")).as(e.getKey()).doesNotContain("{{");
    }
  }

  @Test
  void disabledAlertsAreLeftOutAndAnUnknownNameIsRefused() throws IOException {
    RenderedChart chart =
        render(
            with(
                "global.prometheusRule.disabled[0]",
                "CairnEngineLagging",
                "global.prometheusRule.disabled[1]",
                "CairnRecordConflicts"));
    Set<String> expected = new LinkedHashSet<>(fileRules().keySet());
    expected.removeAll(Set.of("CairnEngineLagging", "CairnRecordConflicts"));
    assertThat(rules(renderedGroups(chart)).keySet()).containsExactlyElementsOf(expected);

    assertThat(RenderedChart.failure(with("global.prometheusRule.disabled[0]", "CairnEngineLag")))
        .contains(
            "global.prometheusRule.disabled: CairnEngineLag is not one of Cairn's alerts",
            "CairnEngineLagging");
    assertThat(RenderedChart.failure(with("global.prometheusRule.disabled[0]", "engine-lagging")))
        .contains("prometheusRule", "disabled");
  }

  @Test
  void eachAlertsRunbookUrlPointsAtItsSectionOfTheOperationsGuide() throws IOException {
    String base = "https://git.example.com/cairn/blob/main/docs/operations.md";
    RenderedChart chart = render(with("global.prometheusRule.runbookBaseUrl", base + "/"));

    Set<String> anchors = headingAnchors(Files.readString(OPERATIONS));
    for (Map.Entry<String, Map<String, Object>> e : rules(renderedGroups(chart)).entrySet()) {
      String url = annotations(e.getValue()).get("runbook_url");
      assertThat(url).isEqualTo(base + "#" + e.getKey().toLowerCase());
      assertThat(anchors)
          .as("a section of docs/operations.md for %s", e.getKey())
          .contains(e.getKey().toLowerCase());
    }
    assertThat(rules(renderedGroups(render(with()))).values())
        .allSatisfy(rule -> assertThat(annotations(rule)).doesNotContainKey("runbook_url"));
    assertThat(RenderedChart.failure(with("global.prometheusRule.runbookBaseUrl", "docs/ops.md")))
        .contains("runbookBaseUrl");
  }

  /** GitHub's anchors of a page's headings: lower case, spaces to dashes, punctuation dropped. */
  static Set<String> headingAnchors(String markdown) {
    Set<String> anchors = new TreeSet<>();
    for (String line : markdown.split("\n")) {
      if (line.startsWith("#")) {
        String text = line.replaceFirst("^#+\\s*", "").strip().toLowerCase();
        anchors.add(text.replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'));
      }
    }
    return anchors;
  }

  @Test
  void promtoolChecksAndUnitTestsTheRenderedRules(@TempDir Path dir) throws Exception {
    Promtool promtool = Promtool.findOrSkip();
    Yaml yaml = yaml();
    List<Map<String, Object>> groups =
        renderedGroups(render(with("global.prometheusRule.alertLabels.team", "dns")));
    // The tests expect each alert's labels as the file has them; the alertLabels are checked
    // above, so they are rendered here (to check the rendering) and then taken out again.
    for (Map<String, Object> rule : rules(groups).values()) {
      labels(rule).remove("team");
    }
    Path rules = dir.resolve("cairn-rules.yaml");
    Files.writeString(rules, yaml.dump(Map.of("groups", groups)));

    Promtool.Result check = promtool.run("check", "rules", rules.toString());
    assertThat(check.exitCode()).as("promtool check rules:\n%s", check.output()).isZero();
    assertThat(check.output()).contains("SUCCESS: " + rules(groups).size() + " rules found");

    Map<String, Object> tests = ruleTests(rules);
    Path testFile = dir.resolve("cairn-rules-test.yaml");
    Files.writeString(testFile, yaml.dump(tests));
    Promtool.Result test = promtool.run("test", "rules", testFile.toString());
    assertThat(test.exitCode()).as("promtool test rules:\n%s", test.output()).isZero();
    assertThat(test.output()).contains("SUCCESS");
  }

  @Test
  void everyAlertHasATestWhereItFiresAndOneWhereItStaysQuiet() throws IOException {
    Map<String, Set<String>> cases = new LinkedHashMap<>();
    for (Map<String, Object> c : alertTests(new Yaml().load(Files.readString(RULE_TESTS)))) {
      List<?> expected = (List<?>) c.get("exp_alerts");
      cases
          .computeIfAbsent((String) c.get("alertname"), a -> new TreeSet<>())
          .add(expected == null || expected.isEmpty() ? "quiet" : "fires");
    }
    for (String alert : fileRules().keySet()) {
      assertThat(cases.get(alert)).as(alert).containsExactly("fires", "quiet");
    }
    assertThat(cases.keySet()).isSubsetOf(fileRules().keySet());
  }

  /**
   * The promtool test file: the cases of {@link #RULE_TESTS}, run against {@code rules}, each
   * expected alert's description taken from the rules.
   */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> ruleTests(Path rules) throws IOException {
    Map<String, Map<String, Object>> byName = fileRules();
    Map<String, Object> tests = new Yaml().load(Files.readString(RULE_TESTS));
    for (Map<String, Object> c : alertTests(tests)) {
      Map<String, Object> rule = byName.get((String) c.get("alertname"));
      assertThat(rule).as("an alert named %s", c.get("alertname")).isNotNull();
      List<Map<String, Object>> expected = (List<Map<String, Object>>) c.get("exp_alerts");
      for (Map<String, Object> alert :
          expected == null ? List.<Map<String, Object>>of() : expected) {
        Map<String, String> want = (Map<String, String>) alert.get("exp_annotations");
        assertThat(want).as("%s: exp_annotations", c.get("alertname")).containsOnlyKeys("summary");
        want.put("description", annotations(rule).get("description"));
      }
    }
    Map<String, Object> file = new LinkedHashMap<>();
    file.put("rule_files", List.of(rules.toString()));
    file.putAll(tests);
    return file;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> alertTests(Map<String, Object> tests) {
    List<Map<String, Object>> all = new ArrayList<>();
    for (Map<String, Object> t : (List<Map<String, Object>>) tests.get("tests")) {
      all.addAll((List<Map<String, Object>>) t.get("alert_rule_test"));
    }
    return all;
  }

  private static Yaml yaml() {
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    options.setWidth(10_000);
    return new Yaml(options);
  }

  @Test
  void theInstallNotesSayWhereTheAlertsAndTheDashboardAre() {
    String enabled = RenderedChart.notes(with("global.grafanaDashboard.enabled", true));
    assertThat(enabled)
        .contains(
            "Alerts: PrometheusRule " + RELEASE + ", each explained in docs/operations.md#alerts",
            "Dashboard: ConfigMap " + RELEASE + "-grafana-dashboard");
    Map<String, Object> off = minimalValues();
    assertThat(RenderedChart.notes(off))
        .contains(
            "Alerts: set global.prometheusRule.enabled=true",
            "Dashboard: set global.grafanaDashboard.enabled=true");
  }
}
