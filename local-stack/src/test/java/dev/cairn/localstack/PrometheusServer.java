package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real Prometheus server (Debian package {@code prometheus}) scraping the local stack's services
 * every second, with Cairn's alerting rules loaded: what users run against Cairn. Each target gets
 * the {@code namespace} and {@code pod} labels a ServiceMonitor would give it. A missing binary
 * skips the test as {@link InteropTool} does.
 */
final class PrometheusServer implements AutoCloseable {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** A scrape target: host:port of {@code /actuator/prometheus} and its labels. */
  record Target(String address, String namespace, String pod) {}

  private final Process process;
  private final String base;
  private final HttpClient http = HttpClient.newHttpClient();

  private PrometheusServer(Process process, String base) {
    this.process = process;
    this.base = base;
  }

  /** The prometheus binary, or a skip (a failure with {@code -Dcairn.interop.required=true}). */
  static String findOrSkip() {
    return InteropTool.findOrSkip("prometheus", "prometheus").executable();
  }

  /** Starts Prometheus in {@code dir} and waits until it is ready. */
  static PrometheusServer start(String binary, Path dir, Path rules, List<Target> targets)
      throws IOException {
    StringBuilder config = new StringBuilder();
    config.append("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n");
    config.append("rule_files:\n  - ").append(rules.toAbsolutePath()).append('\n');
    config.append("scrape_configs:\n");
    for (Target t : targets) {
      config
          .append("  - job_name: ")
          .append(t.pod())
          .append("\n    metrics_path: /actuator/prometheus\n    static_configs:\n")
          .append("      - targets: ['")
          .append(t.address())
          .append("']\n        labels: {namespace: ")
          .append(t.namespace())
          .append(", pod: ")
          .append(t.pod())
          .append("}\n");
    }
    Path file = dir.resolve("prometheus.yml");
    Files.writeString(file, config);
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Process process =
        new ProcessBuilder(
                binary,
                "--config.file=" + file,
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("prometheus.log").toFile())
            .start();
    PrometheusServer server = new PrometheusServer(process, "http://127.0.0.1:" + port);
    try {
      Awaitility.await("Prometheus ready")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .ignoreExceptions()
          .until(() -> server.get("/-/ready").statusCode() == 200);
    } catch (RuntimeException e) {
      server.close();
      throw new AssertionError(
          "Prometheus did not start: " + Files.readString(dir.resolve("prometheus.log")), e);
    }
    return server;
  }

  private HttpResponse<String> get(String path) {
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create(base + path)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private JsonNode api(String path) {
    HttpResponse<String> response = get(path);
    JsonNode body = JSON.readTree(response.body());
    if (!"success".equals(body.path("status").asString())) {
      throw new AssertionError(path + ": " + response.body());
    }
    return body.get("data");
  }

  /** The result vector of an instant query; an error in the query fails with Prometheus's words. */
  List<JsonNode> query(String promql) {
    JsonNode data = api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    List<JsonNode> result = new ArrayList<>();
    data.get("result").forEach(result::add);
    return result;
  }

  /** Every alerting rule loaded: name → its health ("ok", "err", "unknown") and last error. */
  Map<String, String> ruleHealth() {
    Map<String, String> health = new java.util.TreeMap<>();
    for (JsonNode group : api("/api/v1/rules?type=alert").get("groups")) {
      for (JsonNode rule : group.get("rules")) {
        health.put(
            rule.get("name").asString(),
            rule.get("health").asString() + " " + rule.path("lastError").asString(""));
      }
    }
    return health;
  }

  /** The alerts pending or firing, each as {@code name state labels}. */
  List<String> alerts() {
    List<String> alerts = new ArrayList<>();
    for (JsonNode alert : api("/api/v1/alerts").get("alerts")) {
      alerts.add(
          alert.get("labels").get("alertname").asString()
              + " "
              + alert.get("state").asString()
              + " "
              + alert.get("labels"));
    }
    return alerts;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    assertThat(process.isAlive()).isFalse();
  }
}
