package dev.cairn.strategyengine.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.cairn.strategyengine.api.DecisionQueries.GslbSnapshot;
import dev.cairn.strategyengine.gslb.GslbReport;
import dev.cairn.strategyengine.gslb.GslbReport.HostReport;
import dev.cairn.strategyengine.gslb.GslbReport.PeerReport;
import dev.cairn.strategyengine.stream.GslbReports;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import tools.jackson.databind.JsonNode;

/** The Gslb explain API's shape and its answers when it cannot look anything up. */
class GslbControllerTest {

  private static final Instant NOW = Instant.parse("2026-11-29T12:05:00Z");

  private final DecisionQueries queries =
      new DecisionQueries(new StreamsBuilderFactoryBean(), new GslbReports());
  private final GslbController controller =
      new GslbController(queries, Clock.fixed(NOW, ZoneOffset.UTC));
  private final MockMvc mvc =
      MockMvcBuilders.standaloneSetup(controller, new DecisionController(queries)).build();

  @Test
  void addsTheAgeOfEveryPeerAnswer() {
    PeerReport peer =
        new PeerReport(
            "us",
            "192.0.2.53:53",
            "TIMEOUT",
            List.of("198.51.100.20"),
            Instant.parse("2026-11-29T12:00:00Z"),
            Instant.parse("2026-11-29T12:00:30Z"),
            Instant.parse("2026-11-29T12:04:00Z"),
            "TRUSTED",
            true,
            Instant.parse("2026-11-29T12:10:00Z"),
            "unreachable (TIMEOUT)");
    GslbReport report =
        new GslbReport(
            "Gslb/shop/app",
            "eu",
            "failover",
            30L,
            600L,
            true,
            "annotation k8gb.io/exposed-ip-addresses",
            List.of("203.0.113.10"),
            List.of(
                new HostReport(
                    "app.cloud.example.com",
                    "Healthy",
                    List.of(),
                    true,
                    List.of(peer),
                    "SECONDARY_FOLLOWS_PRIMARY",
                    "secondary and the primary serves",
                    Map.of("us", List.of("198.51.100.20")),
                    List.of("198.51.100.20"),
                    null)),
            List.of());

    JsonNode body = controller.explain(new GslbSnapshot(null, null, report), NOW);

    assertThat(body.get("now").asString()).isEqualTo("2026-11-29T12:05:00Z");
    assertThat(body.get("decision").isNull()).isTrue();
    JsonNode answer = body.get("report").get("hosts").get(0).get("peers").get(0);
    assertThat(answer.get("verdict").asString()).isEqualTo("TRUSTED");
    assertThat(answer.get("lastSuccessAgeSeconds").asLong()).isEqualTo(300);
    assertThat(answer.get("failingForSeconds").asLong()).isEqualTo(270);
    assertThat(answer.get("observedAgeSeconds").asLong()).isEqualTo(60);
    assertThat(body.get("report").get("hosts").get(0).get("branch").asString())
        .isEqualTo("SECONDARY_FOLLOWS_PRIMARY");
  }

  @Test
  void leavesOutTheFieldsAnAnsweringPeerHasNoValueFor() {
    PeerReport peer =
        new PeerReport(
            "us",
            "192.0.2.53:53",
            "OK",
            List.of("198.51.100.20"),
            Instant.parse("2026-11-29T12:04:50Z"),
            null,
            Instant.parse("2026-11-29T12:04:50Z"),
            "ANSWERED",
            true,
            null,
            "answered");
    JsonNode answer =
        controller
            .explain(new GslbSnapshot(null, null, reportWithOnePeer(peer)), NOW)
            .get("report")
            .get("hosts")
            .get(0)
            .get("peers")
            .get(0);

    assertThat(answer.get("lastSuccessAgeSeconds").asLong()).isEqualTo(10);
    assertThat(answer.get("observedAgeSeconds").asLong()).isEqualTo(10);
    assertThat(answer.has("failingSince")).isFalse();
    assertThat(answer.has("failingForSeconds")).isFalse();
    assertThat(answer.has("trustedUntil")).isFalse();
  }

  @Test
  void answers503WhileStreamsIsNotRunning() throws Exception {
    mvc.perform(get("/api/v1/gslbs/shop/app"))
        .andExpect(status().isServiceUnavailable())
        .andExpect(jsonPath("$.error").value("unavailable"));
    mvc.perform(get("/api/v1/decisions/shop/app").param("kind", "Gslb"))
        .andExpect(status().isServiceUnavailable());
  }

  @Test
  void answers400ForAnUnknownKind() throws Exception {
    mvc.perform(get("/api/v1/decisions/shop/app").param("kind", "Ingress"))
        .andExpect(status().isBadRequest())
        .andExpect(
            jsonPath("$.message").value("kind must be one of HTTPRoute, Gslb, got 'Ingress'"));
  }

  /** A roundRobin Gslb's report with one host, served here and by {@code peer}. */
  private static GslbReport reportWithOnePeer(PeerReport peer) {
    HostReport host =
        new HostReport(
            "app.cloud.example.com",
            "Healthy",
            List.of(),
            true,
            List.of(peer),
            "ALL_CLUSTERS",
            "own targets (if serving) plus every serving peer's",
            Map.of("us", List.of("198.51.100.20")),
            List.of("198.51.100.20", "203.0.113.10"),
            null);
    return new GslbReport(
        "Gslb/shop/app",
        "eu",
        "roundRobin",
        30L,
        600L,
        true,
        "load-balancer status",
        List.of("203.0.113.10"),
        List.of(host),
        List.of());
  }
}
