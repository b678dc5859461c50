package dev.cairn.helm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.dnsresponder.config.ResponderProperties;
import dev.cairn.healthprober.config.ProberProperties;
import dev.cairn.recordwriter.config.WriterProperties;
import dev.cairn.strategyengine.config.StrategyEngineProperties;
import dev.cairn.topologywatcher.config.WatcherProperties;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.env.ConfigurableEnvironment;
import org.yaml.snakeyaml.Yaml;

/**
 * docker-compose.yml and its compose/config files, checked without Docker: the services, images and
 * ports, the files equal to what the Helm chart renders for the same cluster, and each service's
 * settings (its file and its compose environment) bound by its properties record.
 */
class ComposeTest {

  private static final Path COMPOSE = Path.of("..", "docker-compose.yml");
  private static final Path CONFIG = Path.of("..", "compose", "config");

  /** The values whose rendering compose/config holds; {@code -Dcairn.compose.regenerate=true}. */
  private static Map<String, Object> composeValues() {
    Map<String, Object> values = RenderedChart.minimalValues();
    values.put("kafka.enabled", false);
    values.put("global.kafka.bootstrapServers", "localhost:9092");
    return values;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> services() throws IOException {
    Map<String, Object> compose = new Yaml().load(Files.readString(COMPOSE));
    return (Map<String, Object>) compose.get("services");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> service(String name) throws IOException {
    return (Map<String, Object>) services().get(name);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> environment(String name) throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    ((Map<String, Object>) service(name).get("environment"))
        .forEach((k, v) -> env.put(k, String.valueOf(v)));
    return env;
  }

  @Test
  void runsKafkaAndEveryServiceFromItsImage() throws IOException {
    assertThat(services().keySet())
        .containsExactlyInAnyOrder(
            "kafka",
            "topology-watcher",
            "health-prober",
            "strategy-engine",
            "record-writer",
            "dns-responder");
    String version =
        new Yaml()
            .<Map<String, Object>>load(Files.readString(RenderedChart.CHART.resolve("Chart.yaml")))
            .get("appVersion")
            .toString();
    Set<String> ports = new HashSet<>();
    for (String name : RenderedChart.SERVICES) {
      assertThat(service(name).get("image")).isEqualTo("cairn/" + name + ":" + version);
      assertThat(ports.add(environment(name).get("SERVER_PORT")))
          .as("%s has a port of its own on the host network", name)
          .isTrue();
      assertThat(environment(name))
          .containsEntry(
              "SPRING_CONFIG_ADDITIONALLOCATION",
              "optional:file:/etc/cairn/,optional:file:/etc/cairn-local/");
      assertThat(service(name).get("volumes").toString())
          .contains("./compose/config:/etc/cairn:ro", "./compose/local:/etc/cairn-local:ro");
      if (!name.equals("dns-responder")) {
        assertThat(service(name).get("depends_on").toString())
            .contains("kafka={condition=service_healthy}");
      }
    }
  }

  @Test
  void theConfigFilesAreWhatTheChartRendersForTheSameCluster() throws IOException {
    RenderedChart chart = RenderedChart.render(composeValues());
    boolean regenerate = Boolean.getBoolean("cairn.compose.regenerate");
    for (String name : RenderedChart.SERVICES) {
      Path file = CONFIG.resolve(name + ".yaml");
      if (regenerate) {
        Files.writeString(file, chart.settingsText(name));
      }
      assertThat(file).exists();
      assertThat(Files.readString(file))
          .as("%s is stale: run this test with -Dcairn.compose.regenerate=true", file)
          .isEqualTo(chart.settingsText(name));
    }
  }

  @Test
  void theBrokerIsConfiguredAsTheChartsBundledOne() throws IOException {
    Map<String, String> compose = environment("kafka");
    Container chartBroker =
        RenderedChart.render()
            .get(StatefulSet.class, RenderedChart.RELEASE + "-kafka")
            .getSpec()
            .getTemplate()
            .getSpec()
            .getContainers()
            .get(0);

    assertThat(Uuid.fromString(compose.get("CLUSTER_ID")).toString())
        .isEqualTo(compose.get("CLUSTER_ID"));
    assertThat(service("kafka").get("image")).isEqualTo(chartBroker.getImage());
    for (EnvVar e : chartBroker.getEnv()) {
      assertThat(compose).as("the broker's %s", e.getName()).containsKey(e.getName());
      if (!List.of("CLUSTER_ID", "KAFKA_ADVERTISED_LISTENERS", "KAFKA_LOG_DIRS")
          .contains(e.getName())) {
        assertThat(compose.get(e.getName())).as(e.getName()).isEqualTo(e.getValue());
      }
    }
  }

  @TempDir Path local;

  /**
   * A service's settings as it reads them in its container: the two mounted directories (here
   * compose/config and a compose/local of the test's), then its environment.
   */
  private ConfigurableEnvironment load(String name) throws IOException {
    Map<String, String> env = environment(name);
    env.put(
        "SPRING_CONFIG_ADDITIONALLOCATION",
        env.get("SPRING_CONFIG_ADDITIONALLOCATION")
            .replace("/etc/cairn/", CONFIG.toAbsolutePath() + "/")
            .replace("/etc/cairn-local/", local.toAbsolutePath() + "/"));
    return ServiceConfigLoader.load(name, env);
  }

  @Test
  void aLocalFileOverridesTheTrackedOne() throws IOException {
    Files.writeString(
        local.resolve("health-prober.yaml"),
        """
        prober:
          geo-tag: us
          peers:
            - geo-tag: eu
              servers: ["192.0.2.53"]
        """);

    ProberProperties prober =
        ServiceConfigLoader.proberBinder(load("health-prober"))
            .bind("prober", ProberProperties.class)
            .get();
    assertThat(prober.geoTag()).isEqualTo("us");
    assertThat(prober.peers()).extracting(p -> p.geoTag()).containsExactly("eu");
    assertThat(prober.topics().prefix()).as("the rest from compose/config").isEmpty();
  }

  @Test
  void everyServiceBindsItsFilesAndEnvironment() throws IOException {
    WatcherProperties watcher =
        ServiceConfigLoader.binder(load("topology-watcher"))
            .bind("watcher", WatcherProperties.class)
            .get();
    assertThat(watcher.leaderElection().enabled()).isFalse();
    assertThat(watcher.clusterName()).isEqualTo("eu");

    ConfigurableEnvironment prober = load("health-prober");
    assertThat(
            ServiceConfigLoader.proberBinder(prober)
                .bind("prober", ProberProperties.class)
                .get()
                .geoTag())
        .isEqualTo("eu");
    assertThat(prober.getProperty("spring.kafka.bootstrap-servers")).isEqualTo("localhost:9092");
    assertThat(prober.getProperty("server.port")).isEqualTo("8082");

    StrategyEngineProperties engine =
        ServiceConfigLoader.binder(load("strategy-engine"))
            .bind("engine", StrategyEngineProperties.class)
            .get();
    assertThat(engine.stateDir()).isEqualTo(Path.of("/tmp/cairn-strategy-engine"));
    assertThat(engine.gslb().zones()).containsExactly("cloud.example.com");

    WriterProperties writer =
        ServiceConfigLoader.binder(load("record-writer"))
            .bind("writer", WriterProperties.class)
            .get();
    assertThat(writer.leaderElection().enabled()).isFalse();

    ResponderProperties responder =
        ServiceConfigLoader.binder(load("dns-responder"))
            .bind("responder", ResponderProperties.class)
            .get();
    assertThat(responder.listenAddress().getHostAddress()).isEqualTo("127.0.0.1");
    assertThat(responder.port()).isEqualTo(5353);
    assertThat(responder.snapshotFile())
        .isEqualTo(Path.of("/tmp/cairn-dns-responder/snapshot.json"));
  }
}
