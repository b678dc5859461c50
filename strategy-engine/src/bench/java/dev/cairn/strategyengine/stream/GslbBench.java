package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.kafka.NamespacePartitioner;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.strategyengine.gslb.GslbDecider;
import dev.cairn.strategyengine.gslb.GslbOutcome;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.gslb.MapGslbView;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.stream.EngineMetrics.Trigger;
import dev.cairn.strategyengine.stream.EngineTopology.StoreType;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.tools.ConsumerPerformance;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Benchmarks of the Gslb core and the wired topology (not part of {@code verify}):
 *
 * <pre>
 * ./mvnw -o -pl strategy-engine -Pbench test -Dtest=GslbBench -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * 10,000 Gslbs (one host each, a third each roundRobin, failover and geoip) in 100 namespaces, two
 * peers (us, ap) answering for every host. Options: {@code -Dbench.gslbs=} (Gslbs on the broker,
 * default 10,000), {@code -Dbench.changes=} (peer-answer changes timed, default 500), {@code
 * -Dbench.bursts=} (bursts of a new answer for every host after them, default 3), {@code
 * -Dbench.store=rocksdb|in-memory} (broker run, default rocksdb), {@code -Dbench.linger=} (the
 * engine's producer linger.ms on the broker, default 5 as {@code engine.producer-linger}; Kafka
 * Streams' own default is 100), {@code -Dbench.task-idle=} (Streams {@code max.task.idle.ms}),
 * {@code -Dbench.commit-interval=} (ms, default 1000 as {@code engine.commit-interval}), {@code
 * -Dbench.histogram=true} (a class histogram of the live heap after each replay on the broker).
 * {@code -Dbench.warmups=} (replays before the measured one on the broker, default 1), {@code
 * -Dbench.preload-age=} (seconds the pre-loaded records are old, default 60), {@code
 * -Dbench.max-delay=} (the engine's {@code catch-up.max-delay} in ms, default the engine's, 2000), {@code -Dbench.idle=}
 * ({@code catch-up.idle} in ms), {@code -Dbench.rounds=} (measured rounds of the one-core runs,
 * default 10), {@code -Dbench.partitions=} (partitions of every topic on the broker, default 1;
 * the inputs are spread by namespace), {@code -Dbench.stream-threads=} (the engine's {@code
 * engine.stream-threads}, default 1), {@code -Dbench.floor-shapes=} (the I/O floors run on the
 * broker after the engine's warm-ups, each with as many warm-ups: {@code engine}, {@code
 * lean}, {@code bare} by default, also {@code readback} and {@code global_readback}; empty for
 * none; see {@link FloorShape}). Figures
 * are printed; nothing is asserted.
 */
class GslbBench {

  private static final int GSLBS = 10_000;
  private static final int NAMESPACES = 100;
  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  private static final GslbSettings SETTINGS =
      GslbSettings.defaults("eu").withZones(List.of("cloud.example.com"));

  private final Random random = new Random(42);

  @Test
  void decideThroughputOnOneCore() {
    List<GslbState> gslbs = gslbs(GSLBS);
    List<PeerAnswer> answers = new ArrayList<>();
    for (GslbState gslb : gslbs) {
      answers.addAll(peers(host(gslb), NOW, true));
    }
    MapGslbView view =
        new MapGslbView(List.of(), services(), endpoints(), answers, List.of(), List.of());
    measure("GslbDecider.decide()", gslbs, view, PlacementSettings.defaults());
  }

  /**
   * The same with node-aware local targets, as in the local stack's bench topology: each Gslb's
   * resourceRef is an HTTPRoute (its own direct-dns record switched off) whose Service has a ready
   * endpoint on a worker node in each of two zones, so every decision also runs the route's
   * placement over the two zones' ingress nodes (IPv4 and IPv6):
   *
   * <pre>
   * ./mvnw -o -pl strategy-engine -Pbench test -Dtest='GslbBench#decideWithPlacementThroughputOnOneCore' -Dsurefire.failIfNoSpecifiedTests=false
   * </pre>
   */
  @Test
  void decideWithPlacementThroughputOnOneCore() {
    PlacementFixture fixture = placementFixture();
    measure(
        "GslbDecider.decide() with node-aware placement",
        fixture.gslbs(),
        fixture.view(),
        fixture.placement());
  }

  /**
   * What the engine's JSON costs per Gslb on one thread, on the Gslbs of {@link
   * #decideWithPlacementThroughputOnOneCore}: encoding the decision and the status it publishes,
   * and decoding the Gslb record it consumes, each 5 times to warm up, then {@code bench.rounds}
   * times (default 10) on the clock:
   *
   * <pre>
   * ./mvnw -o -pl strategy-engine -Pbench test -Dtest='GslbBench#codecThroughputOnOneCore' -Dsurefire.failIfNoSpecifiedTests=false
   * </pre>
   */
  @Test
  void codecThroughputOnOneCore() {
    PlacementFixture fixture = placementFixture();
    List<GslbOutcome> outcomes = new ArrayList<>(fixture.gslbs().size());
    List<byte[]> gslbRecords = new ArrayList<>(fixture.gslbs().size());
    for (GslbState gslb : fixture.gslbs()) {
      outcomes.add(GslbDecider.decide(gslb, fixture.view(), SETTINGS, fixture.placement(), NOW));
      gslbRecords.add(EngineJson.encode(gslb));
    }
    var gslbDecoder = EngineJson.serde(GslbState.class).deserializer();
    printPerOperation(
        "encoding a decision and its status",
        onOneThread(
            outcomes.size(),
            () -> {
              long bytes = 0;
              for (GslbOutcome outcome : outcomes) {
                bytes += EngineJson.encode(outcome.decision()).length;
                bytes += EngineJson.encode(outcome.status()).length;
              }
              return bytes;
            }));
    printPerOperation(
        "decoding a Gslb record",
        onOneThread(
            gslbRecords.size(),
            () -> {
              long names = 0;
              for (byte[] gslb : gslbRecords) {
                names += gslbDecoder.deserialize(Topics.GSLBS.name(), gslb).name().length();
              }
              return names;
            }));
    // What the record-writer's readers do with every record: a Gslb status is keyed by its hosts,
    // so each one brings new property names (CairnJson.factory()).
    List<byte[]> statuses = new ArrayList<>(outcomes.size());
    for (GslbOutcome outcome : outcomes) {
      statuses.add(EngineJson.encode(outcome.status()));
    }
    for (String factory : List.of("canonicalizing (Jackson's default)", "Cairn's", "Cairn's")) {
      tools.jackson.databind.json.JsonMapper mapper =
          factory.startsWith("Cairn")
              ? dev.cairn.commonmodel.codec.CairnJson.newMapper()
              : dev.cairn.commonmodel.codec.CairnJson.newMapper(
                  tools.jackson.core.json.JsonFactory.builder().build());
      printPerOperation(
          "decoding a Gslb record with " + factory + " JSON factory",
          onOneThread(
              gslbRecords.size(),
              () -> {
                long names = 0;
                for (byte[] gslb : gslbRecords) {
                  names += mapper.readValue(gslb, GslbState.class).name().length();
                }
                return names;
              }));
      printPerOperation(
          "decoding a Gslb status with " + factory + " JSON factory",
          onOneThread(
              statuses.size(),
              () -> {
                long hosts = 0;
                for (byte[] status : statuses) {
                  hosts += mapper.readValue(status, GslbStatus.class).serviceHealth().size();
                }
                return hosts;
              }));
    }
  }

  /**
   * What {@link #onOneThread} measured: {@code times} operations in {@code cpuSeconds} of thread CPU
   * and {@code wallSeconds}, each allocating {@code allocatedEach} bytes.
   */
  private record OneThread(
      long times, double cpuSeconds, double wallSeconds, long allocatedEach, long checksum) {}

  /**
   * Runs {@code round} (each {@code perRound} operations, returning a checksum) 5 times to warm up,
   * then {@code bench.rounds} times (default 10) on the clock of this thread.
   */
  private static OneThread onOneThread(int perRound, java.util.function.LongSupplier round) {
    long checksum = 0;
    for (int i = 0; i < 5; i++) {
      checksum += round.getAsLong();
    }
    int rounds = Integer.getInteger("bench.rounds", 10);
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long start = System.nanoTime();
    long cpuStart = threads.getCurrentThreadCpuTime();
    long allocatedStart = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
    for (int i = 0; i < rounds; i++) {
      checksum += round.getAsLong();
    }
    long allocated =
        threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - allocatedStart;
    long times = (long) rounds * perRound;
    return new OneThread(
        times,
        (threads.getCurrentThreadCpuTime() - cpuStart) / 1e9,
        (System.nanoTime() - start) / 1e9,
        allocated / times,
        checksum);
  }

  private static void printPerOperation(String what, OneThread run) {
    System.out.printf(
        "%s: %,d times; thread CPU %.2f s = %.2f µs each (%,d bytes allocated each;"
            + " checksum %d)%n",
        what,
        run.times(),
        run.cpuSeconds(),
        run.cpuSeconds() * 1e6 / run.times(),
        run.allocatedEach(),
        run.checksum());
  }


  /** The Gslbs of {@link #decideWithPlacementThroughputOnOneCore}, with their view. */
  private record PlacementFixture(
      List<GslbState> gslbs, MapGslbView view, PlacementSettings placement) {}

  private PlacementFixture placementFixture() {
    List<GslbState> gslbs = new ArrayList<>(GSLBS);
    List<RouteState> routes = new ArrayList<>(GSLBS);
    List<ServiceState> services = new ArrayList<>(GSLBS);
    List<ServiceEndpoints> endpoints = new ArrayList<>(GSLBS);
    List<PeerAnswer> answers = new ArrayList<>();
    for (GslbState embedded : gslbs(GSLBS)) {
      String namespace = embedded.namespace();
      String route = "r-" + embedded.name();
      String service = "svc-" + embedded.name();
      gslbs.add(
          new GslbState(
              namespace,
              embedded.name(),
              embedded.uid(),
              new GslbResourceRef(
                  "gateway.networking.k8s.io/v1", "HTTPRoute", null, route, Map.of(), List.of()),
              List.of(),
              embedded.strategy(),
              null,
              Map.of(),
              List.of()));
      routes.add(
          new RouteState(
              "HTTPRoute",
              "gateway.networking.k8s.io/v1",
              namespace,
              route,
              "uid-" + route,
              List.of(host(embedded)),
              List.of(BackendRef.service(service)),
              Map.of("directdns.meisterlala.dev/enabled", "false"),
              List.of()));
      services.add(
          new ServiceState(
              namespace, service, "uid-" + service, "ClusterIP", List.of(), List.of(), List.of(),
              Map.of(), List.of()));
      int n = services.size();
      String suffix = (n / 250) + "." + (n % 250 + 1);
      endpoints.add(
          new ServiceEndpoints(
              namespace,
              service,
              List.of(
                  new EndpointState(List.of("10.1." + suffix), "worker-a", null, true, true, false),
                  new EndpointState(List.of("10.2." + suffix), "worker-b", null, true, true, false)),
              List.of()));
      answers.addAll(peers(host(embedded), NOW, true));
    }
    List<NodeState> nodes = new ArrayList<>();
    for (String zone : List.of("a", "b")) {
      int z = zone.equals("a") ? 1 : 2;
      nodes.add(
          new NodeState(
              "ingress-" + zone,
              "eu-west-1" + zone,
              null,
              true,
              List.of(
                  new NodeAddress("InternalIP", "10.0." + z + ".10"),
                  new NodeAddress("Hostname", "ingress-" + zone),
                  new NodeAddress("ExternalIP", "203.0.113.1" + z),
                  new NodeAddress("ExternalIP", "2001:db8:e0::1" + z)),
              Map.of(),
              List.of()));
      nodes.add(
          new NodeState(
              "worker-" + zone,
              "eu-west-1" + zone,
              null,
              false,
              List.of(
                  new NodeAddress("InternalIP", "10.0." + z + ".20"),
                  new NodeAddress("Hostname", "worker-" + zone)),
              Map.of(),
              List.of()));
    }
    MapGslbView view = new MapGslbView(routes, services, endpoints, answers, nodes, List.of());
    return new PlacementFixture(
        gslbs,
        view,
        new PlacementSettings(
            true,
            true,
            false,
            PlacementSettings.DEFAULT_DNS_RESOLVER,
            PlacementSettings.DEFAULT_RESOLUTION_MAX_STALE));
  }

  /**
   * Decides every Gslb 5 times to warm up, then {@code bench.rounds} times (default 10) on the
   * clock, and prints the decisions per second of thread CPU and the bytes allocated per decision.
   */
  private static void measure(
      String what, List<GslbState> gslbs, MapGslbView view, PlacementSettings placement) {
    OneThread run = onOneThread(gslbs.size(), () -> decideAll(gslbs, view, placement));
    System.out.printf(
        "%s: %,d decisions; thread CPU %.2f s = %,.0f decisions/s per core"
            + " (wall %.2f s = %,.0f/s; %,d bytes allocated per decision; checksum %d)%n",
        what,
        run.times(),
        run.cpuSeconds(),
        run.times() / run.cpuSeconds(),
        run.wallSeconds(),
        run.times() / run.wallSeconds(),
        run.allocatedEach(),
        run.checksum());
  }


  private static long decideAll(List<GslbState> gslbs, MapGslbView view, PlacementSettings p) {
    long records = 0;
    for (GslbState gslb : gslbs) {
      GslbOutcome outcome = GslbDecider.decide(gslb, view, SETTINGS, p, NOW);
      records += outcome.decision().records().size();
    }
    return records;
  }

  @Test
  void peerAnswerChangeLatencyInTheTopology() {
    // In-memory stores: TopologyTestDriver flushes every store after each input record, which
    // with RocksDB would measure disk flushes, not the engine.
    try (EngineDriver driver =
        new EngineDriver(PlacementSettings.defaults(), SETTINGS, NOW, StoreType.IN_MEMORY)) {
      long start = System.nanoTime();
      List<GslbState> gslbs = gslbs(GSLBS);
      driver.synced();
      services().forEach(driver::service);
      endpoints().forEach(driver::endpoints);
      for (GslbState gslb : gslbs) {
        peers(host(gslb), NOW, true).forEach(driver::peerAnswer);
      }
      gslbs.forEach(driver::gslb);
      int emitted = driver.read().size();
      driver.readStatuses();
      System.out.printf(
          "TopologyTestDriver: loaded %,d Gslbs and %,d peer answers in %.1f s (%,d decisions)%n",
          gslbs.size(),
          gslbs.size() * 2,
          (System.nanoTime() - start) / 1e9,
          emitted);

      int changes = Integer.getInteger("bench.changes", 500);
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long[] latency = new long[changes];
      long[] cpu = new long[changes];
      long recomputations = 0;
      Map<String, Boolean> up = new HashMap<>();
      for (int i = 0; i < changes; i++) {
        GslbState gslb = gslbs.get(random.nextInt(gslbs.size()));
        boolean serving = !up.getOrDefault(host(gslb), true);
        up.put(host(gslb), serving);
        PeerAnswer changed = peers(host(gslb), NOW.plusSeconds(i), serving).get(0);
        driver.metrics.reset();
        long t0 = System.nanoTime();
        long c0 = threads.getCurrentThreadCpuTime();
        driver.peerAnswer(changed);
        List<?> out = driver.read();
        cpu[i] = threads.getCurrentThreadCpuTime() - c0;
        latency[i] = System.nanoTime() - t0;
        if (out.size() != 1) {
          throw new IllegalStateException("expected one decision per change, got " + out.size());
        }
        recomputations += driver.metrics.recomputations(Trigger.PEER_ANSWER);
        driver.readStatuses();
      }
      report("TopologyTestDriver peer-answer change → decision (wall)", latency, recomputations);
      report("TopologyTestDriver peer-answer change → decision (thread CPU)", cpu, recomputations);
    }
  }

  @Test
  void onABrokerAgainstConsumerPerformance() throws Exception {
    int count = Integer.getInteger("bench.gslbs", GSLBS);
    StoreType storeType =
        "in-memory".equals(System.getProperty("bench.store"))
            ? StoreType.IN_MEMORY
            : StoreType.ROCKSDB;
    EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
    broker.afterPropertiesSet();
    Path stateDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "gslb-bench");
    try {
      List<GslbState> gslbs = gslbs(count);
      // The same replay on its own topics first, so that the measured one runs on a JVM whose JIT
      // has compiled the broker, the clients and the engine (as a long-running engine's has).
      int warmups = Integer.getInteger("bench.warmups", 1);
      for (int i = 1; i <= warmups; i++) {
        TopicSettings warmup = new TopicSettings("warmup" + i + ".", PARTITIONS, null);
        Map<String, ByteBuffer> expected = preload(broker, warmup, gslbs);
        replay(broker, warmup, "gslb-bench-warmup" + i, stateDir, storeType, expected, "warm-up " + i)
            .streams()
            .close(Duration.ofSeconds(30));
      }
      // The I/O floors first, after the engine's warm-ups: the same input through Kafka Streams
      // with none of the engine's work, in the engine's shape and bare (bench.floor-shapes).
      Map<FloorShape, Replayed> floors = new EnumMap<>(FloorShape.class);
      String shapes = System.getProperty("bench.floor-shapes", "engine,lean,bare");
      for (String shape : shapes.split(",")) {
        if (!shape.isBlank()) {
          FloorShape floorShape =
              FloorShape.valueOf(shape.strip().toUpperCase(Locale.ROOT));
          floors.put(floorShape, floor(broker, gslbs, stateDir, storeType, floorShape));
        }
      }
      TopicSettings topics = new TopicSettings("", PARTITIONS, null);
      Map<String, ByteBuffer> expected = preload(broker, topics, gslbs);
      Replayed measured =
          replay(broker, topics, "gslb-bench", stateDir, storeType, expected, "measured");
      double target = 0.15 * measured.consumer();
      System.out.printf(
          "ladder at %,d Gslbs (%s stores): ConsumerPerformance %,.0f msg/s in the measured run;"
              + " the target, 0.15× the consumer, %,.0f decisions/s; the engine %,.0f decisions/s"
              + " (%.3f× the consumer, %.3f× the target)%n",
          count,
          storeType,
          measured.consumer(),
          target,
          measured.decisionsPerSecond(),
          measured.decisionsPerSecond() / measured.consumer(),
          measured.decisionsPerSecond() / target);
      floors.forEach(
          (shape, floor) ->
              System.out.printf(
                  "ladder: I/O floor, %s: %,.0f Gslbs/s (%.3f× the consumer, %.3f× the target);"
                      + " the engine is %.3f× this floor%n",
                  shape.description,
                  floor.decisionsPerSecond(),
                  floor.decisionsPerSecond() / measured.consumer(),
                  floor.decisionsPerSecond() / target,
                  measured.decisionsPerSecond() / floor.decisionsPerSecond()));
      KafkaStreams streams = measured.streams();
      changeLatencyOnTheBroker(broker, gslbs);
      for (int round = 1; round <= Integer.getInteger("bench.bursts", 3); round++) {
        burstOnTheBroker(broker, gslbs, round);
      }
      streams.close(Duration.ofSeconds(30));
    } finally {
      broker.destroy();
      try (var files = Files.walk(stateDir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /**
   * Creates the topics under {@code topics}' prefix and fills them: a sync marker, the Services and
   * endpoints, then per Gslb both peers' answers and the Gslb; returns, per Gslb, the digest of its
   * decision by the pure core over that input as the engine publishes it ({@link #digest}).
   */
  private static Map<String, ByteBuffer> preload(
      EmbeddedKafkaKraftBroker broker, TopicSettings topics, List<GslbState> gslbs)
      throws Exception {
    return preload(broker, topics, gslbs, null);
  }

  /**
   * {@link #preload(EmbeddedKafkaKraftBroker, TopicSettings, List)}, and when {@code outputs} is
   * not null, per Gslb key the encoded decision and status the engine would publish for it.
   */
  private static Map<String, ByteBuffer> preload(
      EmbeddedKafkaKraftBroker broker,
      TopicSettings topics,
      List<GslbState> gslbs,
      Map<String, byte[][]> outputs)
      throws Exception {
    try (AdminClient admin =
        AdminClient.create(Map.of("bootstrap.servers", broker.getBrokersAsString()))) {
      List<NewTopic> created = new ArrayList<>();
      for (TopicSpec<?> topic : Topics.ALL) {
        created.add(topics.newTopic(topic));
      }
      admin.createTopics(created).all().get();
      awaitLeaders(admin, created.stream().map(NewTopic::name).toList());
    }
    List<PeerAnswer> answers = new ArrayList<>();
    long preload = System.nanoTime();
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    // Pre-loaded records were written before the engine starts, as a replay after a restart finds
    // them: 1 ms apart in send order, the last one stamped bench.preload-age seconds (default 60)
    // in the past. (Until 2026-11-30 15:20 the first one was: with 3 records per Gslb 1 ms apart,
    // all but the first 60,000 records then lay in the past only by less than the lag, or in the
    // future, and the engine took most of a large replay as live input.) With 0 they end now and
    // the engine, seeing input younger than engine.catch-up.lag, decides the last of them as live
    // input (a Gslb may be decided before its Services and endpoints have been read, and again
    // after).
    long records = 1L + services().size() + endpoints().size() + 3L * gslbs.size();
    long[] timestamp = {
      System.currentTimeMillis()
          - Duration.ofSeconds(Long.getLong("bench.preload-age", 60)).toMillis()
          - records
    };
    try (KafkaProducer<String, Object> producer = producer(broker)) {
      sent.add(
          producer.send(
              stamped(
                  topics,
                  Topics.SYNC,
                  "topology-watcher",
                  new SyncMarker("g1", SyncMarker.Phase.SYNCED, NOW, Map.of()),
                  timestamp)));
      for (ServiceState service : services()) {
        sent.add(producer.send(stamped(topics, Topics.SERVICES, service.ref().key(), service, timestamp)));
      }
      for (ServiceEndpoints value : endpoints()) {
        sent.add(producer.send(stamped(topics, Topics.ENDPOINTS, value.ref().key(), value, timestamp)));
      }
      for (GslbState gslb : gslbs) {
        for (PeerAnswer answer : peers(host(gslb), Instant.now(), true)) {
          sent.add(producer.send(stamped(topics, Topics.PEER_ANSWERS, answer.key(), answer, timestamp)));
          answers.add(answer);
        }
        sent.add(producer.send(stamped(topics, Topics.GSLBS, gslb.ref().key(), gslb, timestamp)));
      }
      producer.flush();
    }
    for (Future<RecordMetadata> result : sent) {
      result.get(); // a record that did not make it fails the run here, not as a missing decision
    }
    System.out.printf(
        "broker: pre-loaded %,d Gslbs, %,d peer answers under '%s' in %.1f s%n",
        gslbs.size(), answers.size(), topics.prefix(), (System.nanoTime() - preload) / 1e9);
    MapGslbView view =
        new MapGslbView(List.of(), services(), endpoints(), answers, List.of(), List.of());
    Map<String, ByteBuffer> expected = new HashMap<>();
    CairnSerializer<TargetDecision> encoder = new CairnSerializer<>();
    CairnSerializer<GslbStatus> statusEncoder = new CairnSerializer<>();
    String decisions = topics.name(Topics.DECISIONS);
    String statuses = topics.name(Topics.GSLB_STATUS);
    for (GslbState gslb : gslbs) {
      GslbOutcome outcome =
          GslbDecider.decide(gslb, view, SETTINGS, PlacementSettings.defaults(), Instant.now());
      byte[] decision = encoder.serialize(decisions, outcome.decision());
      expected.put(gslb.ref().key(), digest(decision));
      if (outputs != null) {
        outputs.put(
            gslb.ref().key(),
            new byte[][] {decision, statusEncoder.serialize(statuses, outcome.status())});
      }
    }
    return expected;
  }

  /** Waits until every partition of {@code names} has a leader, so the first sends need no retry. */
  private static void awaitLeaders(AdminClient admin, List<String> names) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      boolean ready = true;
      try {
        for (var topic : admin.describeTopics(names).allTopicNames().get().values()) {
          ready &= topic.partitions().stream().allMatch(p -> p.leader() != null);
        }
      } catch (java.util.concurrent.ExecutionException e) {
        ready = false; // not known to every part of the broker yet
      }
      if (ready) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("topics without a leader after 30 s: " + names);
      }
      Thread.sleep(20);
    }
  }

  /**
   * Starts the engine on the pre-loaded topics, waits until every Gslb is at its expected decision,
   * prints the figures and ConsumerPerformance on the same Gslbs topic; returns the running engine.
   */
  private static Replayed replay(
      EmbeddedKafkaKraftBroker broker,
      TopicSettings topics,
      String applicationId,
      Path stateDir,
      StoreType storeType,
      Map<String, ByteBuffer> expected,
      String label)
      throws Exception {
    return replay(
        broker,
        topics,
        expected,
        label,
        storeType,
        recomputations ->
            streams(broker, topics, applicationId, stateDir, storeType, recomputations));
  }

  /** A replay's application, still running, and its figures. */
  private record Replayed(KafkaStreams streams, double decisionsPerSecond, double consumer) {}

  private static Replayed replay(
      EmbeddedKafkaKraftBroker broker,
      TopicSettings topics,
      Map<String, ByteBuffer> expected,
      String label,
      StoreType storeType,
      Function<EngineMetrics, KafkaStreams> application)
      throws Exception {
    int count = expected.size();
    // Each replay starts from a collected heap: the previous replay's engine state and the
    // preload's buffers are garbage by now, which a restarted engine's JVM would not hold.
    long heapBefore = heapAfterFullGc();
    Recomputations recomputations = new Recomputations();
    KafkaStreams streams = application.apply(recomputations);
    Replay replay = new Replay(broker, topics.name(Topics.DECISIONS), expected);
    long cpuBefore = processCpuNanos();
    Map<Long, Long> threadsBefore = threadCpu();
    long started = System.nanoTime();
    streams.start();
    Replay.Result result = replay.await(streams, started, Duration.ofMinutes(10));
    double processCpu = (processCpuNanos() - cpuBefore) / 1e9;
    printThreadCpu(label, threadsBefore);
    double fromStart = (result.done() - started) / 1e9;
    double fromFirst = (result.done() - result.firstInput()) / 1e9;
    double engineRate = count / fromFirst;
    long inputs = 3L * count + 1 + 2L * NAMESPACES; // per Gslb: it and 2 answers; sync, services
    System.out.printf(
        "engine, %s (%s stores): all %,d Gslbs at their final decision (checked against"
            + " GslbDecider) %.2f s after start = %,.0f decisions/s; %.2f s after it processed its"
            + " first input = %,.0f decisions/s (%,d input records: %,.0f records/s)%n",
        label,
        storeType,
        count,
        fromStart,
        count / fromStart,
        fromFirst,
        engineRate,
        inputs,
        inputs / fromFirst);
    System.out.printf(
        "engine, %s: %,d decision records consumed by then (%.2f per Gslb, %.2f recomputations"
            + " per Gslb), %,d in all after 3 s quiet; stream thread CPU %.2f s (%.1f µs per Gslb),"
            + " process CPU %.2f s (broker included)%n",
        label,
        result.recordsAtDone(),
        result.recordsAtDone() / (double) count,
        recomputations.count.sum() / (double) count,
        result.recordsAtQuiet(),
        result.streamThreadCpu() / 1e9,
        result.streamThreadCpu() / 1e3 / count,
        processCpu);
    long heapAfter = heapAfterFullGc(); // after the figures: a full collection takes a while
    System.out.printf(
        "engine, %s: heap after a full GC %.1f MB with the engine running, %.1f MB before it"
            + " started: %.1f MB for its %,d Gslbs (%.2f kB per Gslb with 2 peer answers; RocksDB"
            + " is off the heap)%n",
        label,
        heapAfter / 1e6,
        heapBefore / 1e6,
        (heapAfter - heapBefore) / 1e6,
        count,
        (heapAfter - heapBefore) / 1e3 / count);
    if (Boolean.getBoolean("bench.histogram")) {
      printHistogram(25);
    }
    String input = topics.name(Topics.GSLBS);
    double consumer = consumerPerformance(broker, input, count);
    System.out.printf(
        "%s: ConsumerPerformance on %s (%,d records): %,.0f msg/s; engine / consumer = %.3f%n",
        label, input, count, consumer, engineRate / consumer);
    return new Replayed(streams, engineRate, consumer);
  }

  /** Counts the engine's recomputations; nothing else. */
  private static final class Recomputations extends EngineMetrics.CountsNothing {

    final java.util.concurrent.atomic.LongAdder count = new java.util.concurrent.atomic.LongAdder();

    @Override
    public void recomputed(Trigger trigger) {
      count.increment();
    }
  }

  /**
   * Reads the decisions topic from the beginning while the engine replays, until every Gslb's
   * latest decision equals the expected one (then 3 s without a new record).
   */
  private static final class Replay {

    /**
     * @param firstInput when the engine had processed its first input record (nanoTime, from its
     *     {@code process-total} metric, polled every 20 ms)
     * @param done when the last Gslb reached its expected decision (nanoTime)
     * @param recordsAtDone decision records consumed by then
     * @param recordsAtQuiet decision records consumed once the topic was quiet for 3 s
     * @param streamThreadCpu CPU time of the stream threads until done (ns)
     */
    record Result(
        long firstInput, long done, long recordsAtDone, long recordsAtQuiet, long streamThreadCpu) {}

    private final KafkaConsumer<String, byte[]> consumer;

    /**
     * The digests of the expected decisions as the engine publishes them (Cairn JSON: equal
     * decisions give equal bytes), compared without decoding and without holding every decision's
     * bytes twice, so that checking costs the harness little CPU and heap next to the engine it
     * shares the machine with.
     */
    private final Map<String, ByteBuffer> expected;

    /** The keys whose latest decision is the expected one. */
    private final Set<String> atExpected = new HashSet<>();

    Replay(EmbeddedKafkaKraftBroker broker, String topic, Map<String, ByteBuffer> expected) {
      this.expected = expected;
      consumer = byteConsumer(broker);
      List<TopicPartition> decisions = partitions(topic);
      consumer.assign(decisions);
      consumer.seekToBeginning(decisions);
    }

    Result await(KafkaStreams streams, long started, Duration limit) {
      long deadline = started + limit.toNanos();
      long first = 0;
      long done = 0;
      long records = 0;
      long recordsAtDone = 0;
      long cpu = 0;
      int matched = 0;
      long lastRecord = System.nanoTime();
      try (consumer) {
        while (System.nanoTime() < deadline) {
          var batch = consumer.poll(Duration.ofMillis(20));
          long now = System.nanoTime();
          if (first == 0 && processedAny(streams)) {
            first = now;
          }
          for (ConsumerRecord<String, byte[]> r : batch) {
            records++;
            lastRecord = now;
            ByteBuffer want = expected.get(r.key());
            boolean is = want != null && r.value() != null && want.equals(digest(r.value()));
            boolean was = is ? !atExpected.add(r.key()) : atExpected.remove(r.key());
            matched += (is ? 1 : 0) - (was ? 1 : 0);
          }
          if (done == 0 && matched == expected.size()) {
            done = now;
            recordsAtDone = records;
            cpu = streamThreadCpuNanos();
          }
          if (done != 0 && now - lastRecord > Duration.ofSeconds(3).toNanos()) {
            if (matched != expected.size()) {
              throw new IllegalStateException("a Gslb's decision changed after the replay");
            }
            return new Result(first, done, recordsAtDone, records, cpu);
          }
        }
      }
      throw new IllegalStateException(
          matched + " of " + expected.size() + " Gslbs at their final decision after " + limit);
    }

    private static boolean processedAny(KafkaStreams streams) {
      for (var metric : streams.metrics().entrySet()) {
        if (metric.getKey().group().equals("stream-thread-metrics")
            && metric.getKey().name().equals("process-total")
            && ((Number) metric.getValue().metricValue()).doubleValue() > 0) {
          return true;
        }
      }
      return false;
    }

    private static long streamThreadCpuNanos() {
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long sum = 0;
      for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
        if (info != null && info.getThreadName().matches(".*-StreamThread-\\d+")) {
          sum += threads.getThreadCpuTime(info.getThreadId());
        }
      }
      return sum;
    }
  }

  /** Used heap after two full collections, in bytes. */
  private static long heapAfterFullGc() {
    System.gc();
    System.gc();
    Runtime runtime = Runtime.getRuntime();
    return runtime.totalMemory() - runtime.freeMemory();
  }

  /** The first {@code lines} classes of the live heap (jcmd GC.class_histogram, in-process). */
  private static void printHistogram(int lines) {
    try {
      Object histogram =
          ManagementFactory.getPlatformMBeanServer()
              .invoke(
                  new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
                  "gcClassHistogram",
                  new Object[] {null},
                  new String[] {String[].class.getName()});
      histogram.toString().lines().limit(lines + 3L).forEach(System.out::println);
    } catch (javax.management.JMException e) {
      System.out.println("no class histogram: " + e);
    }
  }

  /** The MD5 of a published decision: 16 bytes to compare instead of the whole record. */
  private static ByteBuffer digest(byte[] published) {
    try {
      return ByteBuffer.wrap(java.security.MessageDigest.getInstance("MD5").digest(published));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** CPU time of every live thread, by thread id. */
  private static Map<Long, Long> threadCpu() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<Long, Long> cpu = new java.util.HashMap<>();
    for (long id : threads.getAllThreadIds()) {
      cpu.put(id, threads.getThreadCpuTime(id));
    }
    return cpu;
  }

  /**
   * Where the process's CPU went since {@code before}, by thread name (ids and numbers folded), the
   * biggest first: the broker, the engine and the harness share the machine's cores.
   */
  private static void printThreadCpu(String label, Map<Long, Long> before) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<String, Long> byName = new java.util.TreeMap<>();
    for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      long now = threads.getThreadCpuTime(info.getThreadId());
      long delta = now - before.getOrDefault(info.getThreadId(), 0L);
      String name =
          info.getThreadName()
              .replaceAll("[0-9a-f]{8}-[0-9a-f-]{27}", "<id>")
              .replaceAll("\\d+", "N");
      byName.merge(name, Math.max(0, delta), Long::sum);
    }
    StringBuilder line = new StringBuilder(label + ": thread CPU:");
    byName.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(10)
        .forEach(e -> line.append(String.format(" %s %.2f s;", e.getKey(), e.getValue() / 1e9)));
    System.out.println(line);
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Peer-answer changes sent one at a time, each timed until its decision is consumed. */
  private void changeLatencyOnTheBroker(EmbeddedKafkaKraftBroker broker, List<GslbState> gslbs)
      throws Exception {
    int changes = Integer.getInteger("bench.changes", 500);
    Map<String, Long> received = new ConcurrentHashMap<>();
    AtomicBoolean stop = new AtomicBoolean();
    Thread reader = readDecisions(broker, stop, key -> received.put(key, System.nanoTime()));
    long[] latency = new long[changes];
    Map<String, Boolean> up = new HashMap<>();
    try (KafkaProducer<String, Object> producer = producer(broker)) {
      for (int i = 0; i < changes + 50; i++) {
        GslbState gslb = gslbs.get(random.nextInt(Math.min(GSLBS, gslbs.size())));
        String key = gslb.ref().key();
        boolean serving = !up.getOrDefault(host(gslb), true);
        up.put(host(gslb), serving);
        PeerAnswer changed = peers(host(gslb), Instant.now(), serving).get(0);
        received.remove(key);
        long t0 = System.nanoTime();
        producer.send(record(Topics.PEER_ANSWERS, changed.key(), changed)).get();
        long deadline = t0 + Duration.ofSeconds(10).toNanos();
        Long at;
        while ((at = received.get(key)) == null && System.nanoTime() < deadline) {
          Thread.onSpinWait();
        }
        if (at == null) {
          throw new IllegalStateException(
              "no decision for " + key + " within 10 s; end offsets " + endOffsets(broker));
        }
        if (i >= 50) {
          latency[i - 50] = at - t0;
        }
      }
    } finally {
      stop.set(true);
      reader.join();
    }
    report("broker: peer-answer change → decision consumed (end to end)", latency, changes);
  }

  /**
   * A peer's answers for every host change at once, as when a peer fails (the local stack's S2
   * burst, without the rest of the stack): every Gslb's "us" answer gets new targets, sent as fast
   * as the producer takes them, and the decisions that follow are counted until every Gslb has its
   * new one (or none has come for 60 s); {@code -Dbench.bursts=} times (default 3), each to other
   * targets. Reports the time from the first answer sent to the first and the last decision
   * received, the decisions per second, the longest wait without a decision, and the threads' CPU
   * meanwhile (how much of the engine's share of a failover in the stack is its own
   * work and how much waiting for a core).
   */
  private void burstOnTheBroker(EmbeddedKafkaKraftBroker broker, List<GslbState> gslbs, int round)
      throws Exception {
    List<Long> received = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean stop = new AtomicBoolean();
    Thread reader = readDecisions(broker, stop, key -> received.add(System.nanoTime()));
    Map<Long, Long> threadsBefore = threadCpu();
    long start = System.nanoTime();
    long sent;
    try (KafkaProducer<String, Object> producer = producer(broker)) {
      Instant now = Instant.now();
      for (GslbState gslb : gslbs) {
        PeerAnswer us = peers(host(gslb), now, true).get(0);
        int n = Math.abs(host(gslb).hashCode());
        PeerAnswer moved =
            new PeerAnswer(
                us.host(),
                us.geoTag(),
                us.server(),
                ProbeStatus.OK,
                List.of("203." + round + "." + (n % 250) + "." + (n / 250 % 250)),
                List.of(),
                us.ttlSeconds(),
                now,
                null,
                now);
        producer.send(record(Topics.PEER_ANSWERS, moved.key(), moved));
      }
      producer.flush();
      sent = System.nanoTime();
      // Every Gslb's answer changed, so every Gslb gets one new decision: wait for all of them,
      // or until none has come for 60 s (then the figure says how many came).
      long last;
      int count;
      do {
        Thread.sleep(200);
        synchronized (received) {
          count = received.size();
          last = received.isEmpty() ? start : received.get(received.size() - 1);
        }
      } while (count < gslbs.size()
          && System.nanoTime() - Math.max(last, sent) < Duration.ofSeconds(60).toNanos());
    } finally {
      stop.set(true);
      reader.join();
    }
    List<Long> times;
    synchronized (received) {
      times = List.copyOf(received);
    }
    long last = times.isEmpty() ? start : times.get(times.size() - 1);
    long longestGap = 0;
    long previous = start;
    for (long t : times) {
      longestGap = Math.max(longestGap, t - previous);
      previous = t;
    }
    System.out.printf(
        "broker: burst %d, %,d peer answers (sent in %.2f s) → %,d decisions, the first %.2f s"
            + " and the last %.2f s after the first answer: %,.0f decisions/s; the longest wait"
            + " without a decision %.2f s%n",
        round,
        gslbs.size(),
        (sent - start) / 1e9,
        times.size(),
        times.isEmpty() ? 0 : (times.get(0) - start) / 1e9,
        (last - start) / 1e9,
        times.size() / Math.max(1e-9, (last - start) / 1e9),
        longestGap / 1e9);
    printThreadCpu("burst " + round, threadsBefore);
  }

  /** A consumer of raw values that fetches as soon as a record is there (10 ms at most). */
  private static KafkaConsumer<String, byte[]> byteConsumer(EmbeddedKafkaKraftBroker broker) {
    return new KafkaConsumer<>(
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            broker.getBrokersAsString(),
            ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
            10),
        new StringDeserializer(),
        new ByteArrayDeserializer());
  }

  /**
   * Starts a thread that follows the decisions topic from its current end (positioned before this
   * returns, so no later decision is missed) and tells {@code onDecision} each record's key as it
   * arrives, until {@code stop} is set.
   */
  private static Thread readDecisions(
      EmbeddedKafkaKraftBroker broker,
      AtomicBoolean stop,
      java.util.function.Consumer<String> onDecision) {
    KafkaConsumer<String, byte[]> consumer = byteConsumer(broker);
    List<TopicPartition> decisions = partitions(Topics.DECISIONS.name());
    consumer.assign(decisions);
    consumer.seekToEnd(decisions);
    decisions.forEach(consumer::position);
    Thread reader =
        new Thread(
            () -> {
              while (!stop.get()) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(20))) {
                  onDecision.accept(r.key());
                }
              }
              consumer.close();
            },
            "decision-reader");
    reader.start();
    return reader;
  }

  private static Map<String, Long> endOffsets(EmbeddedKafkaKraftBroker broker) throws Exception {
    try (AdminClient admin =
        AdminClient.create(Map.of("bootstrap.servers", broker.getBrokersAsString()))) {
      Map<TopicPartition, OffsetSpec> request = new HashMap<>();
      for (String topic : admin.listTopics().names().get()) {
        for (TopicPartition tp : partitions(topic)) {
          request.put(tp, OffsetSpec.latest());
        }
      }
      Map<String, Long> offsets = new java.util.TreeMap<>();
      admin
          .listOffsets(request)
          .all()
          .get()
          .forEach((tp, r) -> offsets.merge(tp.topic(), r.offset(), Long::sum));
      return offsets;
    }
  }

  /**
   * Partitions of every topic the bench creates ({@code bench.partitions}, default 1; with more,
   * the inputs are spread by namespace, as the watcher's partitioner does).
   */
  private static final int PARTITIONS = Integer.getInteger("bench.partitions", 1);

  /** The partitions of a topic the bench created. */
  private static List<TopicPartition> partitions(String topic) {
    List<TopicPartition> partitions = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      partitions.add(new TopicPartition(topic, p));
    }
    return partitions;
  }

  private static KafkaStreams streams(
      EmbeddedKafkaKraftBroker broker,
      TopicSettings topics,
      String applicationId,
      Path stateDir,
      StoreType storeType,
      EngineMetrics metrics) {
    StreamsBuilder builder = new StreamsBuilder();
    new EngineTopology(
            topics,
            PlacementSettings.defaults(),
            SETTINGS,
            metrics,
            Duration.ofMinutes(1),
            Duration.ofSeconds(1),
            storeType,
            new CatchUp(
                CatchUp.DEFAULTS.lag(),
                Duration.ofMillis(Long.getLong("bench.idle", CatchUp.DEFAULTS.idle().toMillis())),
                Duration.ofMillis(
                    Long.getLong("bench.max-delay", CatchUp.DEFAULTS.maxDelay().toMillis()))),
            EngineTopology.DEFAULT_MAX_OUTPUT_BYTES)
        .build(builder);
    return new KafkaStreams(builder.build(), properties(broker, applicationId, stateDir));
  }

  /** The engine's Streams settings as {@code engine.*} sets them, with the bench's overrides. */
  private static Properties properties(
      EmbeddedKafkaKraftBroker broker, String applicationId, Path stateDir) {
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString());
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    props.put(
        StreamsConfig.COMMIT_INTERVAL_MS_CONFIG,
        Long.getLong("bench.commit-interval", 1000)); // engine.commit-interval
    props.put(StreamsConfig.POLL_MS_CONFIG, 10); // engine.poll-interval
    props.put(
        StreamsConfig.NUM_STREAM_THREADS_CONFIG,
        Integer.getInteger("bench.stream-threads", 1)); // engine.stream-threads
    props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    props.put(
        StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG,
        Serdes.StringSerde.class);
    props.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, InputErrorHandler.class);
    props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    props.put(
        StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG),
        System.getProperty("bench.linger", "5"));
    props.put(
        StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG),
        System.getProperty("bench.batch-size", "262144")); // engine.producer-batch-size
    String idle = System.getProperty("bench.task-idle");
    if (idle != null) {
      props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, idle);
    }
    return props;
  }

  // ------------------------------------------------------------------ the I/O floor

  /**
   * The I/O floor of the engine's shape, measured on the same broker in the same run: warm-up
   * replays ({@code bench.warmups}) and a measured one of {@link #floorStreams}, each on topics of
   * its own pre-loaded as the engine's are; returns the measured one, closed.
   */
  private Replayed floor(
      EmbeddedKafkaKraftBroker broker,
      List<GslbState> gslbs,
      Path stateDir,
      StoreType storeType,
      FloorShape shape)
      throws Exception {
    String name = shape.name().toLowerCase(Locale.ROOT);
    int warmups = Integer.getInteger("bench.warmups", 1);
    Replayed measured = null;
    for (int i = 1; i <= warmups + 1; i++) {
      boolean last = i == warmups + 1;
      String label =
          "I/O floor (" + shape.description + "), " + (last ? "measured" : "warm-up " + i);
      TopicSettings topics =
          new TopicSettings(
              "floor-" + name + (last ? "." : "-warmup" + i + "."), PARTITIONS, null);
      Map<String, byte[][]> outputs = new HashMap<>();
      Map<String, ByteBuffer> expected = preload(broker, topics, gslbs, outputs);
      String applicationId = "gslb-floor-" + name + (last ? "" : "-warmup" + i);
      Replayed run =
          replay(
              broker,
              topics,
              expected,
              label,
              storeType,
              recomputations ->
                  floorStreams(
                      broker, topics, applicationId, stateDir, storeType, shape, outputs));
      run.streams().close(Duration.ofSeconds(30));
      measured = run;
    }
    return measured;
  }

  /** What an I/O floor's application does per record. */
  private enum FloorShape {
    /**
     * The engine's shape: the peer answers into a global store, every other input stored, and per
     * Gslb its decision and status forwarded and stored: two outputs and three changelog records,
     * the engine's five broker writes per Gslb.
     */
    ENGINE("the engine's shape: a global store, three changelogged stores, two outputs"),
    /**
     * The engine's shape with its three stores kept without changelogs, as they would be if they
     * were restored from the input and output topics they mirror: two broker writes per Gslb.
     */
    LEAN("lean: the engine's stores without changelogs, two outputs"),
    /**
     * The design that would make LEAN safe: every input kept in a table whose store is restored
     * from its own input topic, and the decisions and statuses kept in tables read back from the
     * two output topics (Kafka Streams' {@code reuse.ktable.source.topics}): no changelog, two
     * broker writes per Gslb, and each output read back and stored.
     */
    READBACK("read back: input and output tables restored from their own topics, two outputs"),
    /**
     * READBACK with the outputs read back by the global thread into global tables instead of by
     * the task: the inputs in tables restored from their own topics, the decisions and statuses in
     * global tables of the output topics.
     */
    GLOBAL_READBACK(
        "global read back: input tables, output global tables restored from their own topics, two"
            + " outputs"),
    /** Every input read, nothing stored, per Gslb its decision forwarded: one write per Gslb. */
    BARE("bare: every input read, no store, one output per Gslb");

    final String description;

    FloorShape(String description) {
      this.description = description;
    }
  }

  /**
   * An engine with none of the engine's work: a Kafka Streams application with the engine's
   * settings ({@link #properties}) that reads the same topics and, per Gslb, forwards (and in the
   * engine's shape stores) the decision and status bytes computed before it started ({@code
   * outputs}) through the engine's own sink and serde, without decoding, deciding or encoding
   * anything: what Kafka Streams on this broker and machine allows an engine of that shape.
   */
  private static KafkaStreams floorStreams(
      EmbeddedKafkaKraftBroker broker,
      TopicSettings topics,
      String applicationId,
      Path stateDir,
      StoreType storeType,
      FloorShape shape,
      Map<String, byte[][]> outputs) {
    Function<String, KeyValueBytesStoreSupplier> supplier =
        storeType == StoreType.ROCKSDB
            ? Stores::persistentKeyValueStore
            : Stores::inMemoryKeyValueStore;
    StreamsBuilder builder = new StreamsBuilder();
    List<String> inputTopics = new ArrayList<>();
    for (TopicSpec<?> topic :
        List.of(Topics.SYNC, Topics.SERVICES, Topics.ENDPOINTS, Topics.GSLBS)) {
      inputTopics.add(topics.name(topic));
    }
    String[] stores = {};
    String decisionsTopic = topics.name(Topics.DECISIONS);
    String statusTopic = topics.name(Topics.GSLB_STATUS);
    Properties props = properties(broker, applicationId, stateDir);
    if (shape == FloorShape.READBACK || shape == FloorShape.GLOBAL_READBACK) {
      props.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, StreamsConfig.REUSE_KTABLE_SOURCE_TOPICS);
      addPeerAnswersStore(builder, topics, supplier);
      KStream<String, byte[]> inputs = null;
      for (String topic : inputTopics) {
        KStream<String, byte[]> input =
            builder
                .table(
                    topic,
                    Consumed.with(Serdes.String(), Serdes.ByteArray()),
                    Materialized.<String, byte[]>as(supplier.apply("floor-table-" + topic))
                        .withKeySerde(Serdes.String())
                        .withValueSerde(Serdes.ByteArray())
                        .withCachingDisabled())
                .toStream();
        inputs = inputs == null ? input : inputs.merge(input);
      }
      if (shape == FloorShape.READBACK) {
        stores = new String[] {"floor-decisions", "floor-statuses"};
      }
      for (String[] table :
          new String[][] {{decisionsTopic, "floor-decisions"}, {statusTopic, "floor-statuses"}}) {
        Consumed<String, byte[]> consumed = Consumed.with(Serdes.String(), Serdes.ByteArray());
        Materialized<String, byte[], KeyValueStore<Bytes, byte[]>> materialized =
            Materialized.<String, byte[]>as(supplier.apply(table[1]))
                .withKeySerde(Serdes.String())
                .withValueSerde(Serdes.ByteArray())
                .withCachingDisabled();
        if (shape == FloorShape.READBACK) {
          builder.table(table[0], consumed, materialized);
        } else {
          builder.globalTable(table[0], consumed, materialized);
        }
      }
      inputs
          .process(() -> new FloorProcessor(shape, outputs), Named.as("floor"), stores)
          .to(
              (key, output, context) ->
                  output instanceof EngineOutput.DecisionOutput ? decisionsTopic : statusTopic,
              Produced.with(Serdes.String(), EngineJson.outputs()));
      return new KafkaStreams(builder.build(props), props);
    }
    if (shape != FloorShape.BARE) {
      stores = new String[] {"floor-inputs", "floor-decisions", "floor-statuses"};
      for (String store : stores) {
        var built =
            Stores.keyValueStoreBuilder(supplier.apply(store), Serdes.String(), Serdes.ByteArray())
                .withCachingDisabled();
        builder.addStateStore(shape == FloorShape.LEAN ? built.withLoggingDisabled() : built);
      }
      addPeerAnswersStore(builder, topics, supplier);
    } else {
      inputTopics.add(topics.name(Topics.PEER_ANSWERS));
    }
    builder.stream(inputTopics, Consumed.with(Serdes.String(), Serdes.ByteArray()))
        .process(() -> new FloorProcessor(shape, outputs), Named.as("floor"), stores)
        .to(
            (key, output, context) ->
                output instanceof EngineOutput.DecisionOutput ? decisionsTopic : statusTopic,
            Produced.with(Serdes.String(), EngineJson.outputs()));
    return new KafkaStreams(builder.build(), props);
  }

  /** The peer answers in a global store restored from their topic, as the engine keeps them. */
  private static void addPeerAnswersStore(
      StreamsBuilder builder,
      TopicSettings topics,
      Function<String, KeyValueBytesStoreSupplier> supplier) {
    builder.addGlobalStore(
        Stores.keyValueStoreBuilder(
                supplier.apply("floor-peer-answers"), Serdes.String(), Serdes.ByteArray())
            .withLoggingDisabled(),
        topics.name(Topics.PEER_ANSWERS),
        Consumed.with(Serdes.String(), Serdes.ByteArray()),
        () ->
            new Processor<String, byte[], Void, Void>() {
              private KeyValueStore<String, byte[]> store;

              @Override
              public void init(ProcessorContext<Void, Void> context) {
                store = context.getStateStore("floor-peer-answers");
              }

              @Override
              public void process(
                  org.apache.kafka.streams.processor.api.Record<String, byte[]> record) {
                store.put(record.key(), record.value());
              }
            });
  }

  /** Per Gslb, forwards its prepared outputs; in the engine's shape, stores what it reads too. */
  private static final class FloorProcessor
      implements Processor<String, byte[], String, EngineOutput> {

    private final FloorShape shape;
    private final Map<String, byte[][]> outputs;
    private ProcessorContext<String, EngineOutput> context;
    private KeyValueStore<String, byte[]> inputs;
    private KeyValueStore<String, byte[]> decisions;
    private KeyValueStore<String, byte[]> statuses;

    FloorProcessor(FloorShape shape, Map<String, byte[][]> outputs) {
      this.shape = shape;
      this.outputs = outputs;
    }

    @Override
    public void init(ProcessorContext<String, EngineOutput> context) {
      this.context = context;
      if (shape == FloorShape.READBACK || shape == FloorShape.GLOBAL_READBACK) {
        // The tables store the inputs and, read back, the outputs; in READBACK the processor is
        // connected to the output tables so that they run in its task (the engine compares in
        // memory, so it reads neither).
      } else if (shape != FloorShape.BARE) {
        inputs = context.getStateStore("floor-inputs");
        decisions = context.getStateStore("floor-decisions");
        statuses = context.getStateStore("floor-statuses");
      }
    }

    @Override
    public void process(org.apache.kafka.streams.processor.api.Record<String, byte[]> record) {
      byte[][] out = outputs.get(record.key());
      if (shape == FloorShape.BARE) {
        if (out != null) {
          context.forward(record.withValue(new EngineOutput.DecisionOutput(out[0])));
        }
        return;
      }
      if (shape == FloorShape.READBACK || shape == FloorShape.GLOBAL_READBACK) {
        if (out != null) {
          context.forward(record.withValue(new EngineOutput.DecisionOutput(out[0])));
          context.forward(record.withValue(new EngineOutput.StatusOutput(out[1])));
        }
        return;
      }
      inputs.put(record.key(), record.value());
      if (out != null) {
        context.forward(record.withValue(new EngineOutput.DecisionOutput(out[0])));
        decisions.put(record.key(), out[0]);
        context.forward(record.withValue(new EngineOutput.StatusOutput(out[1])));
        statuses.put(record.key(), out[1]);
      }
    }
  }

  /** Kafka's own ConsumerPerformance on the same topic, in this JVM; returns its nMsg.sec. */
  private static double consumerPerformance(
      EmbeddedKafkaKraftBroker broker, String topic, int messages) {
    Exit.setExitProcedure(
        (status, message) -> {
          throw new IllegalStateException("ConsumerPerformance exited " + status + ": " + message);
        });
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      ConsumerPerformance.main(
          new String[] {
            "--bootstrap-server", broker.getBrokersAsString(),
            "--topic", topic,
            "--messages", Integer.toString(messages),
            "--timeout", "60000",
            "--group", "gslb-bench-cperf-" + topic
          });
    } finally {
      System.setOut(original);
      Exit.resetExitProcedure();
    }
    // Other threads' log lines reach the captured console too: find the tool's header and the
    // last line with as many fields.
    List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
    int at = -1;
    for (int i = 0; i < lines.size() && at < 0; i++) {
      if (lines.get(i).contains("nMsg.sec")) {
        at = i;
      }
    }
    if (at < 0) {
      throw new IllegalStateException("no ConsumerPerformance header in: " + lines);
    }
    List<String> header = Arrays.asList(lines.get(at).split(",\\s*"));
    String[] values = null;
    for (String line : lines.subList(at + 1, lines.size())) {
      String[] fields = line.strip().split(",\\s*");
      if (fields.length == header.size()) {
        values = fields;
      }
    }
    if (values == null) {
      throw new IllegalStateException("no ConsumerPerformance figures in: " + lines);
    }
    System.out.println("ConsumerPerformance: " + String.join(", ", values));
    return Double.parseDouble(values[header.indexOf("nMsg.sec")]);
  }

  private static KafkaProducer<String, Object> producer(EmbeddedKafkaKraftBroker broker) {
    // Not idempotent, one request in flight: a partition created a moment ago can answer the first
    // request NOT_LEADER_OR_FOLLOWER, and the idempotent producer's retry then met an
    // OutOfOrderSequenceException on the embedded broker until the run timed out (22:47).
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
            ProducerConfig.PARTITIONER_CLASS_CONFIG, NamespacePartitioner.class,
            ProducerConfig.LINGER_MS_CONFIG, 0,
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1),
        new StringSerializer(),
        new CairnSerializer<>());
  }

  /** A record of the pre-load at {@code timestamp[0]}, which moves on by 1 ms. */
  private static <V> ProducerRecord<String, Object> stamped(
      TopicSettings topics, TopicSpec<V> topic, String key, V value, long[] timestamp) {
    return new ProducerRecord<>(topics.name(topic), null, timestamp[0]++, key, value);
  }

  private static <V> ProducerRecord<String, Object> record(TopicSpec<V> topic, String key, V value) {
    return record(TopicSettings.defaults(), topic, key, value);
  }

  private static <V> ProducerRecord<String, Object> record(
      TopicSettings topics, TopicSpec<V> topic, String key, V value) {
    return new ProducerRecord<>(topics.name(topic), key, value);
  }

  private static void report(String what, long[] nanos, long recomputations) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf(
        "%s: %d changes, %.1f Gslbs recomputed per change, latency p50 %.2f ms, p99 %.2f ms,"
            + " max %.2f ms%n",
        what,
        nanos.length,
        recomputations / (double) nanos.length,
        sorted[sorted.length / 2] / 1e6,
        sorted[(int) (sorted.length * 0.99)] / 1e6,
        sorted[sorted.length - 1] / 1e6);
  }

  // ------------------------------------------------------------------ the data set

  private static List<GslbState> gslbs(int count) {
    List<GslbState> gslbs = new ArrayList<>(count);
    String[] types = {"roundRobin", "failover", "geoip"};
    for (int i = 0; i < count; i++) {
      String type = types[i % 3];
      gslbs.add(
          new GslbState(
              "ns-" + (i % NAMESPACES),
              "gslb-" + i,
              "uid-" + i,
              null,
              List.of(
                  new GslbState.IngressRule(
                      "gslb-" + i + ".cloud.example.com", List.of(BackendRef.service("web")))),
              new GslbStrategy(
                  type,
                  null,
                  type.equals("failover") ? "us" : null,
                  type.equals("roundRobin") ? Map.of("eu", 50, "us", 30, "ap", 20) : Map.of(),
                  null),
              null,
              Map.of("k8gb.io/exposed-ip-addresses", "203.0." + (i / 250 % 250) + "." + (i % 250)),
              List.of()));
    }
    return gslbs;
  }

  private static String host(GslbState gslb) {
    return gslb.ingressRules().get(0).host();
  }

  private static List<PeerAnswer> peers(String host, Instant at, boolean usServing) {
    int n = Math.abs(host.hashCode());
    return List.of(
        new PeerAnswer(
            host,
            "us",
            "192.0.2.53:53",
            usServing ? ProbeStatus.OK : ProbeStatus.NXDOMAIN,
            usServing ? List.of("198.51." + (n % 250) + "." + (n / 250 % 250)) : List.of(),
            List.of(),
            30L,
            at,
            null,
            at),
        new PeerAnswer(
            host,
            "ap",
            "192.0.2.54:53",
            ProbeStatus.OK,
            List.of("192.0." + (n % 250) + "." + (n / 7 % 250)),
            List.of(),
            30L,
            at,
            null,
            at));
  }

  private static List<ServiceState> services() {
    List<ServiceState> services = new ArrayList<>();
    for (int n = 0; n < NAMESPACES; n++) {
      services.add(
          new ServiceState(
              "ns-" + n, "web", "uid-web-" + n, "ClusterIP", List.of(), List.of(), List.of(),
              Map.of(), List.of()));
    }
    return services;
  }

  private static List<ServiceEndpoints> endpoints() {
    List<ServiceEndpoints> endpoints = new ArrayList<>();
    for (int n = 0; n < NAMESPACES; n++) {
      endpoints.add(
          new ServiceEndpoints(
              "ns-" + n,
              "web",
              List.of(new EndpointState(List.of("10.42.0." + n), "node-1", null, true, true, false)),
              List.of()));
    }
    return endpoints;
  }
}
