package dev.cairn.healthprober.schedule;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.healthprober.discovery.PeerDirectory;
import dev.cairn.healthprober.dns.DnsClient;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.dns.EncodedQuery;
import dev.cairn.healthprober.kafka.Outbox;
import dev.cairn.healthprober.kafka.TopologyView;
import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.healthprober.peer.Peer;
import dev.cairn.healthprober.peer.ServerAddress;
import dev.cairn.healthprober.probe.RecordType;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.core.IntervalFunction;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * anchor SERVER QUERYFILE PAIRS SECONDS WINDOW -- ANCHOR-COMMAND...
 *     the client mode and its anchor (ANCHOR-COMMAND, dnsperf measuring SECONDS, started from
 *     here so that this JVM stays up between its windows) in PAIRS pairs of short windows, ordered
 *     ABBA (anchor then prober, prober then anchor, ...) so that a linear drift of the machine hits
 *     both sides alike; 2 s warm-up before the first pair. Per pair both qps and their ratio; the
 *     ratio of the medians (the figure checked) and the prober's latency percentiles over all its
 *     windows
 * sweep SERVER1 SERVER2 QUERYFILE SWEEPS INFLIGHT WARMUP
 *     ProbeScheduler sweeps of every host at two healthy peers (A and AAAA each, the service's
 *     defaults: INFLIGHT host probes in flight per peer, 1 s timeout, 2 attempts); the cold
 *     first sweep and WARMUP-1 more, then SWEEPS measured back to back
 * blackhole SERVER OTHER QUERYFILE SWEEPS INFLIGHT WARMUP OTHERPID PACEMS
 *     the sweep of the peer at SERVER alone and beside a peer at OTHER, in SWEEPS interleaved
 *     pairs (alone, then beside half a pace later; a pair every PACEMS ms): first with OTHER
 *     healthy, then with OTHER black-holed (kill -STOP OTHERPID, its DNS server, for that phase
 *     only). The warm-up includes one black-hole episode (reported as "cold"), so the failure
 *     paths are compiled
 * </pre>
 *
 * <p>Meters go to a Prometheus registry, as in the service.
 */
public final class ProberBench {

  private ProberBench() {}

  public static void main(String[] a) throws Exception {
    switch (a[0]) {
      case "client" ->
          client(a[1], Path.of(a[2]), Double.parseDouble(a[3]), Integer.parseInt(a[4]));
      case "anchor" ->
          anchor(
              a[1],
              Path.of(a[2]),
              Integer.parseInt(a[3]),
              Double.parseDouble(a[4]),
              Integer.parseInt(a[5]),
              anchorCommand(a));
      case "sweep" ->
          sweep(
              a[1],
              a[2],
              Path.of(a[3]),
              Integer.parseInt(a[4]),
              Integer.parseInt(a[5]),
              Integer.parseInt(a[6]));
      case "blackhole" ->
          blackhole(
              a[1],
              a[2],
              Path.of(a[3]),
              Integer.parseInt(a[4]),
              Integer.parseInt(a[5]),
              Integer.parseInt(a[6]),
              Long.parseLong(a[7]),
              Long.parseLong(a[8]));
      default -> throw new IllegalArgumentException(a[0]);
    }
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
    try (DnsClient client = newClient()) {
      DnsLookup lookup = new DnsLookup(client, 64);
      EncodedQuery[] queries = new EncodedQuery[names.size()];
      for (int i = 0; i < queries.length; i++) {
        queries[i] = client.encode(names.get(i), RecordType.A, false);
      }
      String zone = names.get(0).substring(names.get(0).indexOf('.') + 1);
      long[] latencies = new long[5_000_000];
      runClient(lookup, s, queries, zone, 2.0, window, new long[1]); // warm-up
      System.gc(); // start the measurement with an empty young generation
      long t0 = System.nanoTime();
      Result r = runClient(lookup, s, queries, zone, seconds, window, latencies);
      double elapsed = (System.nanoTime() - t0) / 1e9;
      System.out.printf(
          "mode=client window=%d seconds=%.2f sent=%d ok=%d other=%d unreachable=%d qps=%.0f %s"
              + " timeouts_total=%d java=%s%n",
          window,
          elapsed,
          r.sent,
          r.ok,
          r.other,
          r.unreachable,
          (r.ok + r.other + r.unreachable) / elapsed,
          percentiles(latencies, r.recorded),
          client.timeouts(),
          System.getProperty("java.version"));
    }
  }

  static List<String> anchorCommand(String[] a) {
    if (a.length < 8 || !a[6].equals("--")) {
      throw new IllegalArgumentException("anchor: expected -- ANCHOR-COMMAND... after WINDOW");
    }
    return List.of(a).subList(7, a.length);
  }

  /**
   * The client mode and dnsperf in alternating short windows, ABBA, this JVM up across all of its
   * windows (warmed once). The anchor runs as a child process, so it inherits this JVM's CPU
   * affinity; while it runs, this JVM has nothing in flight.
   */
  static void anchor(
      String server, Path file, int pairs, double seconds, int window, List<String> anchorCommand)
      throws Exception {
    ServerAddress s = loopback(server);
    List<String> names = names(file);
    try (DnsClient client = newClient()) {
      DnsLookup lookup = new DnsLookup(client, 64);
      EncodedQuery[] queries = new EncodedQuery[names.size()];
      for (int i = 0; i < queries.length; i++) {
        queries[i] = client.encode(names.get(i), RecordType.A, false);
      }
      String zone = names.get(0).substring(names.get(0).indexOf('.') + 1);
      long[] latencies = new long[(int) Math.min(20_000_000L, (long) (seconds * 500_000))];
      long[] all = new long[latencies.length * pairs];
      int recordedAll = 0;
      long failedAll = 0;
      runClient(lookup, s, queries, zone, 2.0, window, new long[1]); // warm-up
      System.gc(); // once, as the client mode does; later collections fall inside the windows
      List<Double> proberQps = new ArrayList<>();
      List<Double> anchorQps = new ArrayList<>();
      for (int pair = 1; pair <= pairs; pair++) {
        boolean anchorFirst = pair % 2 == 1;
        double p = 0;
        double d = 0;
        for (int side = 0; side < 2; side++) {
          if ((side == 0) == anchorFirst) {
            d = anchorWindow(anchorCommand, pair);
          } else {
            long t0 = System.nanoTime();
            Result r = runClient(lookup, s, queries, zone, seconds, window, latencies);
            double elapsed = (System.nanoTime() - t0) / 1e9;
            p = (r.ok + r.other + r.unreachable) / elapsed;
            System.out.printf(
                "mode=anchor pair=%d prober seconds=%.2f sent=%d ok=%d other=%d unreachable=%d"
                    + " qps=%.0f %s%n",
                pair,
                elapsed,
                r.sent,
                r.ok,
                r.other,
                r.unreachable,
                p,
                percentiles(latencies, r.recorded));
            System.arraycopy(latencies, 0, all, recordedAll, r.recorded);
            recordedAll += r.recorded;
            failedAll += r.other + r.unreachable;
          }
        }
        proberQps.add(p);
        anchorQps.add(d);
        System.out.printf(
            "mode=anchor pair=%d order=%s dnsperf_qps=%.0f prober_qps=%.0f ratio=%.3f%n",
            pair,
            anchorFirst ? "dnsperf,prober" : "prober,dnsperf",
            d,
            p,
            d > 0 ? p / d : Double.NaN);
      }
      double pm = medianOf(proberQps);
      double dm = medianOf(anchorQps);
      List<Double> ratios = new ArrayList<>();
      for (int i = 0; i < pairs; i++) {
        ratios.add(anchorQps.get(i) > 0 ? proberQps.get(i) / anchorQps.get(i) : Double.NaN);
      }
      List<Double> sorted = new ArrayList<>(ratios);
      sorted.sort(null);
      System.out.printf(
          "mode=anchor summary pairs=%d seconds=%.1f window=%d dnsperf_median_qps=%.0f"
              + " prober_median_qps=%.0f ratio_of_medians=%.3f pair_ratios=%s"
              + " pair_ratio_median=%.3f min=%.3f max=%.3f prober_not_ok=%d prober_all_windows %s"
              + " timeouts_total=%d java=%s%n",
          pairs,
          seconds,
          window,
          dm,
          pm,
          pm / dm,
          ratios.stream().map(r -> String.format("%.2f", r)).toList().toString().replace(" ", ""),
          medianOf(ratios),
          sorted.get(0),
          sorted.get(sorted.size() - 1),
          failedAll,
          percentiles(all, recordedAll),
          client.timeouts(),
          System.getProperty("java.version"));
    }
  }

  /** One window of the anchor: its output is copied, prefixed; returns its queries per second. */
  static double anchorWindow(List<String> command, int pair) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    double qps = Double.NaN;
    try (var out =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(
                p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        String t = line.strip();
        if (t.startsWith("Queries per second:")) {
          qps = Double.parseDouble(t.substring("Queries per second:".length()).strip());
        }
        if (t.startsWith("Queries sent:")
            || t.startsWith("Queries completed:")
            || t.startsWith("Queries lost:")
            || t.startsWith("Queries per second:")
            || t.startsWith("Run time")
            || t.startsWith("Average Latency")) {
          System.out.printf("mode=anchor pair=%d dnsperf %s%n", pair, t);
        }
      }
    }
    if (p.waitFor() != 0 || Double.isNaN(qps)) {
      throw new IllegalStateException(
          "anchor command failed (exit " + p.exitValue() + "): " + command);
    }
    return qps;
  }

  record Result(long sent, long ok, long other, long unreachable, int recorded) {}

  /**
   * WINDOW chains of queries, each sending its next query from the completion of the previous one,
   * on the DNS reader thread: as the prober's PeerProbe does (closed loop, like dnsperf -q).
   */
  static Result runClient(
      DnsLookup lookup,
      ServerAddress server,
      EncodedQuery[] queries,
      String zone,
      double seconds,
      int window,
      long[] latencies)
      throws Exception {
    AtomicLong sent = new AtomicLong();
    AtomicLong ok = new AtomicLong();
    AtomicLong other = new AtomicLong();
    AtomicLong unreachable = new AtomicLong();
    AtomicInteger recorded = new AtomicInteger();
    List<ServerAddress> servers = List.of(server);
    long end = System.nanoTime() + (long) (seconds * 1e9);
    CountDownLatch finished = new CountDownLatch(window);
    ExecutorService afterFailure = Executors.newSingleThreadExecutor();
    DnsLookup.LatencyListener latency =
        (srv, nanos) -> {
          int i = recorded.getAndIncrement();
          if (i < latencies.length) {
            latencies[i] = nanos;
          }
        };
    Duration timeout = Duration.ofSeconds(1);
    Runnable[] chain = new Runnable[1];
    chain[0] =
        () -> {
          if (System.nanoTime() >= end) {
            finished.countDown();
            return;
          }
          EncodedQuery q = queries[(int) (sent.getAndIncrement() % queries.length)];
          lookup.query(
              q,
              servers,
              0,
              1,
              timeout,
              zone,
              latency,
              answer -> {
                ProbeStatus st = answer.result().status();
                (st == ProbeStatus.OK ? ok : st.reachable() ? other : unreachable)
                    .incrementAndGet();
                if (st.reachable()) {
                  chain[0].run();
                } else {
                  afterFailure.execute(chain[0]); // a failed send completes at once: no recursion
                }
              });
        };
    for (int i = 0; i < window; i++) {
      chain[0].run();
    }
    finished.await((long) seconds + 10, TimeUnit.SECONDS);
    afterFailure.shutdown();
    return new Result(
        sent.get(),
        ok.get(),
        other.get(),
        unreachable.get(),
        Math.min(recorded.get(), latencies.length));
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
    public Collection<ServiceState> services() {
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
      List<Peer> peers, List<String> names, DnsClient client, int inFlight, MeterRegistry meters) {
    String zone = names.get(0).substring(names.get(0).indexOf('.') + 1);
    String parent = zone.substring(zone.indexOf('.') + 1);
    // the defaults of prober.circuit-breaker.* (ProberProperties)
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
            BulkheadConfig.custom()
                .maxConcurrentCalls(inFlight)
                .maxWaitDuration(Duration.ZERO)
                .build(),
            Duration.ZERO,
            Duration.ZERO),
        new FixedTopology(names),
        new PeerDirectory(peers, null, "bench", Clock.systemUTC()),
        new DnsLookup(client, 64),
        new Outbox(),
        "cairn.health.peer-answers.v1",
        CircuitBreakerRegistry.ofDefaults(),
        BulkheadRegistry.ofDefaults(),
        new ProbeMetrics(meters),
        Clock.systemUTC());
  }

  /** The registry the service uses (actuator/prometheus), so meter costs are the real ones. */
  static MeterRegistry meters() {
    return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  }

  static DnsClient newClient() throws java.io.IOException {
    return new DnsClient(new DnsClient.Settings(4, 1232, 2)); // the defaults of prober.*
  }

  @SuppressWarnings("unchecked")
  static int queued(ProbeScheduler s, String peer) {
    Map<String, Object> d = (Map<String, Object>) s.describePeers().get(peer);
    return (Integer) d.get("queued");
  }

  @SuppressWarnings("unchecked")
  static String circuit(ProbeScheduler s, String peer) {
    Map<String, Object> d = (Map<String, Object>) s.describePeers().get(peer);
    return d == null ? "-" : (String) d.get("circuit");
  }

  /** A scheduler whose first host plan was made and whose first (cold) sweep ended. */
  static final class Bench {
    final String name;
    final ProbeScheduler scheduler;
    final List<String> peers;

    /** Per sweep, how long the sweep call itself took (µs): queueing, and settling open peers. */
    final List<Long> callMicros = new ArrayList<>();

    /** Per sweep, the circuit state of the second peer when the sweep started ("-" without). */
    final List<String> otherCircuit = new ArrayList<>();

    boolean planned;

    Bench(String name, ProbeScheduler scheduler, List<String> peers) {
      this.name = name;
      this.scheduler = scheduler;
      this.peers = peers;
    }

    /**
     * One sweep; waits until the queues of the first {@code measured} peers are empty.
     *
     * @return per peer, the time (µs) until its queue was empty; 0 = not done when the measured
     *     ones were (or after 30 s)
     */
    long[] sweep(int measured) throws InterruptedException {
      long[] done = new long[peers.size()];
      otherCircuit.add(peers.size() > 1 ? circuit(scheduler, peers.get(1)) : "-");
      long t0 = System.nanoTime();
      if (!planned) {
        scheduler.replan(); // plans and queues every host at every peer
        planned = true;
      } else {
        scheduler.sweep();
      }
      callMicros.add((System.nanoTime() - t0) / 1_000);
      long limit = t0 + 30_000_000_000L;
      int remaining = measured;
      while (remaining > 0 && System.nanoTime() < limit) {
        for (int i = 0; i < peers.size(); i++) {
          if (done[i] == 0 && queued(scheduler, peers.get(i)) == 0) {
            done[i] = Math.max(1, (System.nanoTime() - t0) / 1_000);
            if (i < measured) {
              remaining--;
            }
          }
        }
        Thread.sleep(1); // poll; a spinning thread would steal the core the prober runs on
      }
      return done;
    }
  }

  /** Runs sweeps, each starting {@code paceMillis} after the previous one (or when it ended). */
  static List<long[]> sweeps(Bench b, int count, int measured, long paceMillis)
      throws InterruptedException {
    List<long[]> out = new ArrayList<>();
    long next = System.nanoTime();
    for (int i = 0; i < count; i++) {
      long wait = next - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
      next = System.nanoTime() + paceMillis * 1_000_000L;
      out.add(b.sweep(measured));
    }
    return out;
  }

  static double median(List<Long> v) {
    List<Long> s = new ArrayList<>(v);
    s.sort(null);
    int n = s.size();
    return n == 0
        ? Double.NaN
        : n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2.0;
  }

  static List<Long> column(List<long[]> rows, int col) {
    return rows.stream().map(r -> r[col]).toList();
  }

  static List<Long> allDone(List<long[]> rows) {
    return rows.stream()
        .map(
            r ->
                Arrays.stream(r).anyMatch(x -> x == 0)
                    ? Long.MAX_VALUE
                    : Arrays.stream(r).max().getAsLong())
        .toList();
  }

  static String ms(double micros) {
    return micros == Long.MAX_VALUE ? "unfinished" : String.format("%.1f", micros / 1e3);
  }

  static void sweep(String server1, String server2, Path file, int count, int inFlight, int warmup)
      throws Exception {
    List<String> names = names(file);
    try (DnsClient client = newClient()) {
      Bench b =
          new Bench(
              "both",
              scheduler(
                  List.of(
                      new Peer("p1", List.of(loopback(server1))),
                      new Peer("p2", List.of(loopback(server2)))),
                  names,
                  client,
                  inFlight,
                  meters()),
              List.of("p1", "p2"));
      List<long[]> cold = sweeps(b, 1, 2, 0);
      sweeps(b, Math.max(0, warmup - 1), 2, 0);
      System.gc(); // measure from an empty young generation
      long sent0 = client.sent();
      long timeouts0 = client.timeouts();
      List<long[]> r = sweeps(b, count, 2, 0);
      long sent = client.sent() - sent0;
      long timeouts = client.timeouts() - timeouts0;
      b.scheduler.close();
      System.out.printf(
          "mode=sweep cold (first plan, first publish of every record): all_done_ms=%s%n",
          ms(allDone(cold).get(0)));
      for (int i = 0; i < r.size(); i++) {
        System.out.printf(
            "mode=sweep sweep=%d all_done_ms=%s p1_ms=%s p2_ms=%s%n",
            i, ms(allDone(r).get(i)), ms(r.get(i)[0]), ms(r.get(i)[1]));
      }
      List<Long> all = allDone(r);
      double med = median(all);
      System.out.printf(
          "mode=sweep summary hosts=%d peers=2 queries_per_sweep=%d inflight_per_peer=%d warmup=%d"
              + " sweeps=%d median_ms=%s min_ms=%s max_ms=%s sweep_qps=%.0f queries=%d"
              + " timeouts=%d%n",
          names.size(),
          names.size() * 4,
          inFlight,
          warmup,
          count,
          ms(med),
          ms(all.stream().min(Long::compare).orElse(0L)),
          ms(all.stream().max(Long::compare).orElse(0L)),
          names.size() * 4 / (med / 1e6),
          sent,
          timeouts);
    }
  }

  /** Waits until the queries still in flight (to a stopped peer) have ended. */
  static void drainInFlight(DnsClient client) throws InterruptedException {
    long until = System.nanoTime() + 3_000_000_000L;
    while (client.inFlight() > 0 && System.nanoTime() < until) {
      Thread.sleep(10); // late replies of a continued peer are unmatched and dropped
    }
  }

  static void signal(String sig, long pid) throws Exception {
    Process p = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("kill -" + sig + " " + pid + " failed");
    }
  }

  /**
   * Pairs of sweeps, interleaved: in each pair, {@code a}'s sweep starts first and {@code b}'s half
   * a pace later (or when {@code a}'s ended); a pair starts every {@code paceMillis} ms (or when
   * the previous one ended). Drift of the machine (other processes, frequency) then hits both sides
   * of a pair alike.
   *
   * @return per pair: {@code a}'s sweep, {@code b}'s sweep
   */
  static List<long[][]> pairs(Bench a, Bench b, int count, int measuredB, long paceMillis)
      throws InterruptedException {
    List<long[][]> out = new ArrayList<>();
    long half = paceMillis * 500_000L;
    long next = System.nanoTime();
    for (int i = 0; i < count; i++) {
      sleepUntil(next);
      long t0 = System.nanoTime();
      next = t0 + 2 * half;
      long[] ra = a.sweep(1);
      sleepUntil(t0 + half);
      long[] rb = b.sweep(measuredB);
      out.add(new long[][] {ra, rb});
    }
    return out;
  }

  static void sleepUntil(long nanoTime) throws InterruptedException {
    long wait = nanoTime - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  /** The ratios b/a of the healthy peer's sweeps in pairs. */
  static List<Double> ratios(List<long[][]> pairs) {
    return pairs.stream().map(p -> (double) p[1][0] / p[0][0]).toList();
  }

  /**
   * CPU time per thread name (ms) and GC time (ms, key "gc") since JVM start: a phase's cost is the
   * difference of two of these.
   */
  static Map<String, Long> cpu() {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    Map<String, Long> out = new java.util.TreeMap<>();
    for (java.lang.management.ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (t == null) {
        continue;
      }
      long nanos = threads.getThreadCpuTime(t.getThreadId());
      if (nanos > 0) {
        out.merge(t.getThreadName().replaceAll("-\\d+$", "-N"), nanos / 1_000_000, Long::sum);
      }
    }
    long gc = 0;
    for (java.lang.management.GarbageCollectorMXBean b :
        java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      gc += b.getCollectionTime();
    }
    out.put("gc", gc);
    return out;
  }

  /** The CPU (ms) of the prober's threads, the bench's and GC between two {@link #cpu} calls. */
  static String cpuDelta(Map<String, Long> before, Map<String, Long> after) {
    StringBuilder b = new StringBuilder();
    for (String k : List.of("cairn-dns-reader", "cairn-prober-sweep", "main", "gc")) {
      b.append(b.length() == 0 ? "" : ",")
          .append(k)
          .append('=')
          .append(after.getOrDefault(k, 0L) - before.getOrDefault(k, 0L));
    }
    return b.toString();
  }

  static double medianOf(List<Double> v) {
    List<Double> s = new ArrayList<>(v);
    s.sort(null);
    int n = s.size();
    return n == 0
        ? Double.NaN
        : n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2.0;
  }

  /**
   * The healthy peer's sweep, alone and beside a second peer, in interleaved pairs (see {@link
   * #pairs}): first with the second peer healthy, then with it black-holed ({@code kill -STOP} of
   * its server; the phase starts with the stop, so it holds the timeouts, the circuit opening and
   * the half-open probes). One DNS client for all, as in the service.
   */
  static void blackhole(
      String server,
      String other,
      Path file,
      int count,
      int inFlight,
      int warmup,
      long otherPid,
      long paceMillis)
      throws Exception {
    List<String> names = names(file);
    try (DnsClient client = newClient()) {
      Bench alone =
          new Bench(
              "alone",
              scheduler(
                  List.of(new Peer("ok", List.of(loopback(server)))),
                  names,
                  client,
                  inFlight,
                  meters()),
              List.of("ok"));
      Bench both =
          new Bench(
              "both",
              scheduler(
                  List.of(
                      new Peer("ok", List.of(loopback(server))),
                      new Peer("p2", List.of(loopback(other)))),
                  names,
                  client,
                  inFlight,
                  meters()),
              List.of("ok", "p2"));
      sweeps(alone, warmup, 1, 0);
      sweeps(both, warmup, 2, 0);
      // Warm-up of the failure paths too (timeouts, the circuit opening, settling while it is
      // open): a first black-hole in a JVM's life runs code the JIT has not compiled yet, and its
      // deoptimisations and compilations compete for the client's one core for some seconds.
      // That cold episode is reported on its own; the measured phases below run warm code.
      Bench warm =
          new Bench(
              "warm",
              scheduler(
                  List.of(
                      new Peer("ok", List.of(loopback(server))),
                      new Peer("p2", List.of(loopback(other)))),
                  names,
                  client,
                  inFlight,
                  meters()),
              List.of("ok", "p2"));
      sweeps(warm, warmup, 2, 0);
      signal("STOP", otherPid);
      List<long[]> cold;
      try {
        cold = sweeps(warm, count, 1, paceMillis);
      } finally {
        signal("CONT", otherPid);
      }
      warm.scheduler.close();
      drainInFlight(client);
      System.gc(); // measure from an empty young generation
      Map<String, Long> cpu0 = cpu();
      List<long[][]> healthy = pairs(alone, both, count, 2, paceMillis);
      Map<String, Long> cpu1 = cpu();
      int deadFrom = both.callMicros.size();
      long timeouts0 = client.timeouts();
      signal("STOP", otherPid);
      List<long[][]> dead;
      Map<String, Long> cpu2;
      String circuitAfter;
      int deadQueued;
      try {
        dead = pairs(alone, both, count, 1, paceMillis);
        cpu2 = cpu();
        circuitAfter = circuit(both.scheduler, "p2");
        deadQueued = queued(both.scheduler, "p2");
      } finally {
        signal("CONT", otherPid);
      }
      long deadTimeouts = client.timeouts() - timeouts0;
      both.scheduler.close();
      alone.scheduler.close();
      drainInFlight(client);

      List<Long> coldTimes = column(cold, 0);
      System.out.printf(
          "mode=blackhole cold (first black-hole of the JVM, during warm-up)"
              + " beside_blackholed_ms=%s median_ms=%s max_ms=%s%n",
          coldTimes.stream().map(ProberBench::ms).toList(),
          ms(median(coldTimes)),
          ms(coldTimes.stream().max(Long::compare).orElse(0L)));
      for (int i = 0; i < count; i++) {
        System.out.printf(
            "mode=blackhole pair=%d healthy: alone_ms=%s beside_ms=%s | blackholed: alone_ms=%s"
                + " beside_ms=%s ratio=%.2f circuit_at_start=%s sweep_call_ms=%s%n",
            i,
            ms(healthy.get(i)[0][0]),
            ms(healthy.get(i)[1][0]),
            ms(dead.get(i)[0][0]),
            ms(dead.get(i)[1][0]),
            ratios(dead).get(i),
            both.otherCircuit.get(deadFrom + i),
            ms(both.callMicros.get(deadFrom + i)));
      }
      double healthyAlone = median(healthy.stream().map(p -> p[0][0]).toList());
      double healthyBeside = median(healthy.stream().map(p -> p[1][0]).toList());
      double deadAlone = median(dead.stream().map(p -> p[0][0]).toList());
      double deadBeside = median(dead.stream().map(p -> p[1][0]).toList());
      List<Double> deadRatios = ratios(dead);
      System.out.printf(
          "mode=blackhole cpu_ms (threads; the phase's wall time is pairs x pace) healthy_phase: %s"
              + " | blackholed_phase: %s%n",
          cpuDelta(cpu0, cpu1), cpuDelta(cpu1, cpu2));
      System.out.printf(
          "mode=blackhole summary pairs=%d pace_ms=%d healthy_phase: alone_median_ms=%s"
              + " beside_median_ms=%s ratio=%.2f | blackholed_phase: alone_median_ms=%s"
              + " beside_median_ms=%s ratio_of_medians=%.2f median_pair_ratio=%.2f"
              + " max_pair_ratio=%.2f pairs_over_1.10=%d | blackholed_timeouts=%d"
              + " blackholed_circuit_at_end=%s blackholed_queued_at_end=%d"
              + " sweep_call_median_ms(healthy/blackholed)=%s/%s%n",
          count,
          paceMillis,
          ms(healthyAlone),
          ms(healthyBeside),
          healthyBeside / healthyAlone,
          ms(deadAlone),
          ms(deadBeside),
          deadBeside / deadAlone,
          medianOf(deadRatios),
          deadRatios.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
          deadRatios.stream().filter(r -> r > 1.10).count(),
          deadTimeouts,
          circuitAfter,
          deadQueued,
          ms(median(both.callMicros.subList(deadFrom - count, deadFrom))),
          ms(median(both.callMicros.subList(deadFrom, deadFrom + count))));
    }
  }
}
