package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.codec.CairnSerializer;
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

/** The engine topology under {@link TopologyTestDriver}, with typed input and output topics. */
final class EngineDriver implements AutoCloseable {

  static final Instant START = Instant.parse("2026-11-29T12:00:00Z");

  final CountingMetrics metrics = new CountingMetrics();
  final InputErrors inputErrors = new InputErrors(metrics);
  private final TopologyTestDriver driver;
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
  private Instant wallClock;

  EngineDriver(PlacementSettings settings) {
    this(settings, START, StoreType.IN_MEMORY);
  }

  EngineDriver(PlacementSettings settings, Instant now, StoreType storeType) {
    this(settings, GslbSettings.defaults("eu"), now, storeType);
  }

  EngineDriver(
      PlacementSettings settings, GslbSettings gslbSettings, Instant now, StoreType storeType) {
    StreamsBuilder builder = new StreamsBuilder();
    new EngineTopology(
            TopicSettings.defaults(),
            settings,
            gslbSettings,
            metrics,
            Duration.ofMinutes(1),
            Duration.ofSeconds(1),
            storeType)
        .build(builder);
    try {
      Path target = Path.of("target");
      Files.createDirectories(target);
      stateDir = Files.createTempDirectory(target.toAbsolutePath(), "placement-driver");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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

  private <V> TestInputTopic<String, V> input(TopicSpec<V> topic) {
    return driver.createInputTopic(
        topic.name(), new StringSerializer(), new CairnSerializer<V>(), START, Duration.ZERO);
  }

  /** A raw input topic, for malformed and versioned records. */
  TestInputTopic<String, byte[]> raw(TopicSpec<?> topic) {
    return driver.createInputTopic(
        topic.name(), new StringSerializer(), new ByteArraySerializer(), START, Duration.ZERO);
  }

  EngineDriver synced() {
    return marker(new SyncMarker("g1", SyncMarker.Phase.SYNCED, START, Map.of()));
  }

  EngineDriver marker(SyncMarker marker) {
    sync.pipeInput("topology-watcher", marker);
    return this;
  }

  EngineDriver route(RouteState route) {
    routes.pipeInput(route.ref().key(), route);
    return this;
  }

  EngineDriver deleteRoute(String key) {
    routes.pipeInput(key, null);
    return this;
  }

  EngineDriver endpoints(ServiceEndpoints value) {
    endpoints.pipeInput(value.ref().key(), value);
    return this;
  }

  EngineDriver deleteEndpoints(String key) {
    endpoints.pipeInput(key, null);
    return this;
  }

  EngineDriver node(NodeState node) {
    nodes.pipeInput(node.ref().key(), node);
    return this;
  }

  EngineDriver deleteNode(String name) {
    nodes.pipeInput(ObjectRef.cluster("Node", name).key(), null);
    return this;
  }

  EngineDriver resolution(HostnameResolution resolution) {
    resolutions.pipeInput(resolution.key(), resolution);
    return this;
  }

  EngineDriver gslb(GslbState gslb) {
    gslbs.pipeInput(gslb.ref().key(), gslb);
    return this;
  }

  EngineDriver deleteGslb(String key) {
    gslbs.pipeInput(key, null);
    return this;
  }

  EngineDriver service(ServiceState service) {
    services.pipeInput(service.ref().key(), service);
    return this;
  }

  EngineDriver deleteService(String key) {
    services.pipeInput(key, null);
    return this;
  }

  EngineDriver peerAnswer(PeerAnswer answer) {
    peerAnswers.pipeInput(answer.key(), answer);
    return this;
  }

  EngineDriver deletePeerAnswer(String key) {
    peerAnswers.pipeInput(key, null);
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
    driver.advanceWallClockTime(duration);
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

  KeyValueStore<String, TargetDecision> decisionStore() {
    return driver.getKeyValueStore(EngineTopology.DECISIONS_STORE);
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
