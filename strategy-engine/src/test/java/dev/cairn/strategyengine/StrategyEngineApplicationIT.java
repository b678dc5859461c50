package dev.cairn.strategyengine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.codec.CairnJson;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.kafka.NamespacePartitioner;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.strategyengine.stream.EngineTopology;
import dev.cairn.strategyengine.stream.InputErrors;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import tools.jackson.databind.JsonNode;

/**
 * The whole engine on an embedded KRaft broker with two partitions per topic: routes of two
 * namespaces land in different stream tasks, and every task still sees every node (broadcast).
 * Decisions arrive on the decisions topic and through the explain API.
 */
@SpringBootTest(
    classes = StrategyEngineApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.config.name=strategy-engine",
      "engine.application-id=strategy-engine-it",
      "engine.state-dir=target/strategy-engine-it-state",
      "engine.topics.partitions=2",
      "engine.topics.prefix=it.",
      "engine.gslb.geo-tag=eu",
      "engine.gslb.zones=cloud.example.com",
      "spring.kafka.streams.cleanup.on-startup=true",
      "spring.kafka.streams.properties.producer.interceptor.classes="
          + "dev.cairn.strategyengine.SendOrder"
    })
@EmbeddedKafka(partitions = 2, bootstrapServersProperty = "spring.kafka.bootstrap-servers")
class StrategyEngineApplicationIT {

  private static final String PREFIX = "it.";

  @Autowired private EmbeddedKafkaBroker broker;
  @Autowired private InputErrors inputErrors;
  @Autowired private MeterRegistry registry;
  @Autowired private org.springframework.kafka.config.KafkaStreamsConfiguration streamsConfig;
  @LocalServerPort private int port;

  private static Producer<String, Object> producer;
  private static Consumer<String, TargetDecision> consumer;
  private static Consumer<String, GslbStatus> statusConsumer;
  private static final Map<String, TargetDecision> decisions = new ConcurrentHashMap<>();
  private static final Map<String, GslbStatus> statuses = new ConcurrentHashMap<>();
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void noClientsYet() {
    decisions.clear();
  }

  @AfterAll
  static void closeClients() {
    if (producer != null) {
      producer.close();
    }
    if (consumer != null) {
      consumer.close();
    }
    if (statusConsumer != null) {
      statusConsumer.close();
    }
  }

  @Test
  void placesRoutesOfEveryPartitionAndExplainsThem() throws Exception {
    connect();
    String first = "team-a";
    String second = namespaceNotOnThePartitionOf("team-", "HTTPRoute/" + first + "/x");

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> get("/api/v1/decisions/x/y").statusCode() == 404);

    send(
        Topics.SYNC,
        "topology-watcher",
        new SyncMarker("g1", SyncMarker.Phase.SYNCED, Instant.now(), Map.of()));
    send(Topics.NODES, "Node/worker-a1", node("worker-a1", "a", false, "10.0.10.1"));
    send(Topics.NODES, "Node/ingress-a1", node("ingress-a1", "a", true, "10.0.1.1"));
    for (String namespace : List.of(first, second)) {
      send(Topics.ENDPOINTS, "Service/" + namespace + "/web", endpoints(namespace));
      RouteState route = route(namespace);
      send(Topics.ROUTES, route.ref().key(), route);
    }

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              poll();
              assertThat(decisions)
                  .containsKeys("HTTPRoute/" + first + "/app", "HTTPRoute/" + second + "/app");
              assertThat(decisions.values())
                  .allSatisfy(
                      d -> assertThat(d.explanation().chosenTargets()).containsExactly("10.0.1.1"));
            });

    HttpResponse<String> byRoute = get("/api/v1/decisions/" + second + "/app");
    assertThat(byRoute.statusCode()).isEqualTo(200);
    JsonNode body = CairnJson.newMapper().readTree(byRoute.body());
    assertThat(body.get("disposition").asString()).isEqualTo("PUBLISH");
    assertThat(body.get("explanation").get("zones").get(0).asString()).isEqualTo("a");

    HttpResponse<String> byHost = get("/api/v1/decisions?hostname=APP." + first + ".example.com.");
    assertThat(byHost.statusCode()).isEqualTo(200);
    assertThat(CairnJson.newMapper().readTree(byHost.body()).size()).isEqualTo(1);

    HttpResponse<String> unknown = get("/api/v1/decisions/" + first + "/missing");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(CairnJson.newMapper().readTree(unknown.body()).get("error").asString())
        .isEqualTo("not-found");

    // A node change reaches the tasks of both partitions.
    send(Topics.NODES, "Node/ingress-a1", node("ingress-a1", "a", true, "10.0.1.2"));
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              poll();
              assertThat(decisions.values())
                  .hasSize(2)
                  .allSatisfy(
                      d -> assertThat(d.explanation().chosenTargets()).containsExactly("10.0.1.2"));
            });

    // A deleted route is withdrawn with a tombstone and disappears from the API.
    send(Topics.ROUTES, "HTTPRoute/" + first + "/app", null);
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              poll();
              assertThat(decisions).doesNotContainKey("HTTPRoute/" + first + "/app");
              assertThat(get("/api/v1/decisions/" + first + "/app").statusCode()).isEqualTo(404);
            });
    // the decision and the tombstone each went to the producer before the store's changelog record
    assertPublishedBeforeStored(
        "HTTPRoute/" + first + "/app", Topics.DECISIONS.name(), EngineTopology.DECISIONS_STORE);

    HttpResponse<String> readiness = get("/actuator/health/readiness");
    assertThat(readiness.statusCode()).isEqualTo(200);
    HttpResponse<String> metrics = get("/actuator/prometheus");
    assertThat(metrics.body()).contains("cairn_engine_decisions_emitted_total");
    assertThat(decisions.get("HTTPRoute/" + second + "/app").disposition())
        .isEqualTo(Disposition.PUBLISH);
  }

  @Test
  void decidesAGslbFromThePeersAnswersAndExplainsIt() throws Exception {
    connect();
    String namespace = "gslb-it";
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> get("/api/v1/gslbs/x/y").statusCode() == 404);
    syncedWithAHealthyService(namespace);
    PeerAnswer us =
        new PeerAnswer(
            "app.cloud.example.com",
            "us-east-1",
            "192.0.2.53:53",
            ProbeStatus.OK,
            List.of("198.51.100.20"),
            List.of(),
            30L,
            Instant.now(),
            null,
            Instant.now());
    // A malformed answer on the global store's topic is counted and skipped; the next one is read.
    long malformedBefore = inputErrors.malformedCount();
    try (KafkaProducer<String, byte[]> raw =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()),
            new StringSerializer(),
            new ByteArraySerializer())) {
      raw.send(
              new ProducerRecord<>(
                  PREFIX + Topics.PEER_ANSWERS.name(),
                  us.key(),
                  "{not json".getBytes(StandardCharsets.UTF_8)))
          .get();
    }
    send(Topics.PEER_ANSWERS, us.key(), us);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> inputErrors.malformedCount() == malformedBefore + 1);
    GslbState gslb =
        new GslbState(
            namespace,
            "app",
            "uid-gslb",
            null,
            List.of(
                new GslbState.IngressRule(
                    "app.cloud.example.com", List.of(BackendRef.service("web")))),
            new GslbStrategy("roundRobin", 60, null, Map.of("eu", 70, "us-east-1", 30), null),
            null,
            Map.of("k8gb.io/exposed-ip-addresses", "203.0.113.10,2001:db8::10"),
            List.of());
    send(Topics.GSLBS, gslb.ref().key(), gslb);

    String key = "Gslb/" + namespace + "/app";
    // the peer answer reaches the engine through the broadcast topic, possibly after the Gslb:
    // the decision and the status converge on it
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              poll();
              pollStatuses();
              assertThat(statuses.get(key)).isNotNull();
              assertThat(statuses.get(key).healthyRecords())
                  .containsEntry(
                      "app.cloud.example.com",
                      List.of("198.51.100.20", "203.0.113.10", "2001:db8::10"));
              TargetDecision decision = decisions.get(key);
              assertThat(decision).isNotNull();
              assertThat(decision.labels()).containsEntry("k8gb.io/dnstype", "local");
              assertThat(decision.records())
                  .anySatisfy(
                      r -> {
                        assertThat(r.dnsName()).isEqualTo("app.cloud.example.com");
                        assertThat(r.recordType()).isEqualTo("A");
                        assertThat(r.targets()).containsExactly("198.51.100.20", "203.0.113.10");
                        assertThat(r.labels())
                            .containsEntry("weight-us-east-1-0-30", "198.51.100.20")
                            .containsEntry("weight-eu-0-70", "203.0.113.10");
                      })
                  .anySatisfy(
                      r -> assertThat(r.dnsName()).isEqualTo("localtargets-app.cloud.example.com"));
            });

    // Each output goes to the producer before its store's changelog record, so it travels in the
    // first request to the broker.
    assertPublishedBeforeStored(key, Topics.DECISIONS.name(), EngineTopology.DECISIONS_STORE);
    assertPublishedBeforeStored(key, Topics.GSLB_STATUS.name(), EngineTopology.GSLB_STATUS_STORE);

    HttpResponse<String> explained = get("/api/v1/gslbs/" + namespace + "/app");
    assertThat(explained.statusCode()).isEqualTo(200);
    JsonNode peer =
        CairnJson.newMapper()
            .readTree(explained.body())
            .get("report")
            .get("hosts")
            .get(0)
            .get("peers")
            .get(0);
    assertThat(peer.get("geoTag").asString()).isEqualTo("us-east-1");
    assertThat(peer.get("verdict").asString()).isEqualTo("ANSWERED");
    assertThat(peer.get("lastSuccessAgeSeconds").asLong()).isNotNegative();
    HttpResponse<String> byKind = get("/api/v1/decisions/" + namespace + "/app?kind=Gslb");
    assertThat(byKind.statusCode()).isEqualTo(200);

    send(Topics.GSLBS, key, null);
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              poll();
              pollStatuses();
              assertThat(decisions).doesNotContainKey(key);
              assertThat(statuses).doesNotContainKey(key);
            });
    // the tombstones too
    assertPublishedBeforeStored(key, Topics.DECISIONS.name(), EngineTopology.DECISIONS_STORE);
    assertPublishedBeforeStored(key, Topics.GSLB_STATUS.name(), EngineTopology.GSLB_STATUS_STORE);
  }

  /**
   * Gateways usually live in a namespace of their own, and with more than one partition that
   * namespace's records land in another stream task than the Gslb's: every task still sees every
   * Gateway (broadcast), so Gateway mode reads its addresses, follows their changes and drops them
   * with the Gateway.
   */
  @Test
  void gatewayModeReadsAGatewayOfAnotherPartition() throws Exception {
    connect();
    String infra = "infra";
    String namespace = namespaceNotOnThePartitionOf("shop-", "Gateway/" + infra + "/public");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> get("/api/v1/gslbs/x/y").statusCode() == 404);
    send(
        Topics.SYNC,
        "topology-watcher",
        new SyncMarker("g1", SyncMarker.Phase.SYNCED, Instant.now(), Map.of()));
    send(Topics.ROUTES, "Gateway/" + infra + "/public", gateway(infra, "203.0.113.50"));
    send(
        Topics.SERVICES,
        "Service/" + namespace + "/web",
        new ServiceState(
            namespace,
            "web",
            "uid-web-" + namespace,
            "ClusterIP",
            List.of(),
            List.of(),
            List.of(),
            Map.of(),
            List.of()));
    send(Topics.ENDPOINTS, "Service/" + namespace + "/web", endpoints(namespace));
    RouteState route =
        new RouteState(
            "HTTPRoute",
            "gateway.networking.k8s.io/v1",
            namespace,
            "app",
            "uid-route-" + namespace,
            List.of("shop.cloud.example.com"),
            List.of(BackendRef.service("web")),
            List.of(),
            List.of(),
            Map.of("directdns.meisterlala.dev/enabled", "false"),
            List.of(),
            null,
            Map.of(),
            List.of(new RouteState.ParentRef(null, null, infra, "public", null)));
    send(Topics.ROUTES, route.ref().key(), route);
    GslbState gslb =
        new GslbState(
            namespace,
            "app",
            "uid-gslb-" + namespace,
            new GslbResourceRef(
                "gateway.networking.k8s.io/v1", "HTTPRoute", null, "app", Map.of(), List.of()),
            List.of(),
            new GslbStrategy("roundRobin", 30, null, Map.of(), null),
            null,
            Map.of("cairn.dev/http-route-targets", "gateway"),
            List.of());
    send(Topics.GSLBS, gslb.ref().key(), gslb);

    String key = "Gslb/" + namespace + "/app";
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              poll();
              assertThat(decisions.get(key)).isNotNull();
              assertThat(decisions.get(key).records())
                  .as(() -> explain(namespace))
                  .anySatisfy(
                      r -> {
                        assertThat(r.dnsName()).isEqualTo("shop.cloud.example.com");
                        assertThat(r.targets()).containsExactly("203.0.113.50");
                      });
            });

    // the Gateway's new address reaches the Gslb's task
    send(Topics.ROUTES, "Gateway/" + infra + "/public", gateway(infra, "203.0.113.51"));
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              poll();
              assertThat(decisions.get(key).records())
                  .anySatisfy(
                      r -> {
                        assertThat(r.dnsName()).isEqualTo("shop.cloud.example.com");
                        assertThat(r.targets()).containsExactly("203.0.113.51");
                      });
            });

    // and so does its deletion: no local target is left, the explanation says why
    send(Topics.ROUTES, "Gateway/" + infra + "/public", null);
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              HttpResponse<String> explained = get("/api/v1/gslbs/" + namespace + "/app");
              assertThat(explained.statusCode()).isEqualTo(200);
              assertThat(explained.body()).contains("Gateway infra/public (not published)");
            });
  }

  /**
   * Every changelog record of {@code key} in {@code store} was sent after an output record of the
   * key on {@code output} (prefixed), one for one.
   */
  private static void assertPublishedBeforeStored(String key, String output, String store) {
    String changelog = "strategy-engine-it-" + store + "-changelog";
    List<String> sent = SendOrder.topicsOf(key);
    int published = 0;
    int stored = 0;
    for (String topic : sent) {
      if (topic.equals(PREFIX + output)) {
        published++;
      } else if (topic.equals(changelog)) {
        stored++;
        assertThat(stored)
            .as(
                "changelog record %d of %s sent before its output on %s: %s",
                stored, key, output, sent)
            .isLessThanOrEqualTo(published);
      }
    }
    assertThat(stored).as("changelog records of %s in %s: %s", key, changelog, sent).isPositive();
  }

  /**
   * A Gslb with thousands of hosts makes a decision larger than Kafka takes: sending it failed the
   * producer and stopped the engine for everything else. Now an output over {@code
   * engine.max-output-size} is not sent (the status says why), one the broker refuses even so is
   * dropped and logged, and the engine goes on deciding.
   */
  @Test
  void anOutputTooLargeForKafkaIsNotSentAndTheEngineGoesOn() throws Exception {
    connect();
    String namespace = "big-it";
    syncedWithAHealthyService(namespace);
    double before = tooLarge("decision");

    // About 1.3 MB of decision: over the default engine.max-output-size (1000 KiB).
    send(Topics.GSLBS, "Gslb/" + namespace + "/huge", manyHosts(namespace, "huge", 3000));
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              pollStatuses();
              GslbStatus status = statuses.get("Gslb/" + namespace + "/huge");
              assertThat(status).isNotNull();
              assertThat(status.problems())
                  .anySatisfy(
                      p -> assertThat(p).startsWith("decision='").contains("max-output-size"));
            });
    assertThat(tooLarge("decision")).isEqualTo(before + 1);

    // A topic that takes less than the engine's limit: the broker refuses the decision.
    try (org.apache.kafka.clients.admin.Admin admin =
        org.apache.kafka.clients.admin.Admin.create(
            Map.of("bootstrap.servers", broker.getBrokersAsString()))) {
      org.apache.kafka.common.config.ConfigResource topic =
          new org.apache.kafka.common.config.ConfigResource(
              org.apache.kafka.common.config.ConfigResource.Type.TOPIC,
              PREFIX + Topics.DECISIONS.name());
      alter(admin, topic, org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET, "20000");
      try {
        send(Topics.GSLBS, "Gslb/" + namespace + "/medium", manyHosts(namespace, "medium", 100));
        await().atMost(Duration.ofSeconds(60)).until(() -> tooLarge("decision") == before + 2);
      } finally {
        alter(admin, topic, org.apache.kafka.clients.admin.AlterConfigOp.OpType.DELETE, null);
      }
    }

    send(Topics.GSLBS, "Gslb/" + namespace + "/small", manyHosts(namespace, "small", 1));
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              poll();
              assertThat(decisions.get("Gslb/" + namespace + "/small")).isNotNull();
            });
    assertThat(decisions).doesNotContainKeys("Gslb/" + namespace + "/huge");
    assertThat(registry.get("cairn.engine.streams.running").gauge().value()).isEqualTo(1.0);
    assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);

    // Leave nothing for the other tests, which read every decision.
    for (String name : List.of("huge", "medium", "small")) {
      send(Topics.GSLBS, "Gslb/" + namespace + "/" + name, null);
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              poll();
              assertThat(decisions.keySet()).noneMatch(k -> k.startsWith("Gslb/" + namespace));
            });
  }

  /** A SYNCED watcher, and the ClusterIP Service {@code <namespace>/web} with a ready endpoint. */
  private void syncedWithAHealthyService(String namespace) throws Exception {
    send(
        Topics.SYNC,
        "topology-watcher",
        new SyncMarker("g1", SyncMarker.Phase.SYNCED, Instant.now(), Map.of()));
    send(
        Topics.SERVICES,
        "Service/" + namespace + "/web",
        new ServiceState(
            namespace,
            "web",
            "uid-web",
            "ClusterIP",
            List.of(),
            List.of(),
            List.of(),
            Map.of(),
            List.of()));
    send(Topics.ENDPOINTS, "Service/" + namespace + "/web", endpoints(namespace));
  }

  private double tooLarge(String output) {
    return registry.get("cairn.engine.outputs.too.large").tag("output", output).counter().count();
  }

  private static void alter(
      org.apache.kafka.clients.admin.Admin admin,
      org.apache.kafka.common.config.ConfigResource topic,
      org.apache.kafka.clients.admin.AlterConfigOp.OpType op,
      String value)
      throws Exception {
    admin
        .incrementalAlterConfigs(
            Map.of(
                topic,
                List.of(
                    new org.apache.kafka.clients.admin.AlterConfigOp(
                        new org.apache.kafka.clients.admin.ConfigEntry("max.message.bytes", value),
                        op))))
        .all()
        .get();
  }

  private static GslbState manyHosts(String namespace, String name, int hosts) {
    return new GslbState(
        namespace,
        name,
        "uid-" + name,
        null,
        IntStream.range(0, hosts)
            .mapToObj(
                i ->
                    new GslbState.IngressRule(
                        name + "-" + i + ".cloud.example.com", List.of(BackendRef.service("web"))))
            .toList(),
        new GslbStrategy("roundRobin", null, null, Map.of(), null),
        null,
        Map.of("k8gb.io/exposed-ip-addresses", "203.0.113.10"),
        List.of());
  }

  @Test
  void theProducersBatchAndLingerAsConfigured() {
    Map<String, Object> config =
        streamsConfig.asProperties().entrySet().stream()
            .collect(
                java.util.stream.Collectors.toMap(e -> (String) e.getKey(), Map.Entry::getValue));
    // engine.producer-batch-size's default (256KB) and engine.producer-linger's (5ms) reach the
    // producers: Kafka's own 16 KB batches cost the replay half its throughput.
    assertThat(config)
        .containsEntry("producer." + ProducerConfig.BATCH_SIZE_CONFIG, 262_144)
        .containsEntry("producer." + ProducerConfig.LINGER_MS_CONFIG, 5);
  }

  @Test
  void storeMetersOfEveryStoreTypeShareTheirTagKeys() {
    registry.gauge(
        "kafka.stream.state.it.rate", Tags.of("in.memory.state.id", "gslb-deadlines"), 1.0);

    assertThat(
            registry
                .find("kafka.stream.state.it.rate")
                .tags("state.id", "gslb-deadlines", "store.type", "in.memory")
                .gauge())
        .isNotNull();
  }

  private void pollStatuses() {
    for (ConsumerRecord<String, GslbStatus> record : statusConsumer.poll(Duration.ofMillis(200))) {
      if (record.value() == null) {
        statuses.remove(record.key());
      } else {
        statuses.put(record.key(), record.value());
      }
    }
  }

  private void connect() {
    if (producer == null) {
      producer =
          new KafkaProducer<>(
              Map.of(
                  ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                  broker.getBrokersAsString(),
                  ProducerConfig.PARTITIONER_CLASS_CONFIG,
                  NamespacePartitioner.class),
              new StringSerializer(),
              new CairnSerializer<>());
    }
    if (consumer == null) {
      consumer =
          new KafkaConsumer<>(
              Map.of(
                  ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                  ConsumerConfig.GROUP_ID_CONFIG, "strategy-engine-it-reader",
                  ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
              new StringDeserializer(),
              new CairnDeserializer<>(TargetDecision.class));
      consumer.subscribe(List.of(PREFIX + Topics.DECISIONS.name()));
    }
    if (statusConsumer == null) {
      statusConsumer =
          new KafkaConsumer<>(
              Map.of(
                  ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                  ConsumerConfig.GROUP_ID_CONFIG, "strategy-engine-it-status-reader",
                  ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
              new StringDeserializer(),
              new CairnDeserializer<>(GslbStatus.class));
      statusConsumer.subscribe(List.of(PREFIX + Topics.GSLB_STATUS.name()));
    }
  }

  private void poll() {
    for (ConsumerRecord<String, TargetDecision> record : consumer.poll(Duration.ofMillis(200))) {
      if (record.value() == null) {
        decisions.remove(record.key());
      } else {
        decisions.put(record.key(), record.value());
      }
    }
  }

  private void send(dev.cairn.commonmodel.TopicSpec<?> topic, String key, Object value)
      throws Exception {
    producer.send(new ProducerRecord<>(PREFIX + topic.name(), key, value)).get();
  }

  /** The first namespace {@code <prefix><n>} whose keys go to another of the two partitions. */
  private static String namespaceNotOnThePartitionOf(String prefix, String key) {
    int taken = NamespacePartitioner.partitionFor(key, 2);
    return IntStream.range(0, 100)
        .mapToObj(i -> prefix + i)
        .filter(ns -> NamespacePartitioner.partitionFor("Gslb/" + ns + "/x", 2) != taken)
        .findFirst()
        .orElseThrow();
  }

  private String explain(String namespace) {
    try {
      return get("/api/v1/gslbs/" + namespace + "/app").body();
    } catch (Exception e) {
      return e.toString();
    }
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static NodeState node(String name, String zone, boolean ingress, String ip) {
    return new NodeState(
        name, zone, null, ingress, List.of(new NodeAddress("InternalIP", ip)), Map.of(), List.of());
  }

  private static ServiceEndpoints endpoints(String namespace) {
    return new ServiceEndpoints(
        namespace,
        "web",
        List.of(new EndpointState(List.of("10.42.0.7"), "worker-a1", "a", true, true, false)),
        List.of());
  }

  private static RouteState gateway(String namespace, String address) {
    return new RouteState(
        "Gateway",
        "gateway.networking.k8s.io/v1",
        namespace,
        "public",
        "uid-gateway-" + namespace,
        List.of(),
        List.of(),
        List.of(address),
        List.of(),
        Map.of(),
        List.of(),
        null);
  }

  private static RouteState route(String namespace) {
    return new RouteState(
        "HTTPRoute",
        "gateway.networking.k8s.io/v1",
        namespace,
        "app",
        "uid-" + namespace,
        List.of("app." + namespace + ".example.com"),
        List.of(BackendRef.service("web")),
        Map.of(),
        List.of());
  }
}
