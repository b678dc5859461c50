package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.codec.EventTime;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.strategyengine.gslb.GslbReport;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.stream.EngineTopology.StoreType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The engine topology under {@link TopologyTestDriver}, with typed input and output topics.
 *
 * <p>Every input record gets its own timestamp, 1 ms after the previous one on any topic and never
 * before the wall clock: the engine decides what live input marked once stream time advances (or at
 * its next wall-clock punctuation), and {@code TopologyTestDriver} checks stream-time punctuations
 * after every record, so each piped input is decided before the call returns. Wall-clock time moves
 * only through {@link #advanceWallClock}.
 */
final class EngineDriver implements AutoCloseable {

  static final Instant START = Instant.parse("2026-11-29T12:00:00Z");

  /** A routes-topic key of a kind the engine neither places nor reads. */
  private static final String IGNORED_KEY = "ConfigMap/engine-driver/settle";

  final CountingMetrics metrics = new CountingMetrics();
  final InputErrors inputErrors = new InputErrors(metrics);
  private final TopologyTestDriver driver;
  private final EngineTopology topology;
  private final TestInputTopic<String, RouteState> routes;
  private final TestInputTopic<String, ServiceEndpoints> endpoints;
  private final TestInputTopic<String, NodeState> nodes;
  private final TestInputTopic<String, SyncMarker> sync;
  private final TestInputTopic<String, HostnameResolution> resolutions;
  private final TestInputTopic<String, GslbState> gslbs;
  private final TestInputTopic<String, ServiceState> services;
  private final TestInputTopic<String, PeerAnswer> peerAnswers;
  private final TestOutputTopic<String, TargetDecision> decisions;
  private final TestOutputTopic<String, GslbStatus> statuses;
  private final Path stateDir;
  private final PlacementSettings settings;
  private final GslbSettings gslbSettings;
  private final StoreType storeType;
  private Instant wallClock;
  private final int maxOutputBytes;
  private Instant recordTime;
  private Instant nextEventTime;

  EngineDriver(PlacementSettings settings) {
    this(settings, START, StoreType.IN_MEMORY);
  }

  EngineDriver(PlacementSettings settings, Instant now, StoreType storeType) {
    this(settings, GslbSettings.defaults("eu"), now, storeType);
  }

  EngineDriver(
      PlacementSettings settings, GslbSettings gslbSettings, Instant now, StoreType storeType) {
    this(settings, gslbSettings, now, storeType, EngineTopology.DEFAULT_MAX_OUTPUT_BYTES);
  }

  /** A driver whose engine sends no decision or status over {@code maxOutputBytes}. */
  EngineDriver(
      PlacementSettings settings,
      GslbSettings gslbSettings,
      Instant now,
      StoreType storeType,
      int maxOutputBytes) {
    this(settings, gslbSettings, now, storeType, newStateDir(), maxOutputBytes);
  }

  private EngineDriver(
      PlacementSettings settings,
      GslbSettings gslbSettings,
      Instant now,
      StoreType storeType,
      Path stateDir,
      int maxOutputBytes) {
    this.maxOutputBytes = maxOutputBytes;
    this.settings = settings;
    this.gslbSettings = gslbSettings;
    this.storeType = storeType;
    this.stateDir = stateDir;
    StreamsBuilder builder = new StreamsBuilder();
    topology =
        new EngineTopology(
            TopicSettings.defaults(),
            settings,
            gslbSettings,
            metrics,
            Duration.ofMinutes(1),
            Duration.ofSeconds(1),
            storeType,
            CatchUp.DEFAULTS,
            maxOutputBytes);
    topology.build(builder);
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "placement-test");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    props.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
        InputErrorHandler.class.getName());
    props.put(InputErrorHandler.INPUT_ERRORS_CONFIG, inputErrors);
    driver = new TopologyTestDriver(builder.build(), props, now);
    wallClock = now;
    recordTime = now;
    routes = input(Topics.ROUTES);
    endpoints = input(Topics.ENDPOINTS);
    nodes = input(Topics.NODES);
    sync = input(Topics.SYNC);
    resolutions = input(Topics.HOSTNAME_RESOLUTIONS);
    gslbs = input(Topics.GSLBS);
    services = input(Topics.SERVICES);
    peerAnswers = input(Topics.PEER_ANSWERS);
    decisions =
        driver.createOutputTopic(
            Topics.DECISIONS.name(),
            new StringDeserializer(),
            new CairnDeserializer<>(TargetDecision.class));
    statuses =
        driver.createOutputTopic(
            Topics.GSLB_STATUS.name(),
            new StringDeserializer(),
            new CairnDeserializer<>(GslbStatus.class));
  }

  private static Path newStateDir() {
    try {
      Path target = Path.of("target");
      Files.createDirectories(target);
      return Files.createTempDirectory(target.toAbsolutePath(), "placement-driver");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Stops this engine and starts a new one on the same state directory at the same wall-clock time,
   * as a restart does; this driver must not be used afterwards (closing the new one cleans up).
   */
  EngineDriver restart() {
    driver.close();
    return new EngineDriver(settings, gslbSettings, wallClock, storeType, stateDir, maxOutputBytes);
  }

  /**
   * The next input records are {@code age} older than the wall clock (then 1 ms apart), as in a
   * backlog the engine catches up on; advancing the wall clock makes inputs live again.
   */
  EngineDriver recordsAged(Duration age) {
    recordTime = wallClock.minus(age);
    return this;
  }

  /** The changelog topics the engine has written to. */
  Set<String> changelogTopics() {
    Set<String> found = new TreeSet<>();
    for (String topic : driver.producedTopicNames()) {
      if (topic.endsWith("-changelog")) {
        found.add(topic);
      }
    }
    return found;
  }

  private <V> TestInputTopic<String, V> input(TopicSpec<V> topic) {
    return driver.createInputTopic(
        topic.name(), new StringSerializer(), new CairnSerializer<V>(), START, Duration.ZERO);
  }

  /**
   * A raw input topic, for malformed and versioned records; pipe one record into each (they all get
   * the timestamp reserved when the topic is made).
   */
  TestInputTopic<String, byte[]> raw(TopicSpec<?> topic) {
    return driver.createInputTopic(
        topic.name(),
        new StringSerializer(),
        new ByteArraySerializer(),
        nextRecordTime(),
        Duration.ZERO);
  }

  /**
   * After an input that reaches the engine through its broadcast topic: {@code TopologyTestDriver}
   * runs both sub-topologies in one task, so the record's stream-time punctuation is due before the
   * re-published copy is processed. A tombstone for a key the engine ignores then advances stream
   * time, as the next record would, and the copy's marks are decided.
   */
  private void settle() {
    routes.pipeInput(IGNORED_KEY, null, nextRecordTime());
  }

  /**
   * The next input record (only that one) carries {@code eventTime} in its {@code cairn-event-time}
   * header, as the topology-watcher stamps it.
   */
  EngineDriver eventTime(Instant eventTime) {
    nextEventTime = eventTime;
    return this;
  }

  private <V> void pipe(TestInputTopic<String, V> topic, String key, V value) {
    Headers headers = new RecordHeaders();
    if (nextEventTime != null) {
      EventTime.stamp(headers, nextEventTime);
      nextEventTime = null;
    }
    topic.pipeInput(new TestRecord<>(key, value, headers, nextRecordTime()));
  }

  /** The timestamp of the next input record: 1 ms after the previous one. */
  private Instant nextRecordTime() {
    Instant next = recordTime;
    recordTime = recordTime.plusMillis(1);
    return next;
  }

  EngineDriver synced() {
    return marker(new SyncMarker("g1", SyncMarker.Phase.SYNCED, START, Map.of()));
  }

  EngineDriver marker(SyncMarker marker) {
    pipe(sync, "topology-watcher", marker);
    settle();
    return this;
  }

  EngineDriver route(RouteState route) {
    pipe(routes, route.ref().key(), route);
    settleGateway(route.ref().key());
    return this;
  }

  /** A Gateway reaches the engine through its broadcast topic (every task gets every Gateway). */
  private void settleGateway(String key) {
    if (key.startsWith("Gateway/")) {
      settle();
    }
  }

  EngineDriver deleteRoute(String key) {
    pipe(routes, key, null);
    settleGateway(key);
    return this;
  }

  EngineDriver endpoints(ServiceEndpoints value) {
    pipe(endpoints, value.ref().key(), value);
    return this;
  }

  EngineDriver deleteEndpoints(String key) {
    pipe(endpoints, key, null);
    return this;
  }

  EngineDriver node(NodeState node) {
    pipe(nodes, node.ref().key(), node);
    settle();
    return this;
  }

  EngineDriver deleteNode(String name) {
    pipe(nodes, ObjectRef.cluster("Node", name).key(), null);
    settle();
    return this;
  }

  EngineDriver resolution(HostnameResolution resolution) {
    pipe(resolutions, resolution.key(), resolution);
    settle();
    return this;
  }

  EngineDriver gslb(GslbState gslb) {
    pipe(gslbs, gslb.ref().key(), gslb);
    return this;
  }

  EngineDriver deleteGslb(String key) {
    pipe(gslbs, key, null);
    return this;
  }

  EngineDriver service(ServiceState service) {
    pipe(services, service.ref().key(), service);
    return this;
  }

  EngineDriver deleteService(String key) {
    pipe(services, key, null);
    return this;
  }

  EngineDriver peerAnswer(PeerAnswer answer) {
    pipe(peerAnswers, answer.key(), answer);
    settle();
    return this;
  }

  /**
   * A peer answer stamped {@code age} before the engine's clock, taken by the global store only (no
   * record of the task's own follows it, as none does when a peer fails for every host): what the
   * tasks see when the global thread is behind a burst of answers.
   */
  EngineDriver latePeerAnswer(PeerAnswer answer, Duration age) {
    peerAnswers.pipeInput(
        new TestRecord<>(answer.key(), answer, new RecordHeaders(), wallClock.minus(age)));
    return this;
  }

  EngineDriver deletePeerAnswer(String key) {
    pipe(peerAnswers, key, null);
    settle();
    return this;
  }

  /** Every status emitted since the last read, in order (tombstones have null values). */
  List<KeyValue<String, GslbStatus>> readStatuses() {
    return statuses.readKeyValuesToList();
  }

  /** The last status per key emitted since the last read. */
  Map<String, GslbStatus> latestStatuses() {
    Map<String, GslbStatus> latest = new LinkedHashMap<>();
    for (KeyValue<String, GslbStatus> kv : readStatuses()) {
      latest.put(kv.key, kv.value);
    }
    return latest;
  }

  <V> KeyValueStore<String, V> store(String name) {
    return driver.getKeyValueStore(name);
  }

  Instant wallClock() {
    return wallClock;
  }

  void advanceWallClock(Duration duration) {
    wallClock = wallClock.plus(duration);
    if (recordTime.isBefore(wallClock)) {
      recordTime = wallClock; // inputs stay live: no older than the engine's clock
    }
    driver.advanceWallClockTime(duration);
  }

  /** Every decision record emitted since the last read, with timestamp and headers. */
  List<TestRecord<String, TargetDecision>> readRecords() {
    return decisions.readRecordsToList();
  }

  /** Every status record emitted since the last read, with timestamp and headers. */
  List<TestRecord<String, GslbStatus>> readStatusRecords() {
    return statuses.readRecordsToList();
  }

  /** Every decision emitted since the last read, in order (tombstones have null values). */
  List<KeyValue<String, TargetDecision>> read() {
    return decisions.readKeyValuesToList();
  }

  /** The last value per key emitted since the last read. */
  Map<String, TargetDecision> latest() {
    Map<String, TargetDecision> latest = new LinkedHashMap<>();
    for (KeyValue<String, TargetDecision> kv : read()) {
      latest.put(kv.key, kv.value);
    }
    return latest;
  }

  /** The decision the engine last published for {@code key}, from its store. */
  TargetDecision storedDecision(String key) {
    return stored(EngineTopology.DECISIONS_STORE, TargetDecision.class, key);
  }

  /** The status the engine last published for {@code key}, from its store. */
  GslbStatus storedStatus(String key) {
    return stored(EngineTopology.GSLB_STATUS_STORE, GslbStatus.class, key);
  }

  /** The Gslb report the engine keeps for {@code key}. */
  GslbReport storedReport(String key) {
    return topology.reports().get(key);
  }

  private <V> V stored(String store, Class<V> type, String key) {
    return EngineTopology.decode(
        store, type, driver.<String, byte[]>getKeyValueStore(store).get(key));
  }

  @Override
  public void close() {
    driver.close();
    try (var files = Files.walk(stateDir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
