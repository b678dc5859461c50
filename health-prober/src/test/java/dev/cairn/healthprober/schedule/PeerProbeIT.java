package dev.cairn.healthprober.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.MutableClock;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.healthprober.dns.DnsClient;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.dns.TestDnsServer;
import dev.cairn.healthprober.kafka.Outbox;
import dev.cairn.healthprober.peer.Peer;
import dev.cairn.healthprober.probe.ProbeOutcome;
import dev.cairn.healthprober.probe.RecordType;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class PeerProbeIT {

  @Test
  void settlesTheQueueOfAnOpenCircuitOffTheDnsReaderThread() throws Exception {
    ExecutorService settler = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-settler"));
    try (TestDnsServer dead = TestDnsServer.start("127.0.0.1", "cloud.test");
        DnsClient client = new DnsClient(new DnsClient.Settings(1, 1232, 1))) {
      dead.blackHole(true);
      // the first failed probe opens the circuit
      CircuitBreaker breaker = breaker(1);
      Bulkhead bulkhead = oneAtATime();
      List<String> hosts = List.of("h0.cloud.test", "h1.cloud.test", "h2.cloud.test");
      Map<String, HostQueries> queries = new ConcurrentHashMap<>();
      for (String h : hosts) {
        queries.put(h, queries(client, h));
      }
      Map<String, String> settledBy = new ConcurrentHashMap<>();
      PeerProbe probe =
          new PeerProbe(
              new Peer("us", List.of(dead.address())),
              breaker,
              bulkhead,
              new DnsLookup(client, 64),
              queries::get,
              new PeerProbe.Settings(Duration.ofMillis(100), 1),
              Clock.systemUTC(),
              new ProbeMetrics(new SimpleMeterRegistry()),
              (geoTag, host, outcome) -> {
                settledBy.put(host, Thread.currentThread().getName() + " " + outcome.status());
                return null;
              },
              settler,
              () -> 0);

      probe.enqueue(hosts);

      await().until(() -> settledBy.size() == hosts.size() && probe.queued() == 0);
      assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
      // h0 was queried and timed out; h1 and h2 were settled without a query, by the settler
      assertThat(settledBy)
          .containsEntry("h0.cloud.test", "cairn-dns-reader " + ProbeStatus.TIMEOUT)
          .containsEntry("h1.cloud.test", "test-settler " + ProbeStatus.TIMEOUT)
          .containsEntry("h2.cloud.test", "test-settler " + ProbeStatus.TIMEOUT);
      assertThat(dead.totalQueries()).isEqualTo(2);
    } finally {
      settler.shutdownNow();
    }
  }

  @Test
  void whileTheCircuitStaysOpenARoundSettlesOnlyTheHostsWhoseAnswerTurnsStale() throws Exception {
    ExecutorService settler = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-settler"));
    MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
    try (TestDnsServer peer = TestDnsServer.start("127.0.0.1", "cloud.test");
        DnsClient client = new DnsClient(new DnsClient.Settings(1, 1232, 1))) {
      CircuitBreaker breaker = breaker(1);
      Bulkhead bulkhead = oneAtATime();
      List<String> hosts = List.of("h0.cloud.test", "h1.cloud.test", "h2.cloud.test");
      Map<String, HostQueries> queries = new ConcurrentHashMap<>();
      for (String h : hosts) {
        peer.answer("localtargets-" + h, "192.0.2.1");
        queries.put(h, queries(client, h));
      }
      NavigableSet<Duration> thresholds = new TreeSet<>(List.of(Duration.ofSeconds(60)));
      AnswerRecorder recorder =
          new AnswerRecorder(new Outbox(), "t", clock, h -> thresholds, (g, h) -> true);
      Map<String, Integer> evaluations = new ConcurrentHashMap<>();
      MeterRegistry meters = new SimpleMeterRegistry();
      PeerProbe probe =
          new PeerProbe(
              new Peer("us", List.of(peer.address())),
              breaker,
              bulkhead,
              new DnsLookup(client, 64),
              queries::get,
              new PeerProbe.Settings(Duration.ofMillis(100), 1),
              clock,
              new ProbeMetrics(meters),
              (geoTag, host, outcome) -> {
                evaluations.merge(host, 1, Integer::sum);
                return recorder.onOutcome(geoTag, host, outcome);
              },
              settler,
              () -> 7);
      probe.round(hosts);
      await().until(() -> evaluations.size() == 3 && probe.queued() == 0);
      assertThat(hosts)
          .allSatisfy(h -> assertThat(recorder.state("us", h).status()).isEqualTo(ProbeStatus.OK));

      // black-holed: h0 times out and opens the circuit, h1 and h2 are settled without queries
      peer.blackHole(true);
      clock.advance(Duration.ofSeconds(5));
      probe.round(hosts);
      await().until(() -> breaker.getState() == CircuitBreaker.State.OPEN && probe.queued() == 0);
      await().until(() -> evaluations.values().stream().mapToInt(i -> i).sum() == 6);
      int queriesWhenOpen = peer.totalQueries();
      assertThat(hosts)
          .allSatisfy(
              h -> assertThat(recorder.state("us", h).status()).isEqualTo(ProbeStatus.TIMEOUT));

      // the first open round settles h0, whose probe ended before anything was settled in the run
      probe.round(hosts);
      Map<String, Integer> afterFirst = Map.copyOf(evaluations);
      assertThat(afterFirst).containsEntry("h0.cloud.test", 3);
      double skipped = skipped(meters);

      // nothing can have changed: no host is evaluated, all are counted as skipped
      clock.advance(Duration.ofSeconds(50));
      probe.round(hosts);
      assertThat(evaluations).isEqualTo(afterFirst);
      assertThat(skipped(meters)).isEqualTo(skipped + 3);

      // the last answer (at 12:00:00) turns 60 s old: each host is evaluated once and republished
      clock.advance(Duration.ofSeconds(6));
      Instant stale = clock.instant();
      probe.round(hosts);
      probe.round(hosts);
      assertThat(hosts)
          .allSatisfy(
              h -> {
                assertThat(evaluations.get(h)).isEqualTo(afterFirst.get(h) + 1);
                PeerAnswer published = recorder.state("us", h).published();
                assertThat(published.status()).isEqualTo(ProbeStatus.TIMEOUT);
                assertThat(published.observedAt()).isEqualTo(stale);
                assertThat(published.lastSuccess())
                    .isEqualTo(Instant.parse("2026-11-29T12:00:00Z"));
              });
      assertThat(peer.totalQueries()).isEqualTo(queriesWhenOpen);
    } finally {
      settler.shutdownNow();
    }
  }

  @Test
  void aProbeInFlightWhenTheCircuitOpensEndsWithTheAttemptItIsOn() throws Exception {
    ExecutorService settler = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-settler"));
    try (TestDnsServer dead = TestDnsServer.start("127.0.0.1", "cloud.test");
        DnsClient client = new DnsClient(new DnsClient.Settings(1, 1232, 1))) {
      dead.blackHole(true);
      // a window no single probe can fill: the circuit opens only when the test opens it
      CircuitBreaker breaker = breaker(100);
      Bulkhead bulkhead = oneAtATime();
      String host = "h0.cloud.test";
      HostQueries queries = queries(client, host);
      Map<String, ProbeStatus> outcomes = new ConcurrentHashMap<>();
      PeerProbe probe =
          new PeerProbe(
              new Peer("us", List.of(dead.address())),
              breaker,
              bulkhead,
              new DnsLookup(client, 64),
              h -> h.equals(host) ? queries : null,
              // three attempts of 2 s each: 6 s to run through them all
              new PeerProbe.Settings(Duration.ofSeconds(2), 3),
              Clock.systemUTC(),
              new ProbeMetrics(new SimpleMeterRegistry()),
              (geoTag, h, outcome) -> {
                outcomes.put(h, outcome.status());
                return null;
              },
              settler,
              () -> 0);

      probe.enqueue(List.of(host));
      // the first attempt of the A and the AAAA question is out: the circuit opens now
      await().pollInterval(Duration.ofMillis(5)).until(() -> dead.totalQueries() == 2);
      breaker.transitionToOpenState();

      await().until(() -> outcomes.containsKey(host) && probe.queued() == 0);
      assertThat(outcomes).containsEntry(host, ProbeStatus.TIMEOUT);
      // no second attempt: the outcome is the first attempt's timeout (with retries, the second
      // and third attempts would have gone out before it)
      assertThat(dead.totalQueries()).isEqualTo(2);
    } finally {
      settler.shutdownNow();
    }
  }

  /**
   * Each change of the circuit is reported when the call that made it returns, on that call's
   * thread: no sweep runs here, and the half-open state, which the next trial probes end within
   * milliseconds, is reported too.
   */
  @Test
  void reportsEachCircuitChangeWhenItHappens() throws Exception {
    ExecutorService settler = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-settler"));
    try (TestDnsServer peer = TestDnsServer.start("127.0.0.1", "cloud.test");
        DnsClient client = new DnsClient(new DnsClient.Settings(1, 1232, 1))) {
      String host = "h0.cloud.test";
      peer.answer("localtargets-" + host, "192.0.2.1");
      peer.blackHole(true);
      MutableClock breakerClock = new MutableClock(Instant.parse("2026-12-02T12:00:00Z"));
      CircuitBreaker breaker =
          CircuitBreaker.of(
              "peer-us",
              CircuitBreakerConfig.custom()
                  .slidingWindow(1, 1, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                  .failureRateThreshold(100)
                  .permittedNumberOfCallsInHalfOpenState(1)
                  .waitDurationInOpenState(Duration.ofSeconds(10))
                  .clock(breakerClock)
                  .build());
      HostQueries queries = queries(client, host);
      List<String> changes = new java.util.concurrent.CopyOnWriteArrayList<>();
      PeerProbe probe =
          new PeerProbe(
              new Peer("us", List.of(peer.address())),
              breaker,
              oneAtATime(),
              new DnsLookup(client, 64),
              h -> h.equals(host) ? queries : null,
              new PeerProbe.Settings(Duration.ofMillis(100), 1),
              Clock.systemUTC(),
              new ProbeMetrics(new SimpleMeterRegistry()),
              new PeerProbe.Listener() {
                @Override
                public Instant onOutcome(String geoTag, String h, ProbeOutcome outcome) {
                  return null;
                }

                @Override
                public void onCircuit(
                    String geoTag,
                    CircuitBreaker.State from,
                    CircuitBreaker.State to,
                    float failureRate) {
                  changes.add(
                      geoTag
                          + " "
                          + from
                          + "->"
                          + to
                          + " "
                          + failureRate
                          + " on "
                          + Thread.currentThread().getName());
                }
              },
              settler,
              () -> 0);

      probe.enqueue(List.of(host)); // times out: the one-call window opens the circuit
      await().until(() -> breaker.getState() == CircuitBreaker.State.OPEN);
      await().until(() -> changes.size() == 1);
      assertThat(changes).containsExactly("us CLOSED->OPEN 100.0 on cairn-dns-reader");

      peer.blackHole(false);
      probe.round(List.of(host)); // within the open wait: settled, no query, no change
      assertThat(changes).hasSize(1);
      breakerClock.advance(Duration.ofSeconds(11)); // past the wait: the round sends a trial probe
      probe.round(List.of(host));
      await().until(() -> breaker.getState() == CircuitBreaker.State.CLOSED);
      await().until(() -> changes.size() == 3);
      assertThat(changes.get(1)).startsWith("us OPEN->HALF_OPEN -1.0 on ");
      assertThat(changes.get(2)).isEqualTo("us HALF_OPEN->CLOSED -1.0 on cairn-dns-reader");
    } finally {
      settler.shutdownNow();
    }
  }

  /** A peer's circuit breaker that opens when a window of {@code calls} calls all failed. */
  private static CircuitBreaker breaker(int calls) {
    return CircuitBreaker.of(
        "peer-us",
        CircuitBreakerConfig.custom()
            .slidingWindow(calls, calls, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .failureRateThreshold(100)
            .waitDurationInOpenState(Duration.ofHours(1))
            .build());
  }

  /** A bulkhead of one probe at a time. */
  private static Bulkhead oneAtATime() {
    return Bulkhead.of(
        "peer-us",
        BulkheadConfig.custom().maxConcurrentCalls(1).maxWaitDuration(Duration.ZERO).build());
  }

  /** The A and AAAA questions for {@code localtargets-<host>} in cloud.test. */
  private static HostQueries queries(DnsClient client, String host) {
    String name = "localtargets-" + host;
    return new HostQueries(
        host,
        client.encode(name, RecordType.A, false),
        client.encode(name, RecordType.AAAA, false),
        "cloud.test");
  }

  private static double skipped(MeterRegistry meters) {
    var c = meters.find("cairn.prober.probes.skipped").counter();
    return c == null ? 0 : c.count();
  }
}
