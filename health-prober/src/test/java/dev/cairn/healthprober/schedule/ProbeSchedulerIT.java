package dev.cairn.healthprober.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.healthprober.discovery.PeerDirectory;
import dev.cairn.healthprober.dns.DnsClient;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.dns.TestDnsServer;
import dev.cairn.healthprober.kafka.InMemoryTopology;
import dev.cairn.healthprober.kafka.Outbox;
import dev.cairn.healthprober.kafka.RecordingOutbox;
import dev.cairn.healthprober.peer.Peer;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProbeSchedulerIT {

  private static final String TOPIC = "cairn.health.peer-answers.v1";

  private TestDnsServer eu;
  private TestDnsServer us;
  private DnsClient client;
  private InMemoryTopology topology;
  private Outbox outbox;
  private RecordingOutbox recorded;
  private CircuitBreakerRegistry breakers;
  private SimpleMeterRegistry meters;
  private ProbeScheduler scheduler;

  @BeforeEach
  void start() throws Exception {
    eu = TestDnsServer.start("127.0.0.1", "cloud.test");
    us = TestDnsServer.start("127.0.0.1", "cloud.test");
    client = new DnsClient(new DnsClient.Settings(2, 1232, 1));
    topology = new InMemoryTopology();
    outbox = new Outbox();
    recorded = new RecordingOutbox(outbox);
    breakers = CircuitBreakerRegistry.ofDefaults();
    meters = new SimpleMeterRegistry();
  }

  @AfterEach
  void stop() {
    if (scheduler != null) {
      scheduler.close();
    }
    client.close();
    eu.close();
    us.close();
  }

  private ProbeScheduler scheduler(Duration timeout, int maxInFlight, CircuitBreakerConfig cb) {
    return scheduler(timeout, maxInFlight, cb, Duration.ZERO);
  }

  private ProbeScheduler scheduler(
      Duration timeout, int maxInFlight, CircuitBreakerConfig cb, Duration sweepSpread) {
    PeerDirectory directory =
        new PeerDirectory(
            List.of(new Peer("eu", List.of(eu.address())), new Peer("us", List.of(us.address()))),
            null,
            "ap",
            Clock.systemUTC());
    scheduler =
        new ProbeScheduler(
            new ProbeScheduler.Settings(
                Duration.ofHours(1),
                timeout,
                1,
                Duration.ofHours(1),
                List.of(),
                Duration.ofSeconds(300),
                cb,
                BulkheadConfig.custom()
                    .maxConcurrentCalls(maxInFlight)
                    .maxWaitDuration(Duration.ZERO)
                    .build(),
                Duration.ZERO,
                sweepSpread),
            topology,
            directory,
            new DnsLookup(client, 64),
            outbox,
            TOPIC,
            breakers,
            BulkheadRegistry.ofDefaults(),
            new ProbeMetrics(meters),
            Clock.systemUTC());
    return scheduler;
  }

  private ProbeScheduler scheduler() {
    return scheduler(Duration.ofMillis(500), 50, CircuitBreakerConfig.ofDefaults());
  }

  static GslbState gslb(String name, String... hosts) {
    List<GslbState.IngressRule> rules = new ArrayList<>();
    for (String h : hosts) {
      rules.add(new GslbState.IngressRule(h, List.of(BackendRef.service("app"))));
    }
    return new GslbState(
        "default",
        name,
        "uid",
        null,
        rules,
        new GslbStrategy("roundRobin", 30, null, Map.of(), null),
        null,
        Map.of(),
        List.of());
  }

  /** Hosts {@code h0.cloud.test}, … each answered by every server given with one address. */
  private static List<String> hostsAnsweredBy(int count, TestDnsServer... servers) {
    List<String> hosts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      hosts.add("h" + i + ".cloud.test");
      for (int s = 0; s < servers.length; s++) {
        servers[s].answer("localtargets-h" + i + ".cloud.test", "192.0.2." + (s + 1));
      }
    }
    return hosts;
  }

  private PeerAnswer latest(String geo, String host) {
    return (PeerAnswer) recorded.latest(TOPIC).get("PeerAnswer/" + geo + "/" + host);
  }

  private List<Object> history(String geo, String host) {
    return recorded.history(TOPIC, "PeerAnswer/" + geo + "/" + host);
  }

  @Test
  void probesEveryHostAtEveryPeerAndPublishesEachAnswerOnce() {
    eu.answer("localtargets-app.cloud.test", "192.0.2.2", "192.0.2.1", "2001:db8::1");
    topology.put(gslb("app", "app.cloud.test"));
    scheduler().replan();

    await()
        .untilAsserted(
            () -> {
              assertThat(latest("eu", "app.cloud.test")).isNotNull();
              assertThat(latest("us", "app.cloud.test")).isNotNull();
            });
    PeerAnswer e = latest("eu", "app.cloud.test");
    assertThat(e.status()).isEqualTo(ProbeStatus.OK);
    assertThat(e.ipv4()).containsExactly("192.0.2.1", "192.0.2.2");
    assertThat(e.ipv6()).containsExactly("2001:db8::1");
    assertThat(e.server()).isEqualTo(eu.address().toString());
    assertThat(latest("us", "app.cloud.test").status()).isEqualTo(ProbeStatus.NXDOMAIN);
    assertThat(eu.queries("localtargets-app.cloud.test")).isEqualTo(2);

    await().until(scheduler::idle);
    scheduler.sweep();
    await().until(() -> eu.queries("localtargets-app.cloud.test") == 4 && scheduler.idle());
    assertThat(history("eu", "app.cloud.test")).hasSize(1);
    assertThat(history("us", "app.cloud.test")).hasSize(1);
  }

  @Test
  void publishesAgainWhenThePeerAnswerChanges() {
    eu.answer("localtargets-app.cloud.test", "192.0.2.1");
    topology.put(gslb("app", "app.cloud.test"));
    scheduler().replan();
    await().until(() -> latest("eu", "app.cloud.test") != null);

    eu.mode("localtargets-app.cloud.test", TestDnsServer.Mode.NXDOMAIN);
    scheduler.sweep();

    await().until(() -> latest("eu", "app.cloud.test").status() == ProbeStatus.NXDOMAIN);
    assertThat(latest("eu", "app.cloud.test").ipv4()).isEmpty();
  }

  @Test
  void aBlackHoledPeerOpensItsCircuitAndCostsNoQueriesWhileTheStateStaysHonest() {
    CircuitBreakerConfig cb =
        CircuitBreakerConfig.custom()
            .slidingWindow(10, 10, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .failureRateThreshold(80)
            .waitDurationInOpenState(Duration.ofHours(1))
            .build();
    List<String> hosts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      hosts.add("h" + i + ".cloud.test");
      eu.answer("localtargets-h" + i + ".cloud.test", "192.0.2.1");
    }
    us.blackHole(true);
    topology.put(gslb("many", hosts.toArray(String[]::new)));
    scheduler(Duration.ofMillis(200), 50, cb).replan();

    await()
        .until(
            () -> hosts.stream().allMatch(h -> latest("us", h) != null && latest("eu", h) != null));
    assertThat(breakers.circuitBreaker("peer-us").getState()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(breakers.circuitBreaker("peer-eu").getState())
        .isEqualTo(CircuitBreaker.State.CLOSED);
    PeerAnswer dead = latest("us", "h0.cloud.test");
    assertThat(dead.status()).isEqualTo(ProbeStatus.TIMEOUT);
    assertThat(dead.lastSuccess()).isNull();
    assertThat(dead.failingSince()).isNotNull();
    assertThat(latest("eu", "h0.cloud.test").status()).isEqualTo(ProbeStatus.OK);
    await().until(scheduler::idle);
    int queriesWhenOpen = us.totalQueries();
    int euBefore = eu.totalQueries();

    scheduler.sweep();
    await().until(() -> eu.totalQueries() == euBefore + 40 && scheduler.idle());

    assertThat(us.totalQueries()).isEqualTo(queriesWhenOpen);
    assertThat(history("us", "h0.cloud.test")).hasSize(1);
  }

  @Test
  void aPeerThatFailsALivenessProbeBetweenSweepsIsSettledAtOnceWithoutASweep() {
    // The default breaker needs 100 calls to judge: only the liveness probe can open it here.
    List<String> hosts = hostsAnsweredBy(20, eu, us);
    topology.put(gslb("many", hosts.toArray(String[]::new)));
    scheduler(Duration.ofMillis(200), 50, CircuitBreakerConfig.ofDefaults()).replan();
    await()
        .until(
            () ->
                hosts.stream()
                        .allMatch(
                            h ->
                                latest("us", h) != null
                                    && latest("us", h).status() == ProbeStatus.OK
                                    && latest("eu", h) != null)
                    && scheduler.idle());
    int euBefore = eu.totalQueries();

    us.blackHole(true);
    int usBefore = us.totalQueries();
    scheduler.checkLiveness();

    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> hosts.stream().allMatch(h -> latest("us", h).status() == ProbeStatus.TIMEOUT));
    assertThat(breakers.circuitBreaker("peer-us").getState()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(us.totalQueries() - usBefore)
        .as("one host probed (A and AAAA), the rest settled without queries")
        .isEqualTo(2);
    PeerAnswer dead = latest("us", "h7.cloud.test");
    assertThat(dead.lastSuccess()).isNotNull();
    assertThat(dead.failingSince()).isNotNull();
    await().until(scheduler::idle);
    assertThat(breakers.circuitBreaker("peer-eu").getState())
        .as("the live peer passed its liveness probe")
        .isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(eu.totalQueries() - euBefore).isEqualTo(2);
    assertThat(latest("eu", "h7.cloud.test").status()).isEqualTo(ProbeStatus.OK);
  }

  @Test
  void aDeadPeersBookkeepingWaitsUntilTheLivePeersProbesAreDone() {
    CircuitBreakerConfig cb =
        CircuitBreakerConfig.custom()
            .slidingWindow(10, 10, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .failureRateThreshold(80)
            .waitDurationInOpenState(Duration.ofHours(1))
            .build();
    List<String> hosts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      hosts.add("h" + i + ".cloud.test");
      eu.answer("localtargets-h" + i + ".cloud.test", "192.0.2.1");
    }
    us.blackHole(true);
    topology.put(gslb("many", hosts.toArray(String[]::new)));
    // A timeout the live peer meets on a loaded machine too: with 200 ms its probes can time out,
    // open its circuit as well and have its hosts settled with the dead peer's (the likely cause
    // of a failure seen once in a clean-clone build; the assertion below now says so if it recurs).
    scheduler(Duration.ofSeconds(1), 50, cb).replan();
    await()
        .until(
            () ->
                breakers.circuitBreaker("peer-us").getState() == CircuitBreaker.State.OPEN
                    && scheduler.idle());
    assertThat(breakers.circuitBreaker("peer-eu").getState())
        .as("the live peer answered its probes")
        .isEqualTo(CircuitBreaker.State.CLOSED);
    for (String h : hosts) {
      eu.delay("localtargets-" + h, Duration.ofMillis(400)); // the live peer answers slowly
    }
    double settled = skipped("us");

    scheduler.sweep();

    // the dead peer's hosts are settled only once none of the live peer's probes is left
    await().until(() -> skipped("us") > settled);
    assertThat(queued("eu")).isZero();
    await().until(() -> skipped("us") == settled + hosts.size());
  }

  @Test
  void whenACircuitOpensDuringARoundItsQueueIsSettledAfterTheLivePeersProbes() {
    CircuitBreakerConfig cb =
        CircuitBreakerConfig.custom()
            .slidingWindow(5, 5, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .failureRateThreshold(80)
            .waitDurationInOpenState(Duration.ofHours(1))
            .build();
    List<String> hosts = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      hosts.add("h" + i + ".cloud.test");
      eu.answer("localtargets-h" + i + ".cloud.test", "192.0.2.1");
      eu.delay("localtargets-h" + i + ".cloud.test", Duration.ofMillis(100));
    }
    us.blackHole(true);
    topology.put(gslb("many", hosts.toArray(String[]::new)));

    // 5 probes in flight per peer: us's first ones time out (300 ms) and open its circuit with
    // hosts still queued, while eu (8 rounds of 100 ms) has hosts queued or in flight
    scheduler(Duration.ofMillis(300), 5, cb).replan();

    await().until(() -> skipped("us") > 0);
    assertThat(queued("eu")).isZero();
    await()
        .until(
            () ->
                scheduler.idle()
                    && hosts.stream()
                        .allMatch(
                            h ->
                                latest("us", h) != null
                                    && latest("us", h).status() == ProbeStatus.TIMEOUT));
    assertThat(breakers.circuitBreaker("peer-us").getState()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(skipped("us")).isGreaterThan(0).isLessThan(hosts.size());
  }

  private double skipped(String peer) {
    var c = meters.find("cairn.prober.probes.skipped").tag("peer", peer).counter();
    return c == null ? 0 : c.count();
  }

  @SuppressWarnings("unchecked")
  private int queued(String peer) {
    return (Integer) ((Map<String, Object>) scheduler.describePeers().get(peer)).get("queued");
  }

  @Test
  void aRecoveredPeerIsProbedAgainAfterTheHalfOpenProbesSucceed() {
    CircuitBreakerConfig cb =
        CircuitBreakerConfig.custom()
            .slidingWindow(4, 4, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofMillis(100))
            .permittedNumberOfCallsInHalfOpenState(2)
            .build();
    List<String> hosts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      hosts.add("h" + i + ".cloud.test");
      us.answer("localtargets-h" + i + ".cloud.test", "198.51.100.1");
    }
    us.blackHole(true);
    topology.put(gslb("many", hosts.toArray(String[]::new)));
    scheduler(Duration.ofMillis(100), 50, cb).replan();
    await().until(() -> breakers.circuitBreaker("peer-us").getState() == CircuitBreaker.State.OPEN);

    us.blackHole(false);
    await()
        .pollInterval(Duration.ofMillis(50))
        .untilAsserted(
            () -> {
              scheduler.sweep();
              assertThat(hosts)
                  .allSatisfy(h -> assertThat(latest("us", h).status()).isEqualTo(ProbeStatus.OK));
            });
    assertThat(breakers.circuitBreaker("peer-us").getState())
        .isEqualTo(CircuitBreaker.State.CLOSED);
    PeerAnswer recovered = latest("us", "h0.cloud.test");
    assertThat(recovered.failingSince()).isNull();
    assertThat(recovered.lastSuccess()).isNotNull();
  }

  @Test
  void aSpreadSweepReleasesItsHostsInSlicesAndProbesEachOnce() {
    List<String> hosts = hostsAnsweredBy(100, eu, us);
    topology.put(gslb("many", hosts.toArray(String[]::new)));
    // one hour's interval, a second's spread: 100 slices of one host, 10 ms apart
    scheduler(Duration.ofMillis(500), 50, CircuitBreakerConfig.ofDefaults(), Duration.ofSeconds(1))
        .replan(); // new hosts are probed at once, all of them
    await().until(() -> hosts.stream().allMatch(h -> eu.queries("localtargets-" + h) == 2));
    await().until(scheduler::idle);
    assertThat(scheduler.slices(hosts.size())).isEqualTo(100);

    scheduler.sweep();
    AtomicInteger mostQueued = new AtomicInteger();
    await()
        .atMost(Duration.ofSeconds(30))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(1))
        .until(
            () -> {
              @SuppressWarnings("unchecked")
              Map<String, Object> peer = (Map<String, Object>) scheduler.describePeers().get("eu");
              mostQueued.accumulateAndGet((Integer) peer.get("queued"), Math::max);
              return hosts.stream().allMatch(h -> eu.queries("localtargets-" + h) >= 4);
            });
    await().until(scheduler::idle);
    // all at once would queue the hundred (fifty in flight, fifty waiting) the moment the sweep
    // starts; released one at a time, only a slice or a few are waiting (more only if the ticker
    // thread stalls for a quarter of a second and then releases the slices it owes back to back)
    assertThat(mostQueued.get()).isBetween(1, 25);
    assertThat(hosts)
        .allSatisfy(
            h -> {
              assertThat(eu.queries("localtargets-" + h)).isEqualTo(4);
              assertThat(us.queries("localtargets-" + h)).isEqualTo(4);
            });
  }

  @Test
  void aPeerWhoseCircuitIsOpenHasAllItsHostsSettledAtOnceNotSliceBySlice() {
    List<String> hosts = hostsAnsweredBy(1000, eu, us);
    topology.put(gslb("many", hosts.toArray(String[]::new)));
    // a thousand slices of one host, 10 ms apart: the sweep takes ten seconds
    scheduler(
            Duration.ofMillis(500), 50, CircuitBreakerConfig.ofDefaults(), Duration.ofSeconds(100))
        .replan();
    await().until(() -> hosts.stream().allMatch(h -> latest("us", h) != null));
    await().until(scheduler::idle);
    assertThat(latest("us", hosts.get(999)).status()).isEqualTo(ProbeStatus.OK);
    breakers.circuitBreaker("peer-us").transitionToOpenState();
    int euBefore = eu.totalQueries();

    scheduler.sweep();
    await().until(() -> hosts.stream().allMatch(h -> latest("us", h).status() != ProbeStatus.OK));

    // every host of the open peer settled while the live peer's sweep has most of its way to go
    assertThat(eu.totalQueries() - euBefore).isLessThan(2 * 1000);
    assertThat(latest("us", hosts.get(999)).failingSince()).isNotNull();
  }

  @Test
  void aSweepSpreadsItsHostsOverAtMostTheIntervalInNearEqualParts() {
    // more than the interval (one hour) is capped at it; one host per slice at most
    assertThat(slices(Duration.ofHours(2), 10)).isEqualTo(10);
    assertThat(slices(Duration.ofHours(2), 1_000_000)).isEqualTo(360_000); // 3,600 s / 10 ms
    assertThat(slices(Duration.ZERO, 1_000)).isEqualTo(1);
    assertThat(slices(Duration.ofMillis(25), 1_000)).isEqualTo(3);
    List<String> hosts = new ArrayList<>();
    for (int i = 0; i < 103; i++) {
      hosts.add("h" + i);
    }
    List<String> joined = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      List<String> part = ProbeScheduler.slice(hosts, i, 10);
      assertThat(part.size()).isBetween(10, 11);
      joined.addAll(part);
    }
    assertThat(joined).isEqualTo(hosts);
  }

  private int slices(Duration spread, int hosts) {
    try (ProbeScheduler s =
        scheduler(Duration.ofMillis(500), 50, CircuitBreakerConfig.ofDefaults(), spread)) {
      return s.slices(hosts);
    } finally {
      scheduler = null;
    }
  }

  @Test
  void aSlowPeerNeverHoldsUpAnother() {
    List<String> hosts = hostsAnsweredBy(60, eu);
    us.blackHole(true);
    topology.put(gslb("many", hosts.toArray(String[]::new)));
    scheduler(Duration.ofSeconds(30), 5, CircuitBreakerConfig.ofDefaults()).replan();

    // every answer of the fast peer arrives while the slow peer still waits on its first five
    await().until(() -> hosts.stream().allMatch(h -> latest("eu", h) != null));
    @SuppressWarnings("unchecked")
    Map<String, Object> slow = (Map<String, Object>) scheduler.describePeers().get("us");
    assertThat(slow.get("inFlight")).isEqualTo(5);
    assertThat(slow.get("queued")).isEqualTo(60);
    assertThat(hosts).allSatisfy(h -> assertThat(latest("us", h)).isNull());
  }

  @Test
  void withdrawsTheRecordsOfAHostThatIsGone() {
    eu.answer("localtargets-app.cloud.test", "192.0.2.1");
    topology.put(gslb("app", "app.cloud.test")).put(gslb("other", "other.cloud.test"));
    scheduler().replan();
    await()
        .until(
            () -> latest("us", "app.cloud.test") != null && latest("eu", "app.cloud.test") != null);

    topology.removeGslb("Gslb/default/app");
    scheduler.replan();

    Map<String, Object> latest = recorded.latest(TOPIC);
    assertThat(latest).containsEntry("PeerAnswer/eu/app.cloud.test", null);
    assertThat(latest).containsEntry("PeerAnswer/us/app.cloud.test", null);
    assertThat(latest.get("PeerAnswer/eu/other.cloud.test")).isNotNull();
  }

  @Test
  void takesOverWhatWasPublishedBeforeARestartAndWithdrawsTheRest() {
    eu.answer("localtargets-app.cloud.test", "192.0.2.1");
    Instant before = Instant.parse("2026-01-01T00:00:00Z");
    PeerAnswer same =
        new PeerAnswer(
            "app.cloud.test",
            "eu",
            eu.address().toString(),
            ProbeStatus.OK,
            List.of("192.0.2.1"),
            List.of(),
            30L,
            before,
            null,
            before);
    PeerAnswer orphan =
        new PeerAnswer(
            "app.cloud.test",
            "gone",
            "x",
            ProbeStatus.OK,
            List.of(),
            List.of(),
            null,
            before,
            null,
            before);
    topology.published(Map.of(same.key(), same, orphan.key(), orphan), Map.of());
    topology.put(gslb("app", "app.cloud.test"));
    scheduler().replan();
    await().until(() -> latest("us", "app.cloud.test") != null && scheduler.idle());

    scheduler.sweep();

    assertThat(recorded.latest(TOPIC)).containsEntry(orphan.key(), null);
    await().until(() -> eu.queries("localtargets-app.cloud.test") == 4 && scheduler.idle());
    assertThat(history("eu", "app.cloud.test")).isEmpty();
  }

  @Test
  void whilePeersAreUnknownKeepsRecordsOfUndiscoveredPeersButWithdrawsThoseOfGoneHosts()
      throws Exception {
    try (TestDnsServer edge = TestDnsServer.start("127.0.0.1", "example.test")) {
      edge.blackHole(true);
      PeerDirectory undiscovered =
          new PeerDirectory(
              List.of(new Peer("eu", List.of(eu.address()))),
              new dev.cairn.healthprober.discovery.PeerDiscovery(
                  new DnsLookup(client, 64),
                  List.of(
                      new dev.cairn.commonmodel.delegation.DelegationZone("test", "cloud.test")),
                  "gslb-ns-",
                  List.of("far"),
                  List.of(edge.address()),
                  53,
                  "ap",
                  Duration.ofMillis(100),
                  1),
              "ap",
              Clock.systemUTC());
      undiscovered.refresh();
      assertThat(undiscovered.known()).isFalse();
      PeerAnswer far =
          new PeerAnswer(
              "app.cloud.test",
              "far",
              "x",
              ProbeStatus.OK,
              List.of(),
              List.of(),
              null,
              null,
              null,
              Instant.EPOCH);
      PeerAnswer oldHost =
          new PeerAnswer(
              "old.cloud.test",
              "eu",
              "x",
              ProbeStatus.OK,
              List.of(),
              List.of(),
              null,
              null,
              null,
              Instant.EPOCH);
      topology.published(Map.of(far.key(), far, oldHost.key(), oldHost), Map.of());
      topology.put(gslb("app", "app.cloud.test"));
      scheduler =
          new ProbeScheduler(
              new ProbeScheduler.Settings(
                  Duration.ofHours(1),
                  Duration.ofMillis(300),
                  1,
                  Duration.ofHours(1),
                  List.of(),
                  Duration.ofSeconds(300),
                  CircuitBreakerConfig.ofDefaults(),
                  BulkheadConfig.custom()
                      .maxConcurrentCalls(10)
                      .maxWaitDuration(Duration.ZERO)
                      .build(),
                  Duration.ZERO,
                  Duration.ZERO),
              topology,
              undiscovered,
              new DnsLookup(client, 64),
              outbox,
              TOPIC,
              breakers,
              BulkheadRegistry.ofDefaults(),
              new ProbeMetrics(new SimpleMeterRegistry()),
              Clock.systemUTC());
      scheduler.replan();
      scheduler.sweep();

      Map<String, Object> latest = recorded.latest(TOPIC);
      assertThat(latest).containsEntry(oldHost.key(), null);
      assertThat(latest).doesNotContainKey(far.key());
    }
  }

  @Test
  void waitsUntilTheTopicsAreReadBeforeProbingOrWithdrawing() {
    PeerAnswer orphan =
        new PeerAnswer(
            "gone.cloud.test",
            "eu",
            "x",
            ProbeStatus.OK,
            List.of(),
            List.of(),
            null,
            null,
            null,
            Instant.EPOCH);
    topology.published(Map.of(orphan.key(), orphan), Map.of()).caughtUp(false);
    topology.put(gslb("app", "app.cloud.test"));
    scheduler().replan();
    scheduler.sweep();

    assertThat(recorded.all()).isEmpty();
    assertThat(eu.totalQueries()).isZero();

    topology.caughtUp(true);
    scheduler.replan();
    scheduler.sweep();
    await().until(() -> latest("eu", "app.cloud.test") != null);
    assertThat(recorded.latest(TOPIC)).containsEntry(orphan.key(), null);
  }

  @Test
  void followsAResourceRefToItsRoute() {
    eu.answer("localtargets-web.cloud.test", "192.0.2.1");
    topology.put(
        new GslbState(
            "default",
            "web",
            "uid",
            new GslbResourceRef(
                "gateway.networking.k8s.io/v1", "HTTPRoute", null, "web", Map.of(), List.of()),
            List.of(),
            new GslbStrategy("roundRobin", 30, null, Map.of(), null),
            null,
            Map.of(),
            List.of()));
    scheduler().replan();
    assertThat(scheduler.plan().hosts()).isEmpty();
    assertThat(scheduler.plan().findings()).hasSize(1);

    topology.put(
        new RouteState(
            "HTTPRoute",
            "gateway.networking.k8s.io/v1",
            "default",
            "web",
            "uid",
            List.of("web.cloud.test"),
            List.of(BackendRef.service("web")),
            Map.of(),
            List.of()));
    scheduler.replan();

    await().until(() -> latest("eu", "web.cloud.test") != null);
    assertThat(latest("eu", "web.cloud.test").status()).isEqualTo(ProbeStatus.OK);
  }
}
