package dev.cairn.healthprober.schedule;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.healthprober.discovery.PeerDirectory;
import dev.cairn.healthprober.dns.DnsClient;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.dns.EncodedQuery;
import dev.cairn.healthprober.kafka.Outbox;
import dev.cairn.healthprober.kafka.TopologyView;
import dev.cairn.healthprober.peer.DelegationZone;
import dev.cairn.healthprober.peer.Peer;
import dev.cairn.healthprober.peer.ServerAddress;
import dev.cairn.healthprober.probe.RecordType;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.core.IntervalFunction;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Benchmarks of the prober against a DNS server on loopback (see run-prober-bench.sh). Not a test.
 *
 * <pre>
 * client SERVER QUERYFILE SECONDS WINDOW
 *     the prober's DNS path (DnsClient + DnsLookup + classification) with WINDOW queries in
 *     flight over the 10k names; 2 s warm-up, then SECONDS measured: qps and latency percentiles
 * sweep SERVER1 SERVER2 QUERYFILE SWEEPS [INFLIGHT]
 *     ProbeScheduler sweeps of every host at two healthy peers (A and AAAA each, default
 *     settings: INFLIGHT=100 host probes in flight per peer, 1 s timeout, 2 attempts)
 * blackhole SERVER DEADSERVER QUERYFILE SWEEPS [INFLIGHT]
 *     the same, one peer healthy and one black-holed: how long the healthy peer's sweep takes,
 *     compared with the healthy peer alone, measured in the same run
 * </pre>
 */
public final class ProberBench {

  private ProberBench() {}

  public static void main(String[] a) throws Exception {
    switch (a[0]) {
      case "client" -> client(a[1], Path.of(a[2]), Double.parseDouble(a[3]), Integer.parseInt(a[4]));
      case "sweep" -> sweep(a[1], a[2], Path.of(a[3]), Integer.parseInt(a[4]), inFlight(a));
      case "blackhole" -> blackhole(a[1], a[2], Path.of(a[3]), Integer.parseInt(a[4]), inFlight(a));
      default -> throw new IllegalArgumentException(a[0]);
    }
  }

  /** The optional sixth argument: host probes in flight per peer (default 100, the default). */
  static int inFlight(String[] a) {
    return a.length > 5 ? Integer.parseInt(a[5]) : 100;
  }

  static List<String> names(Path file) throws Exception {
    return Files.readAllLines(file).stream()
        .filter(l -> !l.isBlank())
        .map(l -> l.strip().split("\\s+")[0])
        .map(n -> n.endsWith(".") ? n.substring(0, n.length() - 1) : n)
        .toList();
  }

  static ServerAddress loopback(String text) {
    ServerAddress s = ServerAddress.require("server", text, 53);
    if (!s.ip().text().startsWith("127.") && !s.ip().text().equals("::1")) {
      throw new IllegalArgumentException("loopback only: " + text);
    }
    return s;
  }

  // ---------------------------------------------------------------- client throughput / latency

  static void client(String server, Path file, double seconds, int window) throws Exception {
    ServerAddress s = loopback(server);
    List<String> names = names(file);
    try (DnsClient client = new DnsClient(new DnsClient.Settings(4, 1232, 2))) {
      DnsLookup lookup = new DnsLookup(client, 64);
      EncodedQuery[] queries = new EncodedQuery[names.size()];
      for (int i = 0; i < queries.length; i++) {
        queries[i] = client.encode(names.get(i), RecordType.A, false);
      }
      String zone = names.get(0).substring(names.get(0).indexOf('.') + 1);
      runClient(lookup, s, queries, zone, 2.0, window, new long[1]); // warm-up
      long[] latencies = new long[5_000_000];
      long t0 = System.nanoTime();
      Result r = runClient(lookup, s, queries, zone, seconds, window, latencies);
      double elapsed = (System.nanoTime() - t0) / 1e9;
      System.out.printf(
          "mode=client window=%d seconds=%.2f sent=%d ok=%d other=%d unreachable=%d qps=%.0f %s java=%s%n",
          window,
          elapsed,
          r.sent,
          r.ok,
          r.other,
          r.unreachable,
          (r.ok + r.other + r.unreachable) / elapsed,
          percentiles(latencies, r.recorded),
          System.getProperty("java.version"));
    }
  }

  record Result(long sent, long ok, long other, long unreachable, int recorded) {}

  static Result runClient(
      DnsLookup lookup,
      ServerAddress server,
      EncodedQuery[] queries,
      String zone,
      double seconds,
      int window,
      long[] latencies)
      throws Exception {
    Semaphore inFlight = new Semaphore(window);
    AtomicLong ok = new AtomicLong();
    AtomicLong other = new AtomicLong();
    AtomicLong unreachable = new AtomicLong();
    AtomicInteger recorded = new AtomicInteger();
    List<ServerAddress> servers = List.of(server);
    long end = System.nanoTime() + (long) (seconds * 1e9);
    long sent = 0;
    DnsLookup.LatencyListener latency =
        (srv, nanos) -> {
          int i = recorded.getAndIncrement();
          if (i < latencies.length) {
            latencies[i] = nanos;
          }
        };
    while (System.nanoTime() < end) {
      if (!inFlight.tryAcquire(10, TimeUnit.MILLISECONDS)) {
        continue;
      }
      EncodedQuery q = queries[(int) (sent++ % queries.length)];
      lookup
          .query(q, servers, 0, 1, Duration.ofSeconds(1), zone, latency)
          .whenComplete(
              (answer, e) -> {
                ProbeStatus st = answer.result().status();
                (st == ProbeStatus.OK ? ok : st.reachable() ? other : unreachable).incrementAndGet();
                inFlight.release();
              });
    }
    inFlight.tryAcquire(window, 5, TimeUnit.SECONDS);
    return new Result(sent, ok.get(), other.get(), unreachable.get(), Math.min(recorded.get(), latencies.length));
  }

  static String percentiles(long[] v, int n) {
    if (n == 0) {
      return "p50_us=NaN p99_us=NaN max_us=NaN";
    }
    long[] s = Arrays.copyOf(v, n);
    Arrays.sort(s);
    return String.format(
        "p50_us=%.1f p99_us=%.1f p999_us=%.1f max_us=%.1f",
        s[n / 2] / 1e3,
        s[Math.min(n - 1, (int) (n * 0.99))] / 1e3,
        s[Math.min(n - 1, (int) (n * 0.999))] / 1e3,
        s[n - 1] / 1e3);
  }

  // ---------------------------------------------------------------- sweeps

  /** The hosts of the query file as one Gslb each, always caught up. */
  static final class FixedTopology implements TopologyView {
    private final List<GslbState> gslbs = new ArrayList<>();
    private boolean dirty = true;

    FixedTopology(List<String> names) {
      for (int i = 0; i < names.size(); i++) {
        String host = names.get(i).substring("localtargets-".length());
        gslbs.add(
            new GslbState(
                "bench",
                "g" + i,
                "uid" + i,
                null,
                List.of(new GslbState.IngressRule(host, List.of(BackendRef.service("app")))),
                new GslbStrategy("roundRobin", 30, null, Map.of(), null),
                null,
                Map.of(),
                List.of()));
      }
    }

    @Override
    public boolean caughtUp() {
      return true;
    }

    @Override
    public synchronized boolean takeHostsDirty() {
      boolean d = dirty;
      dirty = false;
      return d;
    }

    @Override
    public boolean takeTargetsDirty() {
      return false;
    }

    @Override
    public Collection<GslbState> gslbs() {
      return gslbs;
    }

    @Override
    public Collection<RouteState> routes() {
      return List.of();
    }

    @Override
    public Collection<NodeState> nodes() {
      return List.of();
    }

    @Override
    public OwnState takeOwnState() {
      return new OwnState(Map.of(), Map.of());
    }
  }

  static ProbeScheduler scheduler(
      List<Peer> peers, List<String> names, DnsClient client, int inFlight) {
    String zone = names.get(0).substring(names.get(0).indexOf('.') + 1);
    String parent = zone.substring(zone.indexOf('.') + 1);
    CircuitBreakerConfig cb =
        CircuitBreakerConfig.custom()
            .slidingWindow(20, 10, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .failureRateThreshold(80)
            .permittedNumberOfCallsInHalfOpenState(3)
            .waitIntervalFunctionInOpenState(
                IntervalFunction.ofExponentialRandomBackoff(
                    Duration.ofSeconds(5), 2.0, 0.5, Duration.ofMinutes(2)))
            .build();
    return new ProbeScheduler(
        new ProbeScheduler.Settings(
            Duration.ofHours(1),
            Duration.ofSeconds(1),
            2,
            Duration.ofHours(1),
            List.of(new DelegationZone(parent, zone)),
            Duration.ofSeconds(300),
            cb,
            BulkheadConfig.custom().maxConcurrentCalls(inFlight).maxWaitDuration(Duration.ZERO).build()),
        new FixedTopology(names),
        new PeerDirectory(peers, null, "bench", Clock.systemUTC()),
        new DnsLookup(client, 64),
        new Outbox(),
        "cairn.health.peer-answers.v1",
        CircuitBreakerRegistry.ofDefaults(),
        BulkheadRegistry.ofDefaults(),
        new ProbeMetrics(new SimpleMeterRegistry()),
        Clock.systemUTC());
  }

  @SuppressWarnings("unchecked")
  static int queued(ProbeScheduler s, String peer) {
    Map<String, Object> d = (Map<String, Object>) s.describePeers().get(peer);
    return (Integer) d.get("queued");
  }

  /** Sweeps, and the time until each peer's queue is empty (ms), per sweep. */
  static List<long[]> sweeps(ProbeScheduler s, List<String> peers, int sweeps) throws Exception {
    List<long[]> out = new ArrayList<>();
    for (int r = 0; r < sweeps; r++) {
      long[] done = new long[peers.size()];
      long t0 = System.nanoTime();
      if (r == 0) {
        s.replan();
      } else {
        s.sweep();
      }
      int remaining = peers.size();
      while (remaining > 0) {
        for (int i = 0; i < peers.size(); i++) {
          if (done[i] == 0 && queued(s, peers.get(i)) == 0) {
            done[i] = Math.max(1, (System.nanoTime() - t0) / 1_000);
            remaining--;
          }
        }
        Thread.sleep(1); // poll; a spinning thread would steal the core the prober runs on
      }
      out.add(done);
    }
    return out;
  }

  static void sweep(String server1, String server2, Path file, int count, int inFlight)
      throws Exception {
    List<String> names = names(file);
    try (DnsClient client = new DnsClient(new DnsClient.Settings(4, 1232, 2))) {
      ProbeScheduler s =
          scheduler(
              List.of(new Peer("p1", List.of(loopback(server1))), new Peer("p2", List.of(loopback(server2)))),
              names,
              client,
              inFlight);
      List<long[]> r = sweeps(s, List.of("p1", "p2"), count);
      s.close();
      for (int i = 0; i < r.size(); i++) {
        System.out.printf(
            "mode=sweep hosts=%d peers=2 inflight=%d sweep=%d%s all_done_ms=%.1f p1_ms=%.1f p2_ms=%.1f queries=%d timeouts=%d%n",
            names.size(),
            inFlight,
            i,
            i == 0 ? "(cold,first-publish)" : "",
            Math.max(r.get(i)[0], r.get(i)[1]) / 1e3,
            r.get(i)[0] / 1e3,
            r.get(i)[1] / 1e3,
            client.sent(),
            client.timeouts());
      }
    }
  }

  static void blackhole(String server, String dead, Path file, int count, int inFlight)
      throws Exception {
    List<String> names = names(file);
    try (DnsClient client = new DnsClient(new DnsClient.Settings(4, 1232, 2))) {
      ProbeScheduler alone =
          scheduler(List.of(new Peer("ok", List.of(loopback(server)))), names, client, inFlight);
      List<long[]> base = sweeps(alone, List.of("ok"), count);
      alone.close();
      ProbeScheduler both =
          scheduler(
              List.of(new Peer("ok", List.of(loopback(server))), new Peer("dead", List.of(loopback(dead)))),
              names,
              client,
              inFlight);
      List<long[]> with = sweeps(both, List.of("ok", "dead"), count);
      both.close();
      for (int i = 0; i < count; i++) {
        System.out.printf(
            "mode=blackhole sweep=%d%s healthy_alone_ms=%.1f healthy_with_dead_ms=%.1f ratio=%.2f dead_done_ms=%.1f%n",
            i,
            i == 0 ? "(cold)" : "",
            base.get(i)[0] / 1e3,
            with.get(i)[0] / 1e3,
            (double) with.get(i)[0] / base.get(i)[0],
            with.get(i)[1] / 1e3);
      }
    }
  }
}
