package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The system tests of the two-cluster local stack: {@code eu} and {@code us}, each with its own
 * mock API, five services and dns-responder, one broker. Every assertion is on DNS answers from the
 * responders (dnsjava over UDP), as a client sees them, never on internal state.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoClusterIT {

  private static final Duration GRACE = Duration.ofSeconds(10);
  private static LocalStack stack;
  private static final List<String> timeline = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    stack = LocalStack.start(LocalStack.Options.defaults().withGracePeriod(GRACE));
  }

  @AfterAll
  static void stop() {
    timeline.forEach(System.out::println);
    if (stack != null) {
      stack.close();
    }
  }

  private static Cluster eu() {
    return stack.cluster("eu");
  }

  private static Cluster us() {
    return stack.cluster("us");
  }

  private static String a(Cluster c, String host) {
    return DnsLookup.query(c.dnsAddress(), host, false).describe();
  }

  @Test
  @Order(1)
  void bothClustersAnswerTheSampleHostsOverDns() {
    await()
        .atMost(Duration.ofSeconds(90))
        .untilAsserted(
            () -> {
              for (Cluster c : List.of(eu(), us())) {
                // failover, primary eu: both clusters answer eu's node-aware target (zone a).
                assertThat(a(c, SampleTopology.APP_HOST)).isEqualTo(eu().site().appIpv4());
                assertThat(
                        DnsLookup.query(c.dnsAddress(), SampleTopology.APP_HOST, true).describe())
                    .isEqualTo(eu().site().appIpv6());
                // the plain route: each cluster answers its own ingress node of zone b.
                assertThat(a(c, SampleTopology.BLOG_HOST)).isEqualTo(c.site().shopIpv4());
              }
            });
    DnsLookup.Answer app = DnsLookup.query(eu().dnsAddress(), SampleTopology.APP_HOST, false);
    assertThat(app.authoritative()).as("AA bit").isTrue();
    assertThat(a(eu(), "nothing-here." + SampleTopology.GSLB_ZONE)).isEqualTo("NXDOMAIN");
  }

  @Test
  @Order(2)
  void theWeightedGslbAnswersBothClustersInProportion() {
    Set<String> targets = Set.of(eu().site().shopIpv4(), us().site().shopIpv4());
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              Map<String, Integer> seen = new TreeMap<>();
              for (int i = 0; i < 200; i++) {
                seen.merge(a(eu(), SampleTopology.SHOP_HOST), 1, Integer::sum);
              }
              assertThat(seen.keySet()).isEqualTo(targets);
              // weights eu 70, us 30: eu is chosen clearly more often (a loose bound, not a
              // statistics test; the responder's own tests measure the distribution).
              assertThat(seen.get(eu().site().shopIpv4()))
                  .isGreaterThan(seen.get(us().site().shopIpv4()));
            });
  }

  @Test
  @Order(3)
  void failoverScenario() {
    Scenarios.Result result = scenarios().failover();
    assertThat(result.failure()).isNull();
    assertThat(result.timeline())
        .anyMatch(l -> l.contains("us " + SampleTopology.APP_HOST + ": fails over to us"))
        .anyMatch(l -> l.contains("eu " + SampleTopology.APP_HOST + ": fails over to us"));
  }

  @Test
  @Order(4)
  void splitBrainScenario() {
    Scenarios.Result result = scenarios().splitBrain();
    assertThat(result.failure()).isNull();
    assertThat(result.timeline())
        .anyMatch(l -> l.contains("keeps trusting eu's last answer"))
        .anyMatch(l -> l.contains("fails over after the threshold"));
  }

  @Test
  @Order(5)
  void graceScenario() {
    Scenarios.Result result = scenarios().grace();
    assertThat(result.failure()).isNull();
    assertThat(result.timeline())
        .anyMatch(l -> l.contains("keeps the record inside the grace period"))
        .anyMatch(l -> l.contains("deletes the record after the grace period"));
  }

  @Test
  @Order(6)
  void restartingEachServiceInTurnLosesNothingAndNoAnswerFlaps() throws Exception {
    Map<String, String> expected =
        Map.of(
            "eu " + SampleTopology.APP_HOST, eu().site().appIpv4(),
            "us " + SampleTopology.APP_HOST, eu().site().appIpv4(),
            "eu " + SampleTopology.BLOG_HOST, eu().site().shopIpv4(),
            "us " + SampleTopology.BLOG_HOST, us().site().shopIpv4());
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                expected.forEach(
                    (key, answer) ->
                        assertThat(a(stack.cluster(key.split(" ")[0]), key.split(" ")[1]))
                            .isEqualTo(answer)));
    Set<String> responderDown = ConcurrentHashMap.newKeySet();
    List<String> wrong = new CopyOnWriteArrayList<>();
    Map<String, Integer> counts = new ConcurrentHashMap<>();
    AtomicBoolean sampling = new AtomicBoolean(true);
    // which restart a wrong answer came during, and when: a failure names the service to look at
    AtomicReference<String> restarting = new AtomicReference<>("none yet");
    long sampleStart = System.nanoTime();
    Thread sampler =
        new Thread(
            () -> {
              while (sampling.get()) {
                for (Map.Entry<String, String> e : expected.entrySet()) {
                  String cluster = e.getKey().split(" ")[0];
                  String host = e.getKey().split(" ")[1];
                  boolean downBefore = responderDown.contains(cluster);
                  String answer = a(stack.cluster(cluster), host);
                  boolean down = downBefore || responderDown.contains(cluster);
                  counts.merge(answer.equals(e.getValue()) ? "ok" : answer, 1, Integer::sum);
                  // While a responder restarts, its clients get no answer (or SERVFAIL until it
                  // has synced): an outage of that server, never a wrong answer.
                  boolean outage =
                      answer.equals("TIMEOUT")
                          || answer.equals("ERROR")
                          || answer.equals("SERVFAIL");
                  if (!answer.equals(e.getValue()) && !(down && outage)) {
                    wrong.add(
                        e.getKey()
                            + " answered "
                            + answer
                            + " instead of "
                            + e.getValue()
                            + " (restarting "
                            + restarting.get()
                            + ", at "
                            + (System.nanoTime() - sampleStart) / 1_000_000
                            + " ms)");
                  }
                }
              }
            },
            "restart-sampler");
    sampler.start();
    List<String> restarted = new ArrayList<>();
    try {
      for (Cluster c : List.of(eu(), us())) {
        for (String service : Cluster.SERVICES) {
          if (service.equals("dns-responder")) {
            responderDown.add(c.name());
          }
          long t0 = System.nanoTime();
          restarting.set(c.name() + "/" + service);
          c.restart(service);
          restarting.set("none since " + c.name() + "/" + service);
          if (service.equals("dns-responder")) {
            await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> !a(c, SampleTopology.APP_HOST).equals("SERVFAIL"));
            responderDown.remove(c.name());
          }
          restarted.add(
              c.name() + "/" + service + " " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        }
      }
    } finally {
      sampling.set(false);
      sampler.join(10_000);
    }
    timeline.add("restarted: " + restarted);
    timeline.add("answers while restarting: " + counts);
    assertThat(wrong).as("answers that changed while services restarted").isEmpty();
    assertThat(counts.getOrDefault("ok", 0)).isPositive();

    // Nothing was lost: after every restart, the clusters still follow health in both directions.
    Scenarios.Result after = scenarios().failover();
    assertThat(after.failure()).isNull();
  }

  private static Scenarios scenarios() {
    return new Scenarios(stack, GRACE, timeline::add);
  }

  /**
   * Each meter with a Cairn prefix that the services of both clusters registered while the
   * scenarios ran (DNS queries, peer probes, failovers, grace periods, restarts) is in
   * docs/operations.md with its type and tags.
   */
  @Test
  @Order(7)
  void everyCairnMeterIsInTheOperationsGuide() throws java.io.IOException {
    Map<String, MeterDocs.Documented> documented = MeterDocs.read();
    List<String> wrong = new ArrayList<>();
    Set<String> checked = new java.util.TreeSet<>();
    for (Cluster c : List.of(eu(), us())) {
      c.services()
          .forEach(
              (service, context) ->
                  wrong.addAll(
                      MeterDocs.check(
                          c.name() + "/" + service,
                          context.getBean(io.micrometer.core.instrument.MeterRegistry.class),
                          documented,
                          Set.of("cairn.", "responder.", "k8gb."),
                          checked)));
    }
    assertThat(checked)
        .as("Cairn meters registered in the two clusters")
        .contains(
            "cairn.prober.results",
            "cairn.prober.probe.latency",
            "cairn.engine.recomputations",
            "cairn.writer.apply.latency",
            "responder.queries",
            "responder.query.latency",
            "k8gb.gslb.healthy.records",
            "k8gb.gslb.service.status.num");
    assertThat(wrong).as("meters that docs/operations.md does not describe as they are").isEmpty();
  }

  @Test
  @Order(8)
  void everyMetricTheAlertRulesAndTheDashboardReadIsExported() throws Exception {
    Map<String, Set<String>> byAlert = MonitoringQueries.read();
    Set<String> scraped = new java.util.TreeSet<>();
    for (Cluster c : List.of(eu(), us())) {
      for (String service : Cluster.SERVICES) {
        scraped.addAll(MonitoringQueries.scrape(c.actuatorPort(service)));
      }
    }
    Set<String> documented = MonitoringQueries.documentedNames(MeterDocs.read());
    assertThat(byAlert).hasSizeGreaterThanOrEqualTo(20);
    assertThat(byAlert.get("CairnPeerUnreachable"))
        .containsExactly("resilience4j_circuitbreaker_state");
    assertThat(MonitoringQueries.unexported(byAlert, scraped, documented))
        .as("metrics read by helm/cairn/files/prometheus-rules.yaml")
        .isEmpty();
    Map<String, Set<String>> byPanel = MonitoringQueries.readDashboard();
    assertThat(byPanel).hasSizeGreaterThanOrEqualTo(30);
    assertThat(MonitoringQueries.unexported(byPanel, scraped, documented))
        .as("metrics read by helm/cairn/files/grafana-dashboard.json")
        .isEmpty();
    // The metrics that are not Cairn's own, and the histogram, exist only in a scrape.
    assertThat(scraped)
        .contains(
            "resilience4j_circuitbreaker_state",
            "cairn_engine_streams_running",
            "cairn_writer_foreign_refused_total",
            "cairn_writer_schema_rejected_total",
            "cairn_engine_records_malformed_total",
            "responder_snapshot_rebuild_failing",
            "kafka_consumer_fetch_manager_records_lag_max",
            "cairn_writer_event_to_write_seconds_bucket");
  }

  @Test
  @Order(9)
  void aRealPrometheusEvaluatesTheRulesAndTheDashboardAndAlertsOnABlackHoledPeer(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    String binary = PrometheusServer.findOrSkip();
    List<PrometheusServer.Target> targets = new ArrayList<>();
    for (Cluster c : List.of(eu(), us())) {
      for (String service : Cluster.SERVICES) {
        targets.add(
            new PrometheusServer.Target(
                "127.0.0.1:" + c.actuatorPort(service), c.name(), c.name() + "-" + service));
      }
    }
    try (PrometheusServer prometheus =
        PrometheusServer.start(binary, dir, MonitoringQueries.RULES, targets)) {
      // Every target up, and enough scrapes for a rate over the last 10 s.
      await("ten targets scraped for 5 s")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> prometheus.query("count_over_time(up[10s]) >= 5 and up == 1").size() == 10);

      // Each rule evaluated against real series, without an error (a wrong label match, a
      // many-to-many join would show here, not in promtool's unit tests).
      Map<String, String> health = new TreeMap<>();
      await("every alerting rule evaluated")
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                health.clear();
                health.putAll(prometheus.ruleHealth());
                return health.size() == MonitoringQueries.alertExpressions().size()
                    && health.values().stream().noneMatch(h -> h.startsWith("unknown"));
              });
      assertThat(health).allSatisfy((rule, h) -> assertThat(h).as(rule).startsWith("ok"));
      assertThat(prometheus.alerts()).as("alerts of a healthy two-cluster stack").isEmpty();

      // Each panel's query answers; those below may be empty in a healthy stack.
      Set<String> mayBeEmpty =
          Set.of(
              "Rebuilds B", // responses withheld by rate limiting: off in the stack
              "Circuit breakers A", // no peer's circuit is open
              "Refusals and conflicts C"); // no 409 yet: a counter made at the first one
      List<String> empty = new ArrayList<>();
      MonitoringQueries.dashboardQueries("10s")
          .forEach(
              (panel, promql) -> {
                if (prometheus.query(promql).isEmpty() && !mayBeEmpty.contains(panel)) {
                  empty.add(panel + ": " + promql);
                }
              });
      assertThat(empty).as("dashboard queries without a result").isEmpty();

      // A black-holed peer: eu's prober opens its circuit to us, and the alert goes pending.
      us().setSilent(true);
      try {
        await("CairnPeerUnreachable pending for peer-us in eu")
            .atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofSeconds(1))
            .until(
                () ->
                    prometheus.alerts().stream()
                        .anyMatch(
                            a ->
                                a.startsWith("CairnPeerUnreachable pending")
                                    && a.contains("\"name\":\"peer-us\"")
                                    && a.contains("\"namespace\":\"eu\"")));
        String peersDown = MonitoringQueries.dashboardQueries("10s").get("Peers not reachable A");
        assertThat(prometheus.query(peersDown))
            .singleElement()
            .satisfies(v -> assertThat(v.get("value").get(1).asString()).isNotEqualTo("0"));
      } finally {
        us().setSilent(false);
      }
    }
  }
}
