package dev.cairn.recordwriter;

import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.recordwriter.MockKubernetes.Write;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The record-writer benchmark (not a test: it measures and reports, it asserts nothing). Writes are
 * counted at the mock API server. Scenarios:
 *
 * <ol>
 *   <li>Writes per decision: 1k new decisions, then 100 changed and 100 unchanged ones (a new value
 *       on the topic with only the explanation changed). Goal: 1 write per changed decision, 0 per
 *       unchanged one.
 *   <li>Idle at 1k records: the 10-minute idle window is scaled down to {@code bench.idle} (10 s)
 *       with the resync period scaled from 10 min to 1 s, so the window holds 10 full resyncs
 *       instead of 1. Goal: 0 writes.
 *   <li>Bulk: {@code bench.bulk} (10k) new decisions at the default rate limit (50 writes/s, burst
 *       100). Goal: all applied within bulk / rate + 5 s. Run against the CRUD mock, then (with
 *       {@code bench.stub=true}) again against a constant-time stub for creates ({@link
 *       MockKubernetes#answerCreatesInConstantTime}), which tells the writer's limit from the
 *       mock's.
 *   <li>Failover: {@code bench.failover} (1k) Gslbs, each with a DNSEndpoint and a status written;
 *       then every decision and every status changes at once (as when a peer fails: one DNSEndpoint
 *       write and one status write per Gslb), at 1000 writes/s, burst 1000 (the system benchmark's
 *       setting). Reported: when each Gslb's DNSEndpoint write and status write were answered, from
 *       the first change sent (p50, p99, last).
 * </ol>
 *
 * Run: {@code ./mvnw -o -pl record-writer -Pbench test -Dtest=RecordWriterBench
 * -Dsurefire.failIfNoSpecifiedTests=false} (options {@code -Dbench.bulk=}, {@code -Dbench.rate=},
 * {@code -Dbench.idle=}, {@code -Dbench.failover=}, {@code -Dbench.only=writes,bulk,failover} to
 * run some scenarios, and any {@code writer.*} property as {@code -Dbench.writer=name=value,...}).
 * The report is printed and written to {@code target/bench/record-writer.txt}.
 */
class RecordWriterBench {

  private static final String[] QUIET = {
    "logging.level.dev.cairn.recordwriter.reconcile=WARN",
    "logging.level.io.fabric8.mockwebserver=WARN",
    "logging.level.org.apache.kafka=WARN",
    "logging.level.kafka=WARN",
    "logging.level.state.change.logger=WARN"
  };

  private final List<String> report = new ArrayList<>();

  private final String[] writerOptions =
      System.getProperty("bench.writer", "").isBlank()
          ? new String[0]
          : System.getProperty("bench.writer").split(",");

  @Test
  void run() throws IOException {
    int bulk = Integer.getInteger("bench.bulk", 10_000);
    double rate = Double.parseDouble(System.getProperty("bench.rate", "50"));
    Duration idle = Duration.ofSeconds(Integer.getInteger("bench.idle", 10));
    int failover = Integer.getInteger("bench.failover", 1_000);
    List<String> only =
        List.of(System.getProperty("bench.only", "writes,bulk,failover").split(","));
    line(
        "record-writer benchmark, %d cores, Java %s, writer options %s",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        List.of(writerOptions));
    if (only.contains("writes")) {
      writesPerDecisionAndIdle(1_000, idle);
    }
    if (only.contains("bulk")) {
      bulk(bulk, rate, false);
      if (Boolean.getBoolean("bench.stub")) {
        bulk(bulk, rate, true);
      }
    }
    if (only.contains("failover")) {
      failover(failover);
    }
    Path out = Path.of("target/bench/record-writer.txt");
    Files.createDirectories(out.getParent());
    Files.write(out, report);
  }

  private void writesPerDecisionAndIdle(int n, Duration idle) {
    try (MockKubernetes api = new MockKubernetes(true);
        StateProducer<TargetDecision> decisions =
            StateProducer.decisions(EmbeddedBroker.bootstrapServers(), "b1.");
        WriterRun writer =
            WriterRun.start(
                api,
                "b1.",
                concat(
                    QUIET,
                    "writer.resync-period=1s",
                    "writer.rate-limit.writes-per-second=1000",
                    "writer.rate-limit.burst=1000"))) {
      List<TargetDecision> all = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        TargetDecision d = TestDecisions.publish("ns" + (i % 10), "r" + i, ip(i));
        all.add(d);
        decisions.sendAsync(d);
      }
      decisions.flush();
      await().atMost(Duration.ofMinutes(5)).until(() -> count(api, "POST") >= n);
      barrier(api, writer, decisions, "ns0", "converged");
      long posts = count(api, "POST");
      line(
          "1k new decisions: %d creates (%.2f writes per new decision)",
          posts - 1, (posts - 1) / (double) n);

      int before = api.writes().size();
      for (int i = 0; i < 100; i++) {
        decisions.sendAsync(TestDecisions.publish("ns" + (i % 10), "r" + i, ip(i + n)));
      }
      for (int i = 100; i < 200; i++) {
        decisions.sendAsync(all.get(i).withExplanation(Explanation.of("recomputed, same result")));
      }
      decisions.flush();
      await().atMost(Duration.ofMinutes(2)).until(() -> count(api, "PUT") >= 100);
      barrier(api, writer, decisions, "ns0", "changed");
      List<Write> after = api.writes().subList(before, api.writes().size());
      long changedWrites =
          after.stream().filter(w -> w.name().matches("httproute-r([0-9]|[1-9][0-9])")).count();
      long unchangedWrites =
          after.stream().filter(w -> w.name().matches("httproute-r1[0-9][0-9]")).count();
      line(
          "100 changed decisions: %d writes (%.2f per changed decision); 100 unchanged: %d writes",
          changedWrites, changedWrites / 100.0, unchangedWrites);

      double resyncsBefore = writer.counter("cairn.writer.resyncs");
      int writesBefore = api.writes().size();
      sleep(idle);
      line(
          "idle %ds at %d records (10-min window scaled to %ds, resync 10 min -> 1 s): %d writes,"
              + " %.0f full resyncs",
          idle.toSeconds(),
          n + 2,
          idle.toSeconds(),
          api.writes().size() - writesBefore,
          writer.counter("cairn.writer.resyncs") - resyncsBefore);
    }
  }

  private void bulk(int n, double rate, boolean stub) {
    try (MockKubernetes api = new MockKubernetes(true);
        StateProducer<TargetDecision> decisions =
            StateProducer.decisions(EmbeddedBroker.bootstrapServers(), "b3.");
        WriterRun writer =
            WriterRun.start(
                api, "b3.", concat(QUIET, "writer.rate-limit.writes-per-second=" + rate))) {
      await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> writer.get("/actuator/health/readiness").statusCode() == 200);
      if (stub) {
        api.answerCreatesInConstantTime();
      }
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        decisions.sendAsync(TestDecisions.publish("ns" + (i % 50), "r" + i, ip(i)));
      }
      decisions.flush();
      double sent = (System.nanoTime() - start) / 1e9;
      await()
          .atMost(Duration.ofSeconds((long) (n / rate) + 300))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> count(api, "POST") >= n);
      double took = (System.nanoTime() - start) / 1e9;
      double goal = n / rate + 5;
      line(
          "%d new decisions at %.0f writes/s (burst 100), %s: published in %.1f s, all %d"
              + " applied after %.1f s; goal <= %.1f s (%s); %d write requests in all",
          n,
          rate,
          stub ? "constant-time create stub" : "CRUD mock",
          sent,
          count(api, "POST"),
          took,
          goal,
          took <= goal ? "met" : "MISSED",
          api.writes().size());
      List<Write> writes = api.writes();
      int k = Math.min(1_000, writes.size() / 2);
      line(
          "  throughput at the mock: first %d writes %.0f/s, last %d writes %.0f/s; writer's mean"
              + " write latency %.1f ms (max %.1f ms)",
          k,
          perSecond(writes.subList(0, k)),
          k,
          perSecond(writes.subList(writes.size() - k, writes.size())),
          writer.timerMeanMillis("cairn.writer.apply.latency"),
          writer.timerMaxMillis("cairn.writer.apply.latency"));
    }
  }

  private void failover(int n) {
    try (MockKubernetes api = new MockKubernetes(true);
        StateProducer<TargetDecision> decisions =
            StateProducer.decisions(EmbeddedBroker.bootstrapServers(), "b4.");
        StateProducer<GslbStatus> statuses =
            StateProducer.gslbStatuses(EmbeddedBroker.bootstrapServers(), "b4.")) {
      List<String> uids = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        uids.add(api.createGslb("ns" + (i % 10), "g" + i).getMetadata().getUid());
      }
      try (WriterRun writer =
          WriterRun.start(
              api,
              "b4.",
              concat(
                  QUIET,
                  "writer.rate-limit.writes-per-second=1000",
                  "writer.rate-limit.burst=1000"))) {
        for (int i = 0; i < n; i++) {
          decisions.sendAsync(TestDecisions.publish("ns" + (i % 10), "g" + i, ip(i)));
          statuses.sendAsync(TestStatuses.healthy("ns" + (i % 10), "g" + i, uids.get(i), ip(i)));
        }
        decisions.flush();
        statuses.flush();
        await()
            .atMost(Duration.ofMinutes(5))
            .until(() -> count(api, "POST") >= n && statusWrites(api, Long.MIN_VALUE) >= n);
        sleep(Duration.ofSeconds(2)); // let the informer echoes of the seed settle

        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          String ns = "ns" + (i % 10);
          decisions.sendAsync(TestDecisions.publish(ns, "g" + i, ip(i + n)));
          statuses.sendAsync(TestStatuses.healthy(ns, "g" + i, uids.get(i), ip(i + n)));
        }
        decisions.flush();
        statuses.flush();
        await()
            .atMost(Duration.ofMinutes(5))
            .pollInterval(Duration.ofMillis(20))
            .until(() -> count(api, "PUT") >= n && statusWrites(api, t0) >= n);
        List<Double> dns = answeredAfter(api, MockKubernetes.DNS_ENDPOINT_WRITES, "PUT", t0);
        List<Double> status = answeredAfter(api, MockKubernetes.GSLB_STATUS_WRITES, "PUT", t0);
        List<Double> all = new ArrayList<>(dns);
        all.addAll(status);
        all.sort(null);
        line(
            "failover of %d Gslbs (%d DNSEndpoint + %d status writes at 1000/s, burst 1000):"
                + " DNSEndpoint writes answered p50 %.2f s, p99 %.2f s, last %.2f s; status"
                + " writes p50 %.2f s, p99 %.2f s, last %.2f s; %.0f writes/s",
            n,
            dns.size(),
            status.size(),
            quantile(dns, 0.5),
            quantile(dns, 0.99),
            dns.get(dns.size() - 1),
            quantile(status, 0.5),
            quantile(status, 0.99),
            status.get(status.size() - 1),
            (all.size() - 1) / (all.get(all.size() - 1) - all.get(0)));
      }
    }
  }

  /** Successful status writes answered after {@code sinceNanos}. */
  private static long statusWrites(MockKubernetes api, long sinceNanos) {
    return api.everyWrite().stream()
        .filter(
            w ->
                w.resource().equals(MockKubernetes.GSLB_STATUS_WRITES)
                    && w.status() < 300
                    && w.atNanos() > sinceNanos)
        .count();
  }

  /** Seconds from {@code t0} to each successful write of one kind answered after it, sorted. */
  private static List<Double> answeredAfter(
      MockKubernetes api, String resource, String method, long t0) {
    List<Double> out = new ArrayList<>();
    for (Write w : api.everyWrite()) {
      if (w.resource().equals(resource)
          && w.method().equals(method)
          && w.status() < 300
          && w.atNanos() > t0) {
        out.add((w.atNanos() - t0) / 1e9);
      }
    }
    out.sort(null);
    return out;
  }

  private static double quantile(List<Double> sorted, double q) {
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
  }

  private static void barrier(
      MockKubernetes api,
      WriterRun writer,
      StateProducer<TargetDecision> decisions,
      String ns,
      String name) {
    // Created, then updated: the update is planned in a later batch, so every earlier batch is
    // done.
    decisions.send(TestDecisions.publish(ns, "barrier-" + name, "198.51.100.1"));
    await()
        .atMost(Duration.ofMinutes(2))
        .until(() -> api.get(ns, TestDecisions.objectName("barrier-" + name)) != null);
    decisions.send(TestDecisions.publish(ns, "barrier-" + name, "198.51.100.2"));
    await()
        .atMost(Duration.ofMinutes(2))
        .until(
            () ->
                RecordWriterIT.targets(api.get(ns, TestDecisions.objectName("barrier-" + name)))
                    .equals(List.of("198.51.100.2")));
    await().atMost(Duration.ofMinutes(2)).until(writer::writesSettled);
  }

  private static long count(MockKubernetes api, String method) {
    return api.writes().stream().filter(w -> w.method().equals(method) && w.status() < 300).count();
  }

  private static double perSecond(List<Write> writes) {
    double seconds = (writes.get(writes.size() - 1).atNanos() - writes.get(0).atNanos()) / 1e9;
    return (writes.size() - 1) / seconds;
  }

  private static String ip(int i) {
    return "10." + ((i >> 16) & 255) + "." + ((i >> 8) & 255) + "." + (i & 255);
  }

  private String[] concat(String[] a, String... b) {
    String[] out = new String[a.length + b.length + writerOptions.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    System.arraycopy(writerOptions, 0, out, a.length + b.length, writerOptions.length);
    return out;
  }

  /** The idle window: nothing to wait for but time itself. */
  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void line(String format, Object... args) {
    String s = String.format(Locale.ROOT, format, args);
    report.add(s);
    System.out.println("[bench] " + s);
  }
}
