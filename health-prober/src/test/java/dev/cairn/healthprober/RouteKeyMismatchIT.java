package dev.cairn.healthprober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.kafka.StateTopicReader;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.healthprober.dns.TestDnsServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
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

/**
 * A record on the routes topic whose key names one route and whose value another (key {@code
 * HTTPRoute/default/shop}, value {@code shop-evil} with another host) is skipped: the prober keeps
 * probing the good route's host and withdraws nothing.
 */
@SpringBootTest(
    classes = HealthProberApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.config.name=health-prober",
      "prober.geo-tag=eu",
      "prober.topics.prefix=eu.",
      "prober.interval=1s",
      "prober.query-timeout=500ms"
    })
@EmbeddedKafka(partitions = 1, bootstrapServersProperty = "spring.kafka.bootstrap-servers")
class RouteKeyMismatchIT {

  private static final String PREFIX = "eu.";
  private static final String SHOP = "shop.cloud.test";
  private static final String EVIL = "evil.cloud.test";
  private static TestDnsServer peer;

  @LocalServerPort int port;

  @Value("${spring.kafka.bootstrap-servers}")
  String bootstrap;

  @BeforeAll
  static void startPeer() throws IOException {
    peer = TestDnsServer.start("127.0.0.1", "cloud.test");
    peer.answer("localtargets-" + SHOP, "198.51.100.7");
    peer.answer("localtargets-" + EVIL, "203.0.113.66");
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

  static RouteState route(String name, String hostname) {
    return new RouteState(
        "HTTPRoute",
        "gateway.networking.k8s.io/v1",
        "default",
        name,
        "uid-" + name,
        List.of(hostname),
        List.of(BackendRef.service("shop")),
        Map.of(),
        List.of());
  }

  static GslbState gslb() {
    return new GslbState(
        "default",
        "shop",
        "uid-gslb",
        new GslbResourceRef(
            "gateway.networking.k8s.io/v1", "HTTPRoute", "default", "shop", Map.of(), List.of()),
        List.of(),
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
  void skipsARouteRecordWhoseKeyDoesNotMatchItsValueAndKeepsProbingTheGoodRoute() throws Exception {
    String answersTopic = Topics.PEER_ANSWERS.name(PREFIX);
    String routesTopic = Topics.ROUTES.name(PREFIX);
    String shopKey = "PeerAnswer/us/" + SHOP;
    List<String> tombstones = new CopyOnWriteArrayList<>();
    try (StateTopicReader<PeerAnswer> answers =
            new StateTopicReader<PeerAnswer>(
                    bootstrap,
                    Map.of(),
                    answersTopic,
                    PeerAnswer.class,
                    (key, oldValue, newValue) -> {
                      if (newValue == null) {
                        tombstones.add(key);
                      }
                    })
                .start();
        KafkaProducer<String, Object> producer =
            new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                new StringSerializer(),
                new CairnSerializer<>())) {
      await().untilAsserted(() -> assertThat(get("/actuator/health/readiness")).startsWith("200"));

      RouteState shop = route("shop", SHOP);
      String routeKey = shop.ref().key();
      producer.send(new ProducerRecord<>(routesTopic, routeKey, shop)).get();
      GslbState g = gslb();
      producer.send(new ProducerRecord<>(Topics.GSLBS.name(PREFIX), g.ref().key(), g)).get();

      await().atMost(Duration.ofSeconds(30)).until(() -> answers.get(shopKey) != null);
      assertThat(answers.get(shopKey).status()).isEqualTo(ProbeStatus.OK);
      assertThat(answers.get(shopKey).ipv4()).containsExactly("198.51.100.7");

      // the same key, a value naming another route with another host
      RouteState evil = route("shop-evil", EVIL);
      assertThat(routeKey).isEqualTo("HTTPRoute/default/shop");
      producer.send(new ProducerRecord<>(routesTopic, routeKey, evil)).get();
      int shopQueries = peer.queries("localtargets-" + SHOP);

      // several sweeps and replans (prober.interval=1s): the good route's answer stays
      await()
          .during(Duration.ofSeconds(5))
          .atMost(Duration.ofSeconds(15))
          .untilAsserted(
              () -> {
                assertThat(tombstones).isEmpty();
                assertThat(answers.get(shopKey)).isNotNull();
                assertThat(answers.get("PeerAnswer/us/" + EVIL)).isNull();
              });
      assertThat(answers.snapshot()).containsOnlyKeys(shopKey);
      assertThat(peer.queries("localtargets-" + SHOP)).isGreaterThan(shopQueries);
      assertThat(peer.queries("localtargets-" + EVIL)).isZero();

      String health = get("/actuator/health");
      assertThat(health)
          .startsWith("200")
          .contains("\"" + routesTopic + "\":{\"caughtUp\":true,\"keys\":1,\"malformed\":1}")
          .doesNotContain("is not on the routes topic");
    }
  }
}
