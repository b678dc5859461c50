package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.yaml.snakeyaml.Yaml;

/**
 * The Helm chart's services as its pods run them: each service's executable jar (what its image
 * holds) in its own JVM, with the environment of the rendered Deployment and the rendered {@code
 * <service>.yaml}, against a Kafka broker and the stack's mock API server. Only what a pod has that
 * a process on this host does not is replaced: the config mount, the emptyDir paths, the ports (one
 * host for all five), the heap limit and the in-cluster API address. A Gslb applied then gets its
 * Ingress, its DNSEndpoint and a DNS answer that follows its endpoints.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HelmChartIT {

  private static final Path CHART = Path.of("..", "helm", "cairn");
  private static final Path JARS = Path.of("target", "exec-jars");
  private static final String NAMESPACE = "cairn-system";
  private static final Duration START = Duration.ofSeconds(150);
  private static final String HOST = "pay.cloud.example.com";

  private static MockKubernetesApi api;
  private static EmbeddedKafkaKraftBroker broker;
  private static Path work;
  private static final Map<String, Integer> httpPorts = new LinkedHashMap<>();
  private static final List<Process> processes = new ArrayList<>();
  private static InetSocketAddress dns;

  @BeforeAll
  static void install() throws IOException {
    api = MockKubernetesApi.start(0);
    broker = new EmbeddedKafkaKraftBroker(1, 1);
    broker.afterPropertiesSet();
    work = Files.createTempDirectory(Path.of("target"), "helm-chart-it");

    Map<String, Object> values = new LinkedHashMap<>();
    values.put("global.clusterGeoTag", "eu");
    values.put("global.dnsZones[0].loadBalancedZone", "cloud.example.com");
    values.put("global.clusterExposedIPs[0]", "203.0.113.10");
    values.put("global.peers[0].geoTag", "us");
    values.put("global.peers[0].servers[0]", "127.0.0.1:" + freeUdpPort());
    values.put("global.topics.prefix", "eu.");
    values.put("kafka.enabled", false);
    values.put("global.kafka.bootstrapServers", broker.getBrokersAsString());
    values.put("record-writer.config.writer.grace-period", "0s");
    TemplateCommand template =
        new Helm(CHART).template().withName("cairn").withNamespace(NAMESPACE);
    for (Map.Entry<String, Object> e : values.entrySet()) {
      template = template.set(e.getKey(), e.getValue());
    }
    List<Map<String, Object>> docs = new ArrayList<>();
    for (Object doc : new Yaml().loadAll(template.call())) {
      if (doc != null) {
        docs.add(map(doc));
      }
    }
    for (Map<String, Object> doc : docs) {
      if (doc.get("kind").equals("Deployment")) {
        start(doc, docs);
      }
    }
  }

  @AfterAll
  static void uninstall() throws InterruptedException {
    for (Process p : processes) {
      p.destroy();
    }
    for (Process p : processes) {
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    if (broker != null) {
      broker.destroy();
    }
    if (api != null) {
      api.close();
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  /** Starts one Deployment's container as a process, the way its pod would run it. */
  private static void start(Map<String, Object> deployment, List<Map<String, Object>> docs)
      throws IOException {
    String name = (String) map(deployment.get("metadata")).get("name");
    Map<String, Object> pod = map(map(map(deployment.get("spec")).get("template")).get("spec"));
    Map<String, Object> container = map(list(pod.get("containers")).get(0));
    String service = (String) container.get("name");

    // The ConfigMap the pod mounts at /etc/cairn.
    Path etc = Files.createDirectories(work.resolve(service).resolve("etc"));
    for (Map<String, Object> doc : docs) {
      if (doc.get("kind").equals("ConfigMap")
          && map(doc.get("metadata")).get("name").equals(name)) {
        for (Map.Entry<String, Object> file : map(doc.get("data")).entrySet()) {
          Files.writeString(etc.resolve(file.getKey()), (String) file.getValue());
        }
      }
    }

    // The container's environment, with the downward API and $(VAR) references resolved.
    Map<String, String> env = new LinkedHashMap<>();
    Map<String, String> fields =
        Map.of("metadata.name", name + "-0", "metadata.namespace", NAMESPACE);
    for (Object item : list(container.get("env"))) {
      Map<String, Object> e = map(item);
      String value;
      if (e.containsKey("valueFrom")) {
        value = fields.get(map(map(e.get("valueFrom")).get("fieldRef")).get("fieldPath"));
      } else {
        value = expand((String) e.get("value"), env);
      }
      env.put((String) e.get("name"), value);
    }
    assertThat(env.get("SPRING_CONFIG_ADDITIONALLOCATION")).isEqualTo("optional:file:/etc/cairn/");

    // What a pod has that a process on this host does not.
    Path state = work.resolve(service).resolve("state");
    env.put("SPRING_CONFIG_ADDITIONALLOCATION", "optional:file:" + etc.toAbsolutePath() + "/");
    int http = freeTcpPort();
    httpPorts.put(service, http);
    env.put("SERVER_PORT", String.valueOf(http));
    env.put("KUBERNETES_MASTER", api.url());
    env.put("KUBERNETES_AUTH_TOKEN", "x");
    env.put("KUBECONFIG", work.resolve("no-kubeconfig").toString());
    if (service.equals("strategy-engine")) {
      env.put("ENGINE_STATEDIR", state.toAbsolutePath().toString());
    }
    if (service.equals("dns-responder")) {
      int port = freeUdpPort();
      dns = new InetSocketAddress("127.0.0.1", port);
      env.put("RESPONDER_PORT", String.valueOf(port));
      env.put("RESPONDER_SNAPSHOTFILE", state.resolve("snapshot.json").toAbsolutePath().toString());
    }

    Path jar = JARS.resolve(service + ".jar");
    assertThat(jar).as("the executable jar, copied before the integration tests").exists();
    String java = ProcessHandle.current().info().command().orElse("java");
    ProcessBuilder builder =
        new ProcessBuilder(java, "-Xmx384m", "-jar", jar.toAbsolutePath().toString())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve(service + ".log").toFile());
    builder.environment().putAll(env);
    processes.add(builder.start());
  }

  private static String expand(String value, Map<String, String> env) {
    Matcher m = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)").matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String v = env.getOrDefault(m.group(1), m.group());
      m.appendReplacement(out, Matcher.quoteReplacement(v));
    }
    return m.appendTail(out).toString();
  }

  private static int freeTcpPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static int freeUdpPort() {
    try (DatagramSocket s = new DatagramSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int readiness(String service) {
    try {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + httpPorts.get(service)
                                  + "/actuator/health/readiness"))
                      .timeout(Duration.ofSeconds(2))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      return r.statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static String answer() {
    return DnsLookup.query(dns, HOST, false).describe();
  }

  @Test
  @Order(1)
  void everyServiceStartsFromItsJarWithTheRenderedSettingsAndBecomesReady() {
    assertThat(httpPorts.keySet())
        .containsExactlyInAnyOrder(
            "topology-watcher",
            "health-prober",
            "strategy-engine",
            "record-writer",
            "dns-responder");
    for (String service : httpPorts.keySet()) {
      await(service + " ready (log: " + work.resolve(service + ".log") + ")")
          .atMost(START)
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> readiness(service) == 200);
    }
  }

  @Test
  @Order(2)
  void anAppliedGslbGetsItsIngressAndADnsAnswerThatFollowsItsEndpoints() {
    KubernetesClient client = api.client();
    client
        .load(new ByteArrayInputStream(SAMPLE.getBytes(StandardCharsets.UTF_8)))
        .inNamespace("default")
        .create();

    await("the answer for " + HOST)
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(250))
        .until(HelmChartIT::answer, a -> a.equals("203.0.113.10"));
    Ingress ingress =
        client.network().v1().ingresses().inNamespace("default").withName("pay").get();
    assertThat(ingress).as("the embedded Ingress the record-writer creates").isNotNull();
    assertThat(ingress.getMetadata().getOwnerReferences())
        .extracting("kind")
        .containsExactly("Gslb");
    GenericKubernetesResource gslb =
        client
            .genericKubernetesResources(SampleTopology.GSLB_CONTEXT)
            .inNamespace("default")
            .withName("pay")
            .get();
    await("the Gslb's status")
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                String.valueOf(
                    client
                        .genericKubernetesResources(SampleTopology.GSLB_CONTEXT)
                        .inNamespace("default")
                        .withName("pay")
                        .get()
                        .getAdditionalProperties()
                        .get("status")),
            s -> s.contains("geoTag=eu") && s.contains("pay.cloud.example.com"));
    assertThat(gslb).isNotNull();

    setReady(client, false);
    // No healthy target here and no peer with one: the host has no record, NXDOMAIN as with
    // k8gb (docs/compatibility.md).
    await("no answer once the only endpoint is not ready")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(250))
        .until(HelmChartIT::answer, a -> a.equals("NXDOMAIN"));

    setReady(client, true);
    await("the answer back")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(250))
        .until(HelmChartIT::answer, a -> a.equals("203.0.113.10"));
  }

  @Test
  @Order(3)
  void anIngressAnnotatedAsK8gbDoesItGetsAGslbAndAnAnswer() {
    KubernetesClient client = api.client();
    client
        .load(new ByteArrayInputStream(ANNOTATED.getBytes(StandardCharsets.UTF_8)))
        .inNamespace("default")
        .create();

    await("the answer for shop.cloud.example.com")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> DnsLookup.query(dns, "shop.cloud.example.com", false).describe(),
            a -> a.equals("203.0.113.10"));
    GenericKubernetesResource gslb =
        client
            .genericKubernetesResources(SampleTopology.GSLB_CONTEXT)
            .inNamespace("default")
            .withName("shop")
            .get();
    assertThat(gslb.getMetadata().getOwnerReferences())
        .extracting("kind", "name")
        .containsExactly(tuple("Ingress", "shop"));
    assertThat(String.valueOf(gslb.getAdditionalProperties().get("spec")))
        .contains("resourceRef={apiVersion=networking.k8s.io/v1, kind=Ingress, name=shop}")
        .contains("type=roundRobin");
  }

  private static void setReady(KubernetesClient client, boolean ready) {
    client
        .discovery()
        .v1()
        .endpointSlices()
        .inNamespace("default")
        .withName("web-abc12")
        .edit(
            s -> {
              s.getEndpoints().get(0).getConditions().setReady(ready);
              return s;
            });
  }

  /** k8gb's Ingress-annotation mode: the record-writer makes the Gslb. */
  private static final String ANNOTATED =
      """
      apiVersion: networking.k8s.io/v1
      kind: Ingress
      metadata:
        name: shop
        namespace: default
        annotations: {k8gb.io/strategy: roundRobin, k8gb.io/dns-ttl-seconds: "5"}
      spec:
        rules:
        - host: shop.cloud.example.com
          http:
            paths:
            - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
      """;

  private static final String SAMPLE =
      """
      apiVersion: v1
      kind: Service
      metadata: {name: web, namespace: default}
      spec:
        ports: [{port: 80, targetPort: 8080}]
        selector: {app: web}
      ---
      apiVersion: discovery.k8s.io/v1
      kind: EndpointSlice
      metadata:
        name: web-abc12
        namespace: default
        labels: {kubernetes.io/service-name: web}
      addressType: IPv4
      ports: [{port: 8080, protocol: TCP}]
      endpoints:
      - addresses: [10.0.0.5]
        conditions: {ready: true}
        nodeName: node-a
      ---
      apiVersion: k8gb.io/v1beta1
      kind: Gslb
      metadata: {name: pay, namespace: default}
      spec:
        ingress:
          rules:
          - host: pay.cloud.example.com
            http:
              paths:
              - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
        strategy: {type: roundRobin, dnsTtlSeconds: 5}
      """;
}
