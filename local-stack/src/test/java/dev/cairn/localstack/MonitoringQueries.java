package dev.cairn.localstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The PromQL queries Cairn ships, the alerting rules (helm/cairn/files/prometheus-rules.yaml) and
 * the Grafana dashboard's panels (helm/cairn/files/grafana-dashboard.json), the metrics they read,
 * and the check that the services export each one: a rule over a misspelt or renamed metric never
 * fires, a panel over one stays empty.
 */
final class MonitoringQueries {

  static final Path RULES = Path.of("..", "helm", "cairn", "files", "prometheus-rules.yaml");
  static final Path DASHBOARD = Path.of("..", "helm", "cairn", "files", "grafana-dashboard.json");

  private static final Pattern IDENTIFIER =
      Pattern.compile("(?<![\\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(?![\\w.])");
  private static final Set<String> KEYWORDS =
      Set.of("and", "or", "unless", "bool", "offset", "inf", "nan", "Inf", "NaN");

  private MonitoringQueries() {}

  /** The metric names each alert's expression reads, by alert name. */
  static Map<String, Set<String>> read() throws IOException {
    Map<String, Set<String>> byAlert = new TreeMap<>();
    alertExpressions().forEach((alert, expr) -> byAlert.put(alert, metricNames(expr)));
    return byAlert;
  }

  /** Each alert's expression, by alert name. */
  @SuppressWarnings("unchecked")
  static Map<String, String> alertExpressions() throws IOException {
    Map<String, Object> file = new Yaml().load(Files.readString(RULES));
    Map<String, String> exprs = new TreeMap<>();
    for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
      for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
        exprs.put((String) rule.get("alert"), (String) rule.get("expr"));
      }
    }
    return exprs;
  }

  /**
   * Each dashboard query by panel title and refId, with Grafana's variables as Grafana fills them
   * in for every namespace: {@code $namespace} as {@code .*}, {@code $__rate_interval} as {@code
   * rateWindow}.
   */
  static Map<String, String> dashboardQueries(String rateWindow) throws IOException {
    JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
    Map<String, String> queries = new LinkedHashMap<>();
    for (JsonNode panel : dashboard.get("panels")) {
      for (JsonNode target : panel.path("targets")) {
        queries.put(
            panel.get("title").asString() + " " + target.get("refId").asString(),
            target
                .get("expr")
                .asString()
                .replace("$namespace", ".*")
                .replace("$__rate_interval", rateWindow));
      }
    }
    return queries;
  }

  /** The metric names each dashboard query reads. */
  static Map<String, Set<String>> readDashboard() throws IOException {
    Map<String, Set<String>> byQuery = new TreeMap<>();
    dashboardQueries("5m").forEach((query, expr) -> byQuery.put(query, metricNames(expr)));
    return byQuery;
  }

  /**
   * The metric names a PromQL expression reads: its identifiers without label matchers, ranges,
   * grouping labels, function names and keywords.
   */
  static Set<String> metricNames(String expr) {
    String bare =
        expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
            .replaceAll("\\{[^}]*}", " ")
            .replaceAll("\\[[^]]*]", " ")
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
    Set<String> names = new TreeSet<>();
    Matcher m = IDENTIFIER.matcher(bare);
    while (m.find()) {
      boolean call = bare.substring(m.end()).stripLeading().startsWith("(");
      if (!call && !KEYWORDS.contains(m.group(1))) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  /** The names of the samples in {@code /actuator/prometheus} on a port. */
  static Set<String> scrape(String port) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new AssertionError("/actuator/prometheus on " + port + ": " + response.statusCode());
    }
    Set<String> names = new TreeSet<>();
    for (String line : response.body().split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        names.add(line.split("[{ ]", 2)[0]);
      }
    }
    return names;
  }

  /**
   * The Prometheus names of the Cairn meters docs/operations.md documents, for the meters a service
   * registers only when first used (a counter by topic, a timer by operation): {@code _total} for
   * counters; {@code _seconds_count}, {@code _sum} and {@code _max} for timers; {@code _seconds}
   * for gauges in seconds. A histogram's {@code _bucket} must be seen in a scrape.
   */
  static Set<String> documentedNames(Map<String, MeterDocs.Documented> documented) {
    Set<String> names = new TreeSet<>();
    documented.forEach(
        (meter, doc) -> {
          String base = meter.replace('.', '_').replace('-', '_');
          String type = doc.type().toLowerCase();
          if (type.contains("counter")) {
            names.add(base + "_total");
          } else if (type.startsWith("timer")) {
            names.add(base + "_seconds_count");
            names.add(base + "_seconds_sum");
            names.add(base + "_seconds_max");
          } else if (type.startsWith("gauge (seconds)")) {
            names.add(base + "_seconds");
          } else if (type.startsWith("gauge")) {
            names.add(base);
          }
        });
    return names;
  }

  /**
   * Each query and metric it reads that is neither in a scrape nor a documented Cairn meter.
   * kube-state-metrics' {@code kube_*} series (CairnPodNotReady) are not Cairn's to export.
   */
  static List<String> unexported(
      Map<String, Set<String>> byAlert, Set<String> scraped, Set<String> documented) {
    List<String> missing = new ArrayList<>();
    byAlert.forEach(
        (alert, names) -> {
          for (String name : names) {
            if (!scraped.contains(name)
                && !documented.contains(name)
                && !name.startsWith("kube_")) {
              missing.add(alert + " reads " + name + ", which no service exports");
            }
          }
        });
    return missing;
  }
}
