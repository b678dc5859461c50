package dev.cairn.healthprober.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.healthprober.dns.DnsClient;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.dns.TestDnsServer;
import dev.cairn.healthprober.peer.Peer;
import dev.cairn.healthprober.probe.RecordType;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
      CircuitBreaker breaker =
          CircuitBreaker.of(
              "peer-us",
              CircuitBreakerConfig.custom()
                  .slidingWindow(1, 1, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                  .failureRateThreshold(100)
                  .waitDurationInOpenState(Duration.ofHours(1))
                  .build());
      Bulkhead bulkhead =
          Bulkhead.of(
              "peer-us",
              BulkheadConfig.custom().maxConcurrentCalls(1).maxWaitDuration(Duration.ZERO).build());
      List<String> hosts = List.of("h0.cloud.test", "h1.cloud.test", "h2.cloud.test");
      Map<String, HostQueries> queries = new ConcurrentHashMap<>();
      for (String h : hosts) {
        String name = "localtargets-" + h;
        queries.put(
            h,
            new HostQueries(
                h,
                client.encode(name, RecordType.A, false),
                client.encode(name, RecordType.AAAA, false),
                "cloud.test"));
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
              (geoTag, host, outcome) ->
                  settledBy.put(host, Thread.currentThread().getName() + " " + outcome.status()),
              settler);

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
}
