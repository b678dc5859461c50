package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.codec.SchemaVersion;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The whole pipeline with real parts: the embedded KRaft broker, the fabric8 mock API server in
 * CRUD mode, and one cluster's watcher, engine, writer, prober and responder application contexts.
 * Asserts on the DNSEndpoint objects at the API, never on internal state.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EndToEndIT {

  private static LocalStack stack;

  @BeforeAll
  static void start() {
    stack = LocalStack.start(PipelineScenario.options());
    PipelineScenario.createTopology(stack.cluster(PipelineScenario.CLUSTER).client());
  }

  @AfterAll
  static void stop() {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  @Order(1)
  void writesTheDnsEndpointWithTheIngressNodeExternalIp() {
    PipelineScenario.awaitRecordWithTarget(stack.cluster(PipelineScenario.CLUSTER).client());
    assertThat(PipelineScenario.owners(stack.cluster(PipelineScenario.CLUSTER).client()))
        .containsExactly("cairn");
  }

  @Test
  @Order(2)
  void malformedEventsOnEveryTopicAreSkippedAndThePipelineGoesOn() {
    try (KafkaProducer<String, byte[]> producer = rawProducer()) {
      for (TopicSpec<?> topic : Topics.ALL) {
        String name = stack.cluster(PipelineScenario.CLUSTER).topics().name(topic);
        producer.send(
            new ProducerRecord<>(
                name, "garbage/default/x", "{not json".getBytes(StandardCharsets.UTF_8)));
        producer.send(
            new ProducerRecord<>(
                name, "Node/wrong-shape", "[1,2,3]".getBytes(StandardCharsets.UTF_8)));
      }
      producer.flush();
    }
    // The pipeline still follows readiness after the garbage: removed after the grace period...
    PipelineScenario.setReady(stack.cluster(PipelineScenario.CLUSTER).client(), false);
    PipelineScenario.awaitRecordDeleted(stack.cluster(PipelineScenario.CLUSTER).client());
  }

  @Test
  @Order(3)
  void readyAgainRestoresTheRecord() {
    PipelineScenario.setReady(stack.cluster(PipelineScenario.CLUSTER).client(), true);
    PipelineScenario.awaitRecordWithTarget(stack.cluster(PipelineScenario.CLUSTER).client());
  }

  @Test
  @Order(4)
  void everyTopicIsReadableJsonWithKcat() {
    Kcat kcat = Kcat.findOrSkip();
    for (TopicSpec<?> topic : Topics.ALL) {
      String name = stack.cluster(PipelineScenario.CLUSTER).topics().name(topic);
      for (Kcat.Line line : kcat.consume(stack.bootstrapServers(), name)) {
        assertThat(line.key()).as("key on %s", name).isNotBlank();
        if (line.value().isEmpty()
            || line.key().startsWith("garbage")
            || line.key().equals("Node/wrong-shape")) {
          continue; // tombstones and the garbage of the previous test
        }
        Object value =
            new CairnDeserializer<>(topic.valueType())
                .deserialize(name, line.value().getBytes(StandardCharsets.UTF_8));
        assertThat(value).as("value on %s", name).isInstanceOf(topic.valueType());
      }
    }
    String decisions = stack.cluster(PipelineScenario.CLUSTER).topics().name(Topics.DECISIONS);
    assertThat(kcat.consume(stack.bootstrapServers(), decisions))
        .anySatisfy(line -> assertThat(line.value()).contains(PipelineScenario.EXTERNAL_IP));
    assertThat(kcat.headers(stack.bootstrapServers(), decisions))
        .filteredOn(h -> !h.key().startsWith("garbage") && !h.key().equals("Node/wrong-shape"))
        .isNotEmpty()
        .allSatisfy(
            h ->
                assertThat(h.value()).contains(SchemaVersion.HEADER + "=" + SchemaVersion.CURRENT));
  }

  private static KafkaProducer<String, byte[]> rawProducer() {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            stack.bootstrapServers(),
            ProducerConfig.LINGER_MS_CONFIG,
            0),
        new StringSerializer(),
        new ByteArraySerializer());
  }

  @Test
  @Order(5)
  void kubectlListsTheDnsEndpointAtTheMockApi() {
    InteropTool kubectl = InteropTool.findOrSkip("kubectl", "kubernetes-client");
    assertThat(
            kubectl.run(
                "--server",
                stack.cluster(PipelineScenario.CLUSTER).apiUrl(),
                "get",
                "dnsendpoints",
                "-A",
                "-o",
                "name"))
        .contains("dnsendpoint.externaldns.k8s.io/" + PipelineScenario.RECORD_NAME);
  }

  @Test
  @Order(6)
  void everyCairnMeterIsInTheOperationsGuide() throws java.io.IOException {
    Map<String, MeterDocs.Documented> documented = MeterDocs.read();
    java.util.List<String> wrong = new java.util.ArrayList<>();
    java.util.Set<String> checked = new java.util.TreeSet<>();
    stack
        .cluster(PipelineScenario.CLUSTER)
        .services()
        .forEach(
            (service, context) ->
                wrong.addAll(
                    MeterDocs.check(
                        service,
                        context.getBean(io.micrometer.core.instrument.MeterRegistry.class),
                        documented,
                        java.util.Set.of("cairn.", "responder.", "k8gb."),
                        checked)));
    assertThat(checked)
        .as("Cairn meters registered by the five services")
        .contains(
            "cairn.watcher.events.published",
            "cairn.prober.hosts",
            "cairn.engine.decisions.emitted",
            "cairn.writer.writes",
            "responder.snapshot.names");
    assertThat(wrong).as("meters that docs/operations.md does not describe as they are").isEmpty();
  }

  @Test
  @Order(7)
  void everyServicesHealthGroupsHoldWhatTheOperationsGuideSays() throws Exception {
    Cluster cluster = stack.cluster(PipelineScenario.CLUSTER);
    Map<String, java.util.Set<String>> readiness = HealthDocs.readiness();
    Map<String, java.util.Set<String>> liveness = HealthDocs.liveness(readiness.keySet());
    assertThat(readiness.keySet())
        .as("services in the Health table")
        .containsExactlyInAnyOrderElementsOf(Cluster.SERVICES);
    assertThat(liveness.keySet()).containsExactlyInAnyOrderElementsOf(Cluster.SERVICES);
    for (String service : Cluster.SERVICES) {
      String port = cluster.actuatorPort(service);
      assertThat(HealthDocs.components(port, "readiness"))
          .as("%s /actuator/health/readiness", service)
          .containsExactlyInAnyOrderElementsOf(readiness.get(service));
      assertThat(HealthDocs.components(port, "liveness"))
          .as("%s /actuator/health/liveness", service)
          .containsExactlyInAnyOrderElementsOf(liveness.get(service));
    }
  }

  @Test
  @Order(8)
  void everyServicesInfoNamesItsBuildAndJava() throws Exception {
    Cluster cluster = stack.cluster(PipelineScenario.CLUSTER);
    for (String service : Cluster.SERVICES) {
      java.net.http.HttpResponse<String> response =
          java.net.http.HttpClient.newHttpClient()
              .send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create(
                              "http://127.0.0.1:"
                                  + cluster.actuatorPort(service)
                                  + "/actuator/info"))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString());
      tools.jackson.databind.JsonNode info =
          tools.jackson.databind.json.JsonMapper.builder().build().readTree(response.body());
      assertThat(info.path("build").path("artifact").asString())
          .as("%s /actuator/info build.artifact", service)
          .isEqualTo(service);
      assertThat(info.path("build").path("version").asString()).isNotBlank();
      assertThat(info.path("java").path("version").asString()).isNotBlank();
    }
  }
}
