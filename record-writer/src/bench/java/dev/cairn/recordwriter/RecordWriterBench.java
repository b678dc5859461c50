package dev.cairn.recordwriter;

import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.decision.Explanation;
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
 *       100). Goal: all applied within bulk / rate + 5 s.
 * </ol>
 *
 * Run: {@code ./mvnw -o -pl record-writer -Pbench test -Dtest=RecordWriterBench
 * -Dsurefire.failIfNoSpecifiedTests=false} (options {@code -Dbench.bulk=}, {@code -Dbench.rate=},
 * {@code -Dbench.idle=}). The report is printed and written to {@code
 * target/bench/record-writer.txt}.
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

  @Test
  void run() throws IOException {
    int bulk = Integer.getInteger("bench.bulk", 10_000);
    double rate = Double.parseDouble(System.getProperty("bench.rate", "50"));
    Duration idle = Duration.ofSeconds(Integer.getInteger("bench.idle", 10));
    line(
        "record-writer benchmark, %d cores, Java %s",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    writesPerDecisionAndIdle(1_000, idle);
    bulk(bulk, rate);
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
      barrier(api, decisions, "ns0", "converged");
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
      barrier(api, decisions, "ns0", "changed");
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

  private void bulk(int n, double rate) {
    try (MockKubernetes api = new MockKubernetes(true);
        StateProducer<TargetDecision> decisions =
            StateProducer.decisions(EmbeddedBroker.bootstrapServers(), "b3.");
        WriterRun writer =
            WriterRun.start(
                api, "b3.", concat(QUIET, "writer.rate-limit.writes-per-second=" + rate))) {
      await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> writer.get("/actuator/health/readiness").statusCode() == 200);
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
          "%d new decisions at %.0f writes/s (burst 100): published in %.1f s, all %d applied"
              + " after %.1f s; goal <= %.1f s (%s); %d write requests in all",
          n,
          rate,
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

  private static void barrier(
      MockKubernetes api, StateProducer<TargetDecision> decisions, String ns, String name) {
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

  private static String[] concat(String[] a, String... b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
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
