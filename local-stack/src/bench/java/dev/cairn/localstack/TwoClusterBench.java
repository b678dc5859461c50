package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.healthprober.config.ProberProperties;
import dev.cairn.recordwriter.config.WriterProperties;
import dev.cairn.strategyengine.config.StrategyEngineProperties;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * System benchmarks of the two-cluster local stack (performance.md S1, S2 and S8), not part of
 * {@code verify}:
 *
 * <pre>
 * ./mvnw -o -pl local-stack -Pbench test -Dtest=TwoClusterBench -Dsurefire.failIfNoSpecifiedTests=false [-Dbench.n=10000]
 * </pre>
 *
 * <p>Both clusters get the {@link BenchTopology} of {@code bench.n} failover Gslbs (default 1,000)
 * with primary {@code us}, so {@code eu}'s answers depend on what its prober hears from {@code us}.
 * The topology is created in each mock API before the services start (they read it with their
 * initial lists), on a broker of the bench's own so a topic recorder sees the services' first
 * records. Once every DNSEndpoint of both clusters is as expected:
 *
 * <ol>
 *   <li><b>Anchor</b>: Kafka's {@code EndToEndLatency} on the same broker, the stack idle.
 *   <li><b>S1</b>: {@code bench.changes} (300) EndpointSlice changes in {@code eu} at {@code
 *       bench.rate} (10/s), each making a different route's zone-a endpoint not ready. T0 is when
 *       the mock API accepted the slice update (its dispatcher had sent the watch events), T1 when
 *       the record-writer's DNSEndpoint write with the new {@code localtargets-} targets arrived at
 *       the same mock API. The stages in between come from the topic recorder.
 *   <li><b>S1 reversed</b>: the same endpoints made ready again at the same rate, with {@code
 *       EndToEndLatency} running alongside: an anchor under the same load.
 *   <li><b>S2</b>: {@code us}'s DNS is black-holed for {@code eu} ({@link Cluster#setSilent}); per
 *       Gslb, the time until {@code eu}'s DNSEndpoint write no longer holds {@code us}'s targets,
 *       observed at {@code eu}'s mock API, split into detection (the prober's failing peer answer),
 *       engine and writer. With {@code bench.s2-rounds} above 1 (default 2), {@code us} then answers
 *       again, every {@code eu} DNSEndpoint is waited for back on {@code us}'s targets (the fail
 *       back), and S2 runs again: the first failover after a start runs code the JVM has not
 *       compiled yet (the whole stack is one JVM still compiling when S2 starts), a later one a
 *       stack that has compiled more of it. Every round is reported.
 *   <li><b>S8</b>: per-hop delivery latency (record CreateTime to receipt by a consumer of this
 *       JVM) on the watcher's, the probers' and the engine's output topics in the first 5 s of each
 *       topic's traffic (cold start), during S1, S1 reversed and S2, against the anchors' p99.
 *       The engine's records carry the input's timestamp (Kafka Streams), so its hop to the writer
 *       is measured from the send time its producers stamp ({@link SentAtInterceptor}); the
 *       watchers' and probers' producers stamp it too, and their hops are also reported from it,
 *       in microseconds like the anchor (CreateTime is whole milliseconds, truncated: 0-1 ms more).
 *       Each of those is also split at the producer's acknowledgement (send to acknowledged,
 *       acknowledged to received) and told apart from this JVM's stop-the-world collections
 *       ({@link GcPauses}): the hops no pause overlapped are reported on their own.
 * </ol>
 *
 * <p>Options: {@code bench.n}, {@code bench.changes}, {@code bench.rate} (changes per second),
 * {@code bench.split-brain-seconds} (the Gslbs' threshold, default 1), {@code
 * bench.probe-interval-ms} (default 5000, the prober's default), {@code bench.s2-rounds} (default
 * 2), {@code bench.writer-rate} (the record-writer's rate limit, writes per second and burst,
 * default 10000: a failover of N Gslbs is N DNSEndpoint writes, so a limit of L writes per second
 * alone keeps the last one N / L seconds after the first; at 1000, 10 s for 10k), {@code
 * bench.linger-ms}
 * (unset: the services' own producer {@code linger.ms}, 5; set, it replaces the watcher's, the
 * prober's and the engine's), {@code bench.engine-linger-ms} (the engine's alone, over {@code
 * bench.linger-ms}), {@code bench.e2e-messages} (default 20000: the anchor's round
 * trips, about 15 s, so that it covers about three probe intervals, the probers' sweeps and the
 * quiet between them in the same mix as the 30-s S1 passes it is compared with; 5000 took 3-4 s,
 * less than one interval, and fell on a sweep or between two by chance), {@code bench.seed-threads}
 * (parallel creates per cluster, default 4), {@code bench.settle-timeout-s} (default 480), {@code
 * bench.idle-seconds} (default 15: the settled stack's CPU by thread with nothing changing,
 * before the anchor; 0 skips it), {@code bench.jit-settle-seconds} (default 240: how long at most
 * to wait, once the stack is quiet, for the JIT compilers to go quiet; 0 does not wait),
 * {@code bench.s1} ({@code false} runs S2 alone right after
 * settling: the fabric8 mock API stalls for up
 * to a minute when a watch closes, about six minutes after the services start, which larger runs
 * otherwise reach), {@code bench.recorder-per-topic} ({@code true}: the topic recorder reads
 * each topic with a consumer of its own instead of one consumer for all), {@code bench.log-level}
 * (default WARN). The report is printed and written to
 * {@code target/bench/two-cluster-n<N>.txt}. Nothing about speed is asserted; the run fails only
 * when a change or a failover is never observed.
 */
class TwoClusterBench {

  private static final String SECONDARY = "eu";
  private static final String PRIMARY = "us";

  /** The console, kept: EndToEndLatency replaces System.out while it runs. */
  private static final PrintStream OUT = System.out;

  private final int n = Integer.getInteger("bench.n", 1000);
  private final int changes = Math.min(n, Integer.getInteger("bench.changes", 300));
  private final double rate = Double.parseDouble(System.getProperty("bench.rate", "10"));
  private final int splitBrainSeconds = Integer.getInteger("bench.split-brain-seconds", 1);
  private final Duration probeInterval =
      Duration.ofMillis(Long.getLong("bench.probe-interval-ms", 5000));
  private final String writerRate = System.getProperty("bench.writer-rate", "10000");
  private final String linger = System.getProperty("bench.linger-ms");
  private final String engineLinger = System.getProperty("bench.engine-linger-ms");
  private final int e2eMessages = Integer.getInteger("bench.e2e-messages", 20000);
  private final int seedThreads = Integer.getInteger("bench.seed-threads", 4);
  private final boolean runS1 = Boolean.parseBoolean(System.getProperty("bench.s1", "true"));
  private final boolean recorderPerTopic =
      Boolean.parseBoolean(System.getProperty("bench.recorder-per-topic", "false"));
  private final boolean s1Warmup =
      Boolean.parseBoolean(System.getProperty("bench.s1-warmup", "true"));
  private final int s2Rounds = Math.max(1, Integer.getInteger("bench.s2-rounds", 2));
  private final int idleSeconds = Integer.getInteger("bench.idle-seconds", 15);
  private final int jitSettleSeconds = Integer.getInteger("bench.jit-settle-seconds", 240);

  /** This JVM's stop-the-world collections, to tell a hop's tail from a pause (S8). */
  private final GcPauses gcPauses = new GcPauses();
  private final List<String> report = Collections.synchronizedList(new ArrayList<>());

  /** The engine's Streams producers' interceptors, through Spring Boot's Streams properties. */
  private static final String INTERCEPTOR_PROPERTY =
      "spring.kafka.streams.properties.producer.interceptor.classes";

  /** The Spring Kafka producers' interceptors (the watchers' and probers' producers). */
  private static final String PRODUCER_INTERCEPTOR_PROPERTY =
      "spring.kafka.producer.properties.interceptor.classes";

  @Test
  void failoverEventLatencyAndKafkaHops() throws Exception {
    Level level = Level.toLevel(System.getProperty("bench.log-level", "WARN"));
    ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
        .setLevel(level);
    System.setProperty("writer.rate-limit.writes-per-second", writerRate);
    System.setProperty("writer.rate-limit.burst", writerRate);
    // The engine's producers stamp each record with its send time (Streams copies the input's
    // timestamp to its outputs, so a decision's CreateTime is not when the engine sent it).
    System.setProperty(INTERCEPTOR_PROPERTY, SentAtInterceptor.class.getName());
    // And the watcher's and prober's producers, so their hops are timed from the send in µs as
    // the anchor is (a record's CreateTime is whole milliseconds, truncated).
    System.setProperty(PRODUCER_INTERCEPTOR_PROPERTY, SentAtInterceptor.class.getName());
    if (linger != null) {
      // Every Spring Kafka producer (watcher, prober) and the engine's Streams producers.
      System.setProperty("spring.kafka.producer.properties.linger.ms", linger);
      System.setProperty("engine.producer-linger", linger + "ms");
    }
    if (engineLinger != null) {
      System.setProperty("engine.producer-linger", engineLinger + "ms");
    }
    line(
        "two-cluster system benchmark, %s, N=%d Gslbs+routes per cluster, load %s",
        Instant.now(), n, load());
    // The bench's own broker (configured as the stack's), so the topic recorder can start before
    // the services do and see their first records.
    EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
    broker.brokerProperty("auto.create.topics.enable", "false");
    broker.brokerProperty("log.cleaner.min.cleanable.ratio", "0.1");
    broker.afterPropertiesSet();
    Map<String, ApiRecorder> apis = new HashMap<>();
    AtomicReference<TopicRecorder> topics = new AtomicReference<>();
    BenchTopology topology = new BenchTopology(n, PRIMARY, splitBrainSeconds);
    long[] servicesStart = {0};
    try {
      long started = System.nanoTime();
      LocalStack stack =
          LocalStack.start(
              LocalStack.Options.defaults()
                  .withSample(false)
                  .withBootstrapServers(broker.getBrokersAsString())
                  .withProbeInterval(probeInterval)
                  .withGracePeriod(Duration.ofMinutes(5)),
              cluster -> {
                // Seeded before the services start: they read it with their initial lists, and
                // the mock API serves the creates without watch fan-out.
                apis.put(cluster.name(), new ApiRecorder(cluster.api(), cluster.name()));
                long seedStart = System.nanoTime();
                topology.seed(cluster.client(), cluster.site(), seedThreads);
                line(
                    "%s: seeded %,d objects (4 nodes, %d each of Services, EndpointSlices,"
                        + " HTTPRoutes, Gslbs) in %.1f s; load %s",
                    cluster.name(), 4 + 4 * n, n, seconds(seedStart), load());
                if (cluster.name().equals(PRIMARY)) {
                  topics.set(
                      new TopicRecorder(
                          broker.getBrokersAsString(),
                          recordedTopics(),
                          Set.of(
                              topic(SECONDARY, Topics.PEER_ANSWERS),
                              topic(PRIMARY, Topics.PEER_ANSWERS)),
                          recorderPerTopic));
                  servicesStart[0] = System.nanoTime();
                }
              });
      try (stack) {
        line(
            "stack started in %.1f s (broker, 2 mock APIs, seeding, 10 services; the services in"
                + " %.1f s)",
            seconds(started), seconds(servicesStart[0]));
        run(stack, apis.get(SECONDARY), apis.get(PRIMARY), topics.get(), servicesStart[0]);
      }
    } finally {
      apis.values().forEach(ApiRecorder::close);
      if (topics.get() != null) {
        topics.get().close();
      }
      broker.destroy();
      System.clearProperty("writer.rate-limit.writes-per-second");
      System.clearProperty("writer.rate-limit.burst");
      System.clearProperty("spring.kafka.producer.properties.linger.ms");
      System.clearProperty("engine.producer-linger");
      System.clearProperty(INTERCEPTOR_PROPERTY);
      System.clearProperty(PRODUCER_INTERCEPTOR_PROPERTY);
      SentAtInterceptor.forgetAcknowledgements();
      gcPauses.close();
      writeReport();
    }
  }

  private static String topic(String cluster, TopicSpec<?> spec) {
    return new TopicSettings(cluster + ".", null, null).name(spec);
  }

  private static List<String> recordedTopics() {
    return List.of(
        topic(SECONDARY, Topics.ROUTES),
        topic(SECONDARY, Topics.GSLBS),
        topic(SECONDARY, Topics.ENDPOINTS),
        topic(SECONDARY, Topics.PEER_ANSWERS),
        topic(PRIMARY, Topics.PEER_ANSWERS),
        topic(SECONDARY, Topics.DECISIONS),
        topic(SECONDARY, Topics.GSLB_STATUS));
  }

  private void run(
      LocalStack stack,
      ApiRecorder euApi,
      ApiRecorder usApi,
      TopicRecorder topics,
      long servicesStart)
      throws Exception {
    Cluster eu = stack.cluster(SECONDARY);
    Cluster us = stack.cluster(PRIMARY);
    settings(eu);
    Set<String> usBoth = BenchTopology.targets(us.site(), true, true);
    Set<String> euBoth = BenchTopology.targets(eu.site(), true, true);
    Set<String> euZoneB = BenchTopology.targets(eu.site(), false, true);
    String euEndpoints = topic(SECONDARY, Topics.ENDPOINTS);
    String euDecisions = topic(SECONDARY, Topics.DECISIONS);
    String euStatus = topic(SECONDARY, Topics.GSLB_STATUS);
    String euAnswers = topic(SECONDARY, Topics.PEER_ANSWERS);
    List<String> recorded = recordedTopics();
    // ------------------------------------------------------------------ settle
    waitFor(
        "every DNSEndpoint of both clusters as expected (eu: us's targets, its own local"
            + " targets; us: its own)",
        Duration.ofSeconds(Long.getLong("bench.settle-timeout-s", 480)),
        () -> {
          int euOk = count(i -> matches(euApi.latest(i), usBoth, euBoth));
          int usOk = count(i -> matches(usApi.latest(i), usBoth, null));
          return euOk == n && usOk == n;
        },
        () ->
            String.format(
                Locale.ROOT,
                "eu %d/%d, us %d/%d settled; writes eu %d+%d status, us %d+%d status;"
                    + " g-0 last written eu %s, us %s %s%s",
                count(i -> matches(euApi.latest(i), usBoth, euBoth)),
                n,
                count(i -> matches(usApi.latest(i), usBoth, null)),
                n,
                euApi.dnsEndpointWrites(),
                euApi.statusWrites(),
                usApi.dnsEndpointWrites(),
                usApi.statusWrites(),
                euApi.latest(0),
                usApi.latest(0),
                euApi.decodeFailures(),
                usApi.decodeFailures()));
    line(
        "settled %.1f s after the services began to start; DNSEndpoint writes eu %,d, us %,d;"
            + " Gslb status"
            + " writes eu %,d, us %,d; mock API requests eu %,d (%.1f s serving), us %,d (%.1f s"
            + " serving)",
        seconds(servicesStart),
        euApi.dnsEndpointWrites(),
        usApi.dnsEndpointWrites(),
        euApi.statusWrites(),
        usApi.statusWrites(),
        euApi.requests(),
        euApi.dispatchNanos() / 1e9,
        usApi.requests(),
        usApi.dispatchNanos() / 1e9);
    line("  slowest answers of eu's mock API so far:%s", euApi.slowest());
    quiet(euApi, usApi);
    if (runS1 && s1Warmup) {
      // performance.md: warm-up excluded. S1's changes run code the seeding never ran (an
      // endpoint turning not ready and back, in every service); without a pass of them first,
      // the measured pass shares the machine with the JIT compiling that code.
      int offset = Math.max(1, n / changes / 2);
      S1 warm = s1(eu, euApi, false, euZoneB, offset);
      S1 warmBack = s1(eu, euApi, true, euBoth, offset);
      line(
          "S1 warm-up, not measured: %d other routes' endpoints made not ready, then ready again"
              + " (p99 %.1f / %.1f ms)",
          changes, Stats.of(warm.latencies).p99(), Stats.of(warmBack.latencies).p99());
      quiet(euApi, usApi);
    }
    jitSettle();
    idle(euApi, usApi);

    // ------------------------------------------------------------------ anchor
    KafkaEndToEnd anchor =
        KafkaEndToEnd.run(stack.bootstrapServers(), "bench.end-to-end-latency", e2eMessages, 300);
    PreciseEndToEnd precise =
        PreciseEndToEnd.run(
            stack.bootstrapServers(), "bench.end-to-end-latency-ns", e2eMessages, 300);
    line(
        "anchor: Kafka EndToEndLatency on the same broker, %d round trips of 300 B, acks=1:"
            + " avg %.2f ms, p50 %d ms, p99 %d ms, p99.9 %d ms (whole ms, truncated); load %s",
        anchor.messages(), anchor.avgMillis(), anchor.p50(), anchor.p99(), anchor.p999(), load());
    line("  %s", describe(precise));

    if (!runS1) {
      // S2 alone, as soon as the stack has settled (see bench.s1).
      line("S1 and S8 skipped (bench.s1=false)");
      quiet(euApi, usApi);
      s2Rounds(us, euApi, usApi, topics, euAnswers, euDecisions, usBoth);
      return;
    }

    // ------------------------------------------------------------------ S1
    Rebuilds beforeS1 = Rebuilds.of(eu);
    long compiledBeforeS1 = compiledMillis();
    SentAtInterceptor.recordAcknowledgements(true); // for S8's split, S1's passes only
    S1 s1 = s1(eu, euApi, false, euZoneB, 0);
    long compiledS1 = compiledMillis() - compiledBeforeS1;
    Rebuilds afterS1 = Rebuilds.of(eu);
    line("");
    line(
        "S1 event -> DNSEndpoint write, eu, %d changes at %.0f/s, each a zone-a endpoint made not"
            + " ready (load %s):",
        changes, rate, load());
    printS1(s1);
    line("  %s", afterS1.since(beforeS1));
    line("  the JIT compiled for %.1f s during this pass", compiledS1 / 1000.0);
    List<Double> engineHop = s1Breakdown(s1, topics, euEndpoints, euDecisions);

    // ------------------------------------------------------------------ S1 reversed + anchor
    // The same routes' endpoints made ready again at the same rate, with EndToEndLatency running
    // alongside: an anchor taken under the same load as the hops it is compared with.
    CompletableFuture<KafkaEndToEnd> loadedRun =
        CompletableFuture.supplyAsync(
            () ->
                KafkaEndToEnd.run(
                    stack.bootstrapServers(), "bench.end-to-end-latency-loaded", e2eMessages, 300));
    CompletableFuture<PreciseEndToEnd> loadedPreciseRun =
        loadedRun.thenApply(
            done ->
                PreciseEndToEnd.run(
                    stack.bootstrapServers(),
                    "bench.end-to-end-latency-loaded-ns",
                    e2eMessages,
                    300));
    long compiledBefore = compiledMillis();
    S1 back = s1(eu, euApi, true, euBoth, 0);
    SentAtInterceptor.recordAcknowledgements(false);
    long compiledBack = compiledMillis() - compiledBefore;
    KafkaEndToEnd loaded = loadedRun.join();
    PreciseEndToEnd loadedPrecise = loadedPreciseRun.join();
    line("");
    line(
        "S1 reversed (the same endpoints ready again), with EndToEndLatency running alongside"
            + " (load %s):",
        load());
    printS1(back);
    line("  the JIT compiled for %.1f s during this pass", compiledBack / 1000.0);
    List<Double> engineHopBack = s1Breakdown(back, topics, euEndpoints, euDecisions);
    line(
        "  anchor under this load: EndToEndLatency %d round trips: avg %.2f ms, p50 %d ms, p99 %d"
            + " ms, p99.9 %d ms",
        loaded.messages(), loaded.avgMillis(), loaded.p50(), loaded.p99(), loaded.p999());
    line("  %s", describe(loadedPrecise));

    // ------------------------------------------------------------------ S2
    quiet(euApi, usApi);
    Rebuilds beforeS2 = Rebuilds.of(eu);
    long[] s2Window = s2Rounds(us, euApi, usApi, topics, euAnswers, euDecisions, usBoth);
    line("S2 rounds and fail backs: %s", Rebuilds.of(eu).since(beforeS2));

    // ------------------------------------------------------------------ S8
    line("");
    line("S8 per-hop delivery latency (record CreateTime -> received by a consumer here):");
    line(
        "  anchors: EndToEndLatency's loop timed in ns, p99 %.2f ms before S1 (stack idle), %.2f"
            + " ms alongside S1 reversed; the tool's own whole-ms p99 %d and %d ms (ratios to"
            + " those, with max(p99, 1 ms), in brackets)",
        precise.p99(), loadedPrecise.p99(), anchor.p99(), loaded.p99());
    double[] anchorP99 = {precise.p99(), Math.max(1, anchor.p99())};
    double[] loadedP99 = {loadedPrecise.p99(), Math.max(1, loaded.p99())};
    long[] backWindow = {
      WallClock.micros(back.startNanos) / 1000, WallClock.micros(back.endNanos) / 1000
    };
    long[] s1Window = {
      WallClock.micros(s1.startNanos) / 1000, WallClock.micros(s1.endNanos) / 1000
    };
    for (String topic : recorded) {
      List<TopicRecorder.Received> all = topics.received(topic);
      boolean copied = topic.equals(euDecisions) || topic.equals(euStatus);
      line(
          "  %s%s",
          topic,
          copied
              ? " (Kafka Streams copies the input record's timestamp to its outputs: CreateTime"
                  + " -> receipt here is input hop + engine + this hop)"
              : "");
      line(
          "    cold, first 5 s of the topic's traffic: %s%s",
          window(all, null).format(),
          copied ? " (includes the engine holding decisions until the inputs are complete)" : "");
      line("    during S1: %s", withRatio(window(all, s1Window), anchorP99));
      line(
          "    during S1 reversed, against the anchor run alongside: %s",
          withRatio(window(all, backWindow), loadedP99));
      if (topic.equals(euAnswers)) {
        line("    during S2 (the failure burst): %s", withRatio(window(all, s2Window), anchorP99));
      }
      if (all.stream().anyMatch(r -> r.sentMicros() >= 0)) {
        line(
            copied
                ? "    engine -> writer hop (the engine's send, stamped by %s, -> received):"
                : "    from the producer's send, stamped by %s, -> received (CreateTime is whole"
                    + " ms, truncated, which adds 0-1 ms to each figure above):",
            SentAtInterceptor.class.getSimpleName());
        line("      during S1: %s", withRatio(sentWindow(all, s1Window), anchorP99));
        line("        %s", pauseSplit(topic, all, s1Window, anchorP99));
        line(
            "      during S1 reversed, against the anchor run alongside: %s",
            withRatio(sentWindow(all, backWindow), loadedP99));
        line("        %s", pauseSplit(topic, all, backWindow, loadedP99));
      }
    }
    line(
        "  engine hop during S1 (%s received -> %s received, same consumer): %s",
        euEndpoints, euDecisions, withRatio(Stats.of(engineHop), anchorP99));
    line(
        "  engine hop during S1 reversed, against the anchor run alongside: %s",
        withRatio(Stats.of(engineHopBack), loadedP99));
  }

  /**
   * The hops of {@link #sentWindow} split by whether a stop-the-world collection of this JVM
   * overlapped the record's flight (send to receipt): those hops were held by the pause, not by
   * Kafka or the services; and each hop split at the producer's acknowledgement: send to the
   * broker's acknowledgement (the producer's queue, the request, the append, the response), and
   * that acknowledgement to receipt here (negative when the fetch answered first).
   */
  private String pauseSplit(
      String topic, List<TopicRecorder.Received> records, long[] window, double[] anchor) {
    List<Double> clear = new ArrayList<>();
    List<Double> toAck = new ArrayList<>();
    List<Double> ackToReceipt = new ArrayList<>();
    int held = 0;
    for (TopicRecorder.Received r : records) {
      long sentMillis = r.sentMicros() / 1000;
      if (r.sentMicros() < 0 || sentMillis < window[0] || sentMillis > window[1]) {
        continue;
      }
      long acked = r.ackedMicros(topic);
      if (acked >= 0) {
        toAck.add((acked - r.sentMicros()) / 1000.0);
        ackToReceipt.add((r.receivedMicros() - acked) / 1000.0);
      }
      if (gcPauses.overlaps(r.sentMicros(), r.receivedMicros())) {
        held++;
      } else {
        clear.add(r.sentLatencyMillis());
      }
    }
    List<GcPauses.Pause> pauses = gcPauses.within(window[0] * 1000, window[1] * 1000);
    double total = 0;
    double longest = 0;
    for (GcPauses.Pause p : pauses) {
      double ms = (p.endMicros() - p.startMicros()) / 1000.0;
      total += ms;
      longest = Math.max(longest, ms);
    }
    return String.format(
            Locale.ROOT,
            "GC pauses in the window: %d, %.0f ms in all, longest %.0f ms; hops in flight during"
                + " one (+/- %d ms): %d; the others: ",
            pauses.size(),
            total,
            longest,
            GcPauses.SLACK_MICROS / 1000,
            held)
        + withRatio(Stats.of(clear), anchor)
        + "; send -> acknowledged: "
        + Stats.of(toAck).format()
        + "; acknowledged -> received: "
        + Stats.of(ackToReceipt).format();
  }

  /** The stats with their p99's ratio to the precise anchor's and, in brackets, the tool's. */
  private static String withRatio(Stats stats, double[] anchorP99) {
    if (stats.count() == 0) {
      return stats.format();
    }
    return stats.format()
        + String.format(
            Locale.ROOT,
            "  -> p99 / anchor p99 = %.2f (%.2f)",
            stats.p99() / anchorP99[0],
            stats.p99() / anchorP99[1]);
  }

  private static String describe(PreciseEndToEnd e) {
    return String.format(
        Locale.ROOT,
        "the same loop timed in ns (%s): %d round trips in %.1f s, avg %.2f ms, p50 %.2f ms, p99"
            + " %.2f ms, p99.9 %.2f ms; the p99 of each whole second of the run: %s",
        PreciseEndToEnd.class.getSimpleName(),
        e.messages(),
        e.seconds(),
        e.avgMillis(),
        e.p50(),
        e.p99(),
        e.p999(),
        e.secondP99s().stream()
            .map(v -> String.format(Locale.ROOT, "%.1f", v))
            .collect(Collectors.joining(" ")));
  }

  /** The JIT compilers' total compilation time so far, or 0 where the JVM does not say. */
  private static long compiledMillis() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    return jit != null && jit.isCompilationTimeMonitoringSupported()
        ? jit.getTotalCompilationTime()
        : 0;
  }

  // -------------------------------------------------------------------------------------- S1

  private static final class S1 {
    final List<Double> latencies = new ArrayList<>();
    final List<Double> fromReturn = new ArrayList<>();
    final Map<Integer, ApiRecorder.SliceUpdate> t0 = new HashMap<>();
    final Map<Integer, ApiRecorder.Write> t1 = new HashMap<>();
    long startNanos;
    long endNanos;
    long dnsEndpointWrites;
    long statusWrites;
  }

  private void printS1(S1 s1) {
    line("  T0 = slice update accepted by the mock API, T1 = DNSEndpoint write arrived:");
    line("    %s", Stats.of(s1.latencies).format());
    line("  the same from the harness's request returning: %s", Stats.of(s1.fromReturn).format());
    line(
        "  writes per change at eu: %.2f DNSEndpoint + %.2f Gslb status",
        s1.dnsEndpointWrites / (double) changes, s1.statusWrites / (double) changes);
  }

  /**
   * One pass of {@code changes} EndpointSlice changes at {@code bench.rate}: routes spread evenly
   * over the N, shifted by {@code offset} (a warm-up pass takes routes the measured ones do not).
   */
  private S1 s1(
      Cluster eu, ApiRecorder euApi, boolean ready, Set<String> expectedLocal, int offset)
      throws Exception {
    S1 result = new S1();
    int[] routes = new int[changes];
    for (int j = 0; j < changes; j++) {
      routes[j] = (int) (((long) j * n / changes + offset) % n);
    }
    long[] returned = new long[changes];
    long writesBefore = euApi.dnsEndpointWrites();
    long statusBefore = euApi.statusWrites();
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    ExecutorService senders = Executors.newFixedThreadPool(4);
    CountDownLatch sent = new CountDownLatch(changes);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long period = (long) (1e9 / rate);
    result.startNanos = System.nanoTime();
    try {
      for (int j = 0; j < changes; j++) {
        int change = j;
        ticker.schedule(
            () ->
                senders.submit(
                    () -> {
                      try {
                        BenchTopology.setZoneAReady(eu.client(), eu.site(), routes[change], ready);
                        returned[change] = System.nanoTime();
                      } catch (RuntimeException e) {
                        failure.compareAndSet(null, e);
                      } finally {
                        sent.countDown();
                      }
                    }),
            j * period,
            TimeUnit.NANOSECONDS);
      }
      assertThat(sent.await((long) (changes / rate) + 120, TimeUnit.SECONDS))
          .as("all changes sent")
          .isTrue();
      assertThat(failure.get()).as("a change failed").isNull();
      waitFor(
          "every change's DNSEndpoint write at eu",
          Duration.ofSeconds(120),
          () -> {
            for (int route : routes) {
              if (match(euApi, route, expectedLocal) == null) {
                return false;
              }
            }
            return true;
          },
          () -> {
            int seen = 0;
            for (int route : routes) {
              seen += match(euApi, route, expectedLocal) == null ? 0 : 1;
            }
            return seen + "/" + changes + " observed";
          });
    } finally {
      ticker.shutdownNow();
      senders.shutdownNow();
    }
    result.endNanos = System.nanoTime();
    euApi.drain();
    for (int j = 0; j < changes; j++) {
      ApiRecorder.SliceUpdate t0 = euApi.sliceUpdate(routes[j]);
      ApiRecorder.Write t1 = match(euApi, routes[j], expectedLocal);
      result.t0.put(routes[j], t0);
      result.t1.put(routes[j], t1);
      result.latencies.add((t1.receivedNanos() - t0.answeredNanos()) / 1e6);
      result.fromReturn.add((t1.receivedNanos() - returned[j]) / 1e6);
    }
    result.dnsEndpointWrites = euApi.dnsEndpointWrites() - writesBefore;
    result.statusWrites = euApi.statusWrites() - statusBefore;
    return result;
  }

  /** The first write of {@code g-i} after its slice update that carries the new local targets. */
  private static ApiRecorder.Write match(ApiRecorder api, int i, Set<String> expectedLocal) {
    ApiRecorder.SliceUpdate update = api.sliceUpdate(i);
    if (update == null) {
      return null;
    }
    for (ApiRecorder.Write w : api.writes(i)) {
      if (w.receivedNanos() > update.receivedNanos() && w.localTargets().equals(expectedLocal)) {
        return w;
      }
    }
    return null;
  }

  /**
   * Splits S1's latency into its stages with the records the recorder saw: the watcher (T0 to the
   * endpoints record's CreateTime), the endpoints hop (CreateTime to receipt), the engine
   * (endpoints record received to decision received, both by the same consumer), and the writer
   * (decision received to the write arriving at the mock API).
   */
  private List<Double> s1Breakdown(
      S1 s1, TopicRecorder topics, String endpointsTopic, String decisionsTopic) {
    Map<String, List<TopicRecorder.Received>> endpoints = byKey(topics.received(endpointsTopic));
    Map<String, List<TopicRecorder.Received>> decisions = byKey(topics.received(decisionsTopic));
    List<Double> watcher = new ArrayList<>();
    List<Double> hop = new ArrayList<>();
    List<Double> engine = new ArrayList<>();
    List<Double> writer = new ArrayList<>();
    List<Double> fromHeader = new ArrayList<>();
    int unmatched = 0;
    for (Map.Entry<Integer, ApiRecorder.SliceUpdate> e : s1.t0.entrySet()) {
      int i = e.getKey();
      long t0 = e.getValue().answeredNanos();
      long t1 = s1.t1.get(i).receivedNanos();
      TopicRecorder.Received ep =
          firstAfter(
              endpoints.get("Service/" + BenchTopology.NAMESPACE + "/svc-" + i),
              e.getValue().receivedNanos());
      TopicRecorder.Received decision =
          ep == null
              ? null
              : firstAfter(
                  decisions.get("Gslb/" + BenchTopology.NAMESPACE + "/" + BenchTopology.gslb(i)),
                  ep.receivedNanos() - 1);
      if (ep == null || decision == null || decision.receivedNanos() > t1) {
        unmatched++;
        continue;
      }
      watcher.add(ep.createTimeMillis() - WallClock.micros(t0) / 1000.0);
      hop.add(ep.latencyMillis());
      engine.add((decision.receivedNanos() - ep.receivedNanos()) / 1e6);
      writer.add((t1 - decision.receivedNanos()) / 1e6);
      if (decision.eventTimeMillis() >= 0) {
        fromHeader.add(WallClock.micros(t1) / 1000.0 - decision.eventTimeMillis());
      }
    }
    line("  stages (%d changes matched to their records, %d not):", watcher.size(), unmatched);
    line("    watcher: T0 -> endpoints record CreateTime     %s", Stats.of(watcher).format());
    line("    Kafka: endpoints CreateTime -> received here    %s", Stats.of(hop).format());
    line("    engine: endpoints received -> decision received %s", Stats.of(engine).format());
    line("    writer: decision received -> write at the API   %s", Stats.of(writer).format());
    line(
        "  from the decision's cairn-event-time header (the watcher's event time, carried by the"
            + " engine) -> write at the API: %s (%d of %d matched decisions carry it)",
        Stats.of(fromHeader).format(), fromHeader.size(), watcher.size());
    return engine;
  }

  private static Map<String, List<TopicRecorder.Received>> byKey(
      List<TopicRecorder.Received> records) {
    Map<String, List<TopicRecorder.Received>> map = new HashMap<>();
    for (TopicRecorder.Received r : records) {
      map.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
    }
    return map;
  }

  private static TopicRecorder.Received firstAfter(
      List<TopicRecorder.Received> records, long nanos) {
    if (records == null) {
      return null;
    }
    for (TopicRecorder.Received r : records) {
      if (r.receivedNanos() > nanos) {
        return r;
      }
    }
    return null;
  }

  // -------------------------------------------------------------------------------------- S8

  /**
   * Delivery latency of the records created in the window {@code [from, to]} (epoch ms), or, for
   * {@code null}, of those created in the first 5 s after the topic's first record (cold start).
   */
  private static Stats window(List<TopicRecorder.Received> records, long[] window) {
    long first =
        records.stream().mapToLong(TopicRecorder.Received::createTimeMillis).min().orElse(0);
    List<Double> latencies = new ArrayList<>();
    for (TopicRecorder.Received r : records) {
      long ts = r.createTimeMillis();
      boolean in = window == null ? ts < first + 5000 : ts >= window[0] && ts <= window[1];
      if (ts >= 0 && in) {
        latencies.add(r.latencyMillis());
      }
    }
    return Stats.of(latencies);
  }

  /**
   * Delivery latency from the {@link SentAtInterceptor} header of the records sent in the window
   * {@code [from, to]} (epoch ms).
   */
  private static Stats sentWindow(List<TopicRecorder.Received> records, long[] window) {
    List<Double> latencies = new ArrayList<>();
    for (TopicRecorder.Received r : records) {
      long sentMillis = r.sentMicros() / 1000;
      if (r.sentMicros() >= 0 && sentMillis >= window[0] && sentMillis <= window[1]) {
        latencies.add(r.sentLatencyMillis());
      }
    }
    return Stats.of(latencies);
  }

  // -------------------------------------------------------------------------------------- S2

  /**
   * Runs S2 {@code bench.s2-rounds} times, each after every eu DNSEndpoint is back on us's
   * targets, and returns the first round's window (epoch ms) for S8.
   */
  private long[] s2Rounds(
      Cluster us,
      ApiRecorder euApi,
      ApiRecorder usApi,
      TopicRecorder topics,
      String euAnswers,
      String euDecisions,
      Set<String> usTargets) {
    long[] first = s2(1, us, euApi, topics, euAnswers, euDecisions, usTargets);
    for (int round = 2; round <= s2Rounds; round++) {
      long back = System.nanoTime();
      waitFor(
          "every eu DNSEndpoint back on us's targets",
          Duration.ofSeconds(240L + n / 50),
          () -> count(i -> usTargets.equals(hostTargets(euApi.latest(i)))) == n,
          () -> count(i -> usTargets.equals(hostTargets(euApi.latest(i)))) + "/" + n + " back");
      line("");
      line(
          "fail back: every eu DNSEndpoint on us's targets again %.1f s after us answered again",
          (System.nanoTime() - back) / 1e9);
      quiet(euApi, usApi);
      s2(round, us, euApi, topics, euAnswers, euDecisions, usTargets);
    }
    return first;
  }

  /** Runs S2 once and returns its window (epoch ms): from the cut to the last failover write. */
  private long[] s2(
      int round,
      Cluster us,
      ApiRecorder euApi,
      TopicRecorder topics,
      String euAnswers,
      String euDecisions,
      Set<String> usTargets) {
    int notOnPrimary = count(i -> !usTargets.equals(hostTargets(euApi.latest(i))));
    assertThat(notOnPrimary).as("eu Gslbs not answering us's targets before the cut").isZero();
    line("");
    line(
        "S2%s us black-holed for eu (no answer, no ICMP); N=%d failover Gslbs, threshold %d s,"
            + " probe interval %d ms; load %s",
        s2Rounds > 1 ? " round " + round + " of " + s2Rounds : "",
        n,
        splitBrainSeconds,
        probeInterval.toMillis(),
        load());
    long writesBefore = euApi.dnsEndpointWrites();
    long statusBefore = euApi.statusWrites();
    long compiledBefore = compiledMillis();
    long cut = System.nanoTime();
    us.setSilent(true);
    try {
      waitFor(
          "every eu DNSEndpoint without us's targets",
          Duration.ofSeconds(splitBrainSeconds + 240L + n / 50),
          () -> count(i -> failedOver(euApi.latest(i), usTargets)) == n,
          () -> count(i -> failedOver(euApi.latest(i), usTargets)) + "/" + n + " failed over");
      euApi.drain();
    } finally {
      us.setSilent(false);
    }
    long end = System.nanoTime();
    long compiled = compiledMillis() - compiledBefore;
    long writes = euApi.dnsEndpointWrites() - writesBefore;
    long statuses = euApi.statusWrites() - statusBefore;
    long cutMicros = WallClock.micros(cut);
    Map<String, List<TopicRecorder.Received>> decisions = byKey(topics.received(euDecisions));
    List<Double> engine = new ArrayList<>();
    List<Double> writer = new ArrayList<>();
    long firstWrite = Long.MAX_VALUE;
    long lastWrite = Long.MIN_VALUE;
    Map<String, List<TopicRecorder.Received>> answers = byKey(topics.received(euAnswers));
    CairnDeserializer<PeerAnswer> decoder = new CairnDeserializer<>(PeerAnswer.class);
    List<Double> raw = new ArrayList<>();
    List<Double> minusThreshold = new ArrayList<>();
    List<Double> afterExpiry = new ArrayList<>();
    List<Double> detection = new ArrayList<>();
    List<Double> afterDetection = new ArrayList<>();
    Map<ProbeStatus, Integer> firstFailures = new HashMap<>();
    for (int i = 0; i < n; i++) {
      ApiRecorder.Write w = null;
      for (ApiRecorder.Write candidate : euApi.writes(i)) {
        if (candidate.receivedNanos() > cut && failedOver(candidate, usTargets)) {
          w = candidate;
          break;
        }
      }
      assertThat(w).as("failover write of g-" + i).isNotNull();
      double t = (w.receivedNanos() - cut) / 1e6;
      firstWrite = Math.min(firstWrite, w.receivedNanos());
      lastWrite = Math.max(lastWrite, w.receivedNanos());
      raw.add(t);
      minusThreshold.add(t - splitBrainSeconds * 1000.0);
      TopicRecorder.Received answer = null;
      PeerAnswer decoded = null;
      for (TopicRecorder.Received r :
          answers.getOrDefault("PeerAnswer/" + PRIMARY + "/" + BenchTopology.host(i), List.of())) {
        if (r.receivedNanos() > cut && r.value() != null) {
          PeerAnswer a = decoder.deserialize(euAnswers, r.value());
          if (a.status() != ProbeStatus.OK) {
            answer = r;
            decoded = a;
            break;
          }
        }
      }
      if (answer == null) {
        continue;
      }
      firstFailures.merge(decoded.status(), 1, Integer::sum);
      detection.add((answer.createTimeMillis() * 1000.0 - cutMicros) / 1000);
      afterDetection.add((w.receivedNanos() - answer.receivedNanos()) / 1e6);
      TopicRecorder.Received decision =
          firstAfter(
              decisions.get("Gslb/" + BenchTopology.NAMESPACE + "/" + BenchTopology.gslb(i)),
              answer.receivedNanos() - 1);
      if (decision != null && decision.receivedNanos() <= w.receivedNanos()) {
        engine.add((decision.receivedNanos() - answer.receivedNanos()) / 1e6);
        writer.add((w.receivedNanos() - decision.receivedNanos()) / 1e6);
      }
      if (decoded.lastSuccess() != null) {
        Instant expiry = decoded.lastSuccess().plusSeconds(splitBrainSeconds);
        long expiryMicros = expiry.getEpochSecond() * 1_000_000 + expiry.getNano() / 1000;
        afterExpiry.add((WallClock.micros(w.receivedNanos()) - expiryMicros) / 1000.0);
      }
    }
    line("  raw: cut -> failover write at eu's API      %s", Stats.of(raw).format());
    line(
        "  raw minus the threshold (%d s)            %s",
        splitBrainSeconds, Stats.of(minusThreshold).format());
    line("  after expiry: (lastSuccess + threshold) -> write  %s", Stats.of(afterExpiry).format());
    line(
        "  detection: cut -> peer answer published (CreateTime)  %s", Stats.of(detection).format());
    line("  after detection: peer answer received -> write  %s", Stats.of(afterDetection).format());
    line(
        "    of which engine: peer answer received -> decision received  %s",
        Stats.of(engine).format());
    line(
        "    of which writer: decision received -> write at the API      %s",
        Stats.of(writer).format());
    line("  first failing peer answers by status: %s", firstFailures);
    line(
        "  the JIT compiled for %.1f s from the cut to the last failover write (%.1f s)",
        compiled / 1000.0, (end - cut) / 1e9);
    line(
        "  eu's writes during the failover: %,d DNSEndpoint + %,d Gslb status; first to last"
            + " failover write %.1f s = %.0f writes/s",
        writes,
        statuses,
        (lastWrite - firstWrite) / 1e9,
        (writes + statuses) / Math.max(0.001, (lastWrite - firstWrite) / 1e9));
    line(
        "  target p99 <= interval + attempts x timeout = %d ms + 2 x 1000 ms; raw p99 %.0f ms",
        probeInterval.toMillis(), Stats.of(raw).p99());
    return new long[] {cutMicros / 1000, WallClock.micros(end) / 1000};
  }

  private static boolean failedOver(ApiRecorder.Write w, Set<String> usTargets) {
    if (w == null || w.hostTargets().isEmpty()) {
      return false;
    }
    return Collections.disjoint(w.hostTargets(), usTargets);
  }

  // -------------------------------------------------------------------------------------- common

  private static Set<String> hostTargets(ApiRecorder.Write w) {
    return w == null ? Set.of() : w.hostTargets();
  }

  private static boolean matches(ApiRecorder.Write w, Set<String> host, Set<String> local) {
    if (w == null || !w.hostTargets().equals(host)) {
      return false;
    }
    return local == null || w.localTargets().equals(local);
  }

  private int count(java.util.function.IntPredicate p) {
    int c = 0;
    for (int i = 0; i < n; i++) {
      if (p.test(i)) {
        c++;
      }
    }
    return c;
  }

  private void settings(Cluster eu) {
    Map<String, ConfigurableApplicationContext> services = eu.services();
    StrategyEngineProperties engine =
        services.get("strategy-engine").getBean(StrategyEngineProperties.class);
    WriterProperties writer = services.get("record-writer").getBean(WriterProperties.class);
    ProberProperties prober = services.get("health-prober").getBean(ProberProperties.class);
    line(
        "settings: engine commit-interval %s, statestore-cache-max-bytes %d, producer-linger %s;"
            + " writer rate-limit %s writes/s, burst %s (default 50/100); prober interval %s,"
            + " query-timeout %s, query-attempts %d; watcher and prober linger.ms %s; topic"
            + " recorder: %s",
        engine.commitInterval(),
        engine.statestoreCacheMaxBytes(),
        engine.producerLinger(),
        writer.rateLimit().writesPerSecond(),
        writer.rateLimit().burst(),
        prober.interval(),
        prober.queryTimeout(),
        prober.queryAttempts(),
        linger == null ? "5 (their default)" : linger,
        recorderPerTopic ? "a consumer per topic" : "one consumer for every topic");
  }

  /**
   * Waits until the JIT compilers are quiet: at most a second of compilation in 10 s, or {@code
   * bench.jit-settle-seconds} have passed. The stack is ten services in one JVM, whose compilers
   * (one C2 thread on two CPUs) work through the methods all ten made hot while starting: the
   * compiler takes the hottest first, so what only the start-up ran (bean creation, AOP matching,
   * class reading) waits until the stack is idle and then keeps a core busy for a minute or two,
   * during the measurements if nothing waits for it (2026-11-30: C2 at 93-98 % of a core in the
   * idle phase, at 1k and 10k). A cluster's services each compile their own start-up once and
   * long before a failover.
   */
  private void jitSettle() throws InterruptedException {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    if (jitSettleSeconds <= 0 || jit == null || !jit.isCompilationTimeMonitoringSupported()) {
      line("JIT: not waited for");
      return;
    }
    long start = System.nanoTime();
    long total = jit.getTotalCompilationTime();
    while (true) {
      Thread.sleep(10_000);
      long now = jit.getTotalCompilationTime();
      long compiled = now - total;
      total = now;
      double waited = seconds(start);
      if (compiled <= 1_000) {
        line(
            "JIT: the compilers went quiet (%.1f s of compilation in the last 10 s) after %.0f s",
            compiled / 1000.0,
            waited);
        return;
      }
      if (waited >= jitSettleSeconds) {
        line(
            "JIT: still compiling after %.0f s (%.1f s of compilation in the last 10 s);"
                + " measuring anyway",
            waited,
            compiled / 1000.0);
        return;
      }
    }
  }

  /**
   * What the settled stack costs with nothing changing: the CPU of every thread of the JVM over
   * {@code bench.idle-seconds} (0 skips it), by thread kind, and the requests each mock API
   * answered meanwhile, by kind. What runs here (the probers' sweeps, the responders answering
   * them, resyncs) also runs under every measurement that follows.
   */
  private void idle(ApiRecorder euApi, ApiRecorder usApi) throws InterruptedException {
    if (idleSeconds <= 0) {
      return;
    }
    Map<String, Long> euBefore = euApi.requestsByKind();
    Map<String, Long> usBefore = usApi.requestsByKind();
    ThreadCpu before = ThreadCpu.snapshot();
    Thread.sleep(idleSeconds * 1000L);
    List<String> cpu = ThreadCpu.snapshot().since(before, 16);
    line("");
    line(
        "idle: the settled stack with nothing changing, %s (load %s); by thread:",
        cpu.get(0),
        load());
    cpu.subList(1, cpu.size()).forEach(l -> line("  %s", l));
    line("  eu's mock API answered %s", requestsSince(euBefore, euApi.requestsByKind()));
    line("  us's mock API answered %s", requestsSince(usBefore, usApi.requestsByKind()));
  }

  private static String requestsSince(Map<String, Long> before, Map<String, Long> after) {
    StringBuilder text = new StringBuilder();
    after.forEach(
        (kind, count) -> {
          long n = count - before.getOrDefault(kind, 0L);
          if (n > 0) {
            text.append(text.length() == 0 ? "" : ", ").append(n).append(' ').append(kind);
          }
        });
    return text.length() == 0 ? "no request" : text.toString();
  }

  /** Waits until no DNSEndpoint or Gslb status write has arrived at either API for 3 s. */
  private void quiet(ApiRecorder... apis) {
    long start = System.nanoTime();
    try {
      Awaitility.await("no writes for 3 s")
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> {
                long last = 0;
                for (ApiRecorder a : apis) {
                  last = Math.max(last, a.lastWriteNanos());
                }
                return System.nanoTime() - last > 3_000_000_000L;
              });
      line("quiet (no writes for 3 s) after %.1f s", seconds(start));
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      line("NOT quiet after 2 min: writes go on; measuring anyway");
    }
  }

  private void waitFor(String what, Duration timeout, BooleanSupplier done, Supplier<String> info) {
    long start = System.nanoTime();
    long[] lastPrint = {start};
    Awaitility.await(what)
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              if (done.getAsBoolean()) {
                return true;
              }
              if (System.nanoTime() - lastPrint[0] > 15_000_000_000L) {
                lastPrint[0] = System.nanoTime();
                OUT.printf(
                    "  ... %s: %s (%.0f s; load %s)%n", what, info.get(), seconds(start), load());
              }
              return false;
            });
  }

  private static double seconds(long sinceNanos) {
    return (System.nanoTime() - sinceNanos) / 1e9;
  }

  private static String load() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException e) {
      return "?";
    }
  }

  private void line(String format, Object... args) {
    String text = String.format(Locale.ROOT, format, args);
    report.add(text);
    OUT.println(text);
  }

  private void writeReport() throws IOException {
    Path dir = Path.of("target", "bench");
    Files.createDirectories(dir);
    Path file = dir.resolve("two-cluster-n" + n + ".txt");
    Files.writeString(file, String.join("\n", report) + "\n", StandardCharsets.UTF_8);
    System.out.println("report written to " + file.toAbsolutePath());
  }

  /**
   * eu's responder's rebuilds so far ({@code responder.snapshot.rebuilds}, outcome swapped, and
   * {@code responder.snapshot.rebuild.names}): what a phase cost the responder.
   */
  private record Rebuilds(long count, double totalMillis, double names, double problems) {

    static Rebuilds of(Cluster cluster) {
      io.micrometer.core.instrument.MeterRegistry registry =
          cluster
              .services()
              .get("dns-responder")
              .getBean(io.micrometer.core.instrument.MeterRegistry.class);
      io.micrometer.core.instrument.Timer swapped =
          registry.find("responder.snapshot.rebuilds").tag("outcome", "swapped").timer();
      io.micrometer.core.instrument.DistributionSummary names =
          registry.find("responder.snapshot.rebuild.names").summary();
      io.micrometer.core.instrument.Gauge problems =
          registry.find("responder.snapshot.problems").gauge();
      return swapped == null || names == null
          ? new Rebuilds(0, 0, 0, 0)
          : new Rebuilds(
              swapped.count(),
              swapped.totalTime(TimeUnit.MILLISECONDS),
              names.totalAmount(),
              problems == null ? Double.NaN : problems.value());
    }

    String since(Rebuilds before) {
      long n = count - before.count;
      return String.format(
          Locale.ROOT,
          "eu's responder rebuilt its view %d times, %.1f ms each on average (wall time), %.0f"
              + " names changed per rebuild; %.0f problems in its snapshot",
          n,
          n == 0 ? 0.0 : (totalMillis - before.totalMillis) / n,
          n == 0 ? 0.0 : (names - before.names) / n,
          problems);
    }
  }
}
