package dev.cairn.healthprober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.kafka.StateTopicReader;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.healthprober.dns.TestDnsServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The whole service on an embedded broker, probing a static peer served by the in-JVM server. */
@SpringBootTest(
    classes = HealthProberApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.config.name=health-prober",
      "prober.geo-tag=eu",
      "prober.topics.prefix=smoke.",
      "prober.interval=1s",
      "prober.query-timeout=500ms"
    })
@EmbeddedKafka(partitions = 1, bootstrapServersProperty = "spring.kafka.bootstrap-servers")
class HealthProberApplicationIT {

  private static final String PREFIX = "smoke.";
  private static TestDnsServer peer;

  @LocalServerPort int port;

  @Value("${spring.kafka.bootstrap-servers}")
  String bootstrap;

  @BeforeAll
  static void startPeer() throws IOException {
    peer = TestDnsServer.start("127.0.0.1", "cloud.test");
    peer.answer("localtargets-app.cloud.test", "198.51.100.7", "2001:db8::7");
  }

  @AfterAll
  static void stopPeer() {
    peer.close();
  }

  @DynamicPropertySource
  static void peers(DynamicPropertyRegistry registry) {
    registry.add("prober.peers[0].geo-tag", () -> "us");
    registry.add("prober.peers[0].servers[0]", () -> peer.address().toString());
  }

  static GslbState gslb() {
    return new GslbState(
        "default",
        "app",
        "uid-1",
        null,
        List.of(new GslbState.IngressRule("app.cloud.test", List.of(BackendRef.service("app")))),
        new GslbStrategy("failover", 30, "eu", Map.of(), 120),
        null,
        Map.of(),
        List.of());
  }

  private String get(String path) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    return r.statusCode() + " " + r.body();
  }

  @Test
  void publishesWhatThePeerAnswersForEveryGslbHostAndWithdrawsItWithTheGslb() throws Exception {
    String answersTopic = Topics.PEER_ANSWERS.name(PREFIX);
    try (StateTopicReader<PeerAnswer> answers =
            new StateTopicReader<>(bootstrap, Map.of(), answersTopic, PeerAnswer.class, null)
                .start();
        KafkaProducer<String, GslbState> producer =
            new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                new StringSerializer(),
                new CairnSerializer<>())) {
      await().untilAsserted(() -> assertThat(get("/actuator/health/readiness")).startsWith("200"));

      GslbState g = gslb();
      producer.send(new ProducerRecord<>(Topics.GSLBS.name(PREFIX), g.ref().key(), g)).get();

      String key = "PeerAnswer/us/app.cloud.test";
      await().atMost(Duration.ofSeconds(30)).until(() -> answers.get(key) != null);
      PeerAnswer a = answers.get(key);
      assertThat(a.status()).isEqualTo(ProbeStatus.OK);
      assertThat(a.ipv4()).containsExactly("198.51.100.7");
      assertThat(a.ipv6()).containsExactly("2001:db8::7");
      assertThat(a.server()).isEqualTo(peer.address().toString());
      assertThat(a.lastSuccess()).isNotNull();
      assertThat(a.failingSince()).isNull();
      assertThat(answers.snapshot()).containsOnlyKeys(key);

      assertThat(get("/actuator/health/liveness")).startsWith("200").contains("\"proberThreads\"");
      String health = get("/actuator/health");
      assertThat(health).startsWith("200").contains("\"prober\"").contains("\"us\"");
      String metrics = get("/actuator/prometheus");
      assertThat(metrics)
          .contains("cairn_prober_probe_latency_seconds_bucket")
          .contains("cairn_prober_results_total")
          .contains("cairn_prober_queries_total")
          .contains("resilience4j_circuitbreaker_state");

      producer.send(new ProducerRecord<>(Topics.GSLBS.name(PREFIX), g.ref().key(), null)).get();
      await().atMost(Duration.ofSeconds(30)).until(() -> answers.get(key) == null);
    }
  }
}
