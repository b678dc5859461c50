package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.stream.EngineOutput.DecisionOutput;
import dev.cairn.strategyengine.stream.TopologyInput.EndpointsInput;
import dev.cairn.strategyengine.stream.TopologyInput.GslbInput;
import dev.cairn.strategyengine.stream.TopologyInput.NodeInput;
import dev.cairn.strategyengine.stream.TopologyInput.ResolutionInput;
import dev.cairn.strategyengine.stream.TopologyInput.RouteInput;
import dev.cairn.strategyengine.stream.TopologyInput.ServiceInput;
import dev.cairn.strategyengine.stream.TopologyInput.SyncInput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The strategy-engine's Kafka Streams topology: direct-dns placement of HTTPRoutes and k8gb
 * decisions of Gslbs, in one processor per task.
 *
 * <pre>
 * routes, endpoints, services, gslbs ──────────────────────┐
 * nodes ─────────── repartition (to every partition) ───────┤
 * sync ──────────── repartition (to every partition) ───────┤ merge ─▶ decide ─┬─▶ decisions
 * hostname-resolutions ─ repartition (to every p.) ─────────┘   (state stores) └─▶ gslb-status
 *                                                                   ▲ changed hosts
 * peer-answers ──── global store (every instance) ─▶ PeerAnswerBoard ┘
 * </pre>
 *
 * <p>Routes, endpoints, Services and Gslbs are co-partitioned by namespace ({@code
 * NamespacePartitioner}), so a task holds a route or a Gslb with its Services. Nodes, sync markers
 * and hostname resolutions concern every route or Gslb, so they are re-published to every partition
 * of an internal topic (a multicast {@code StreamPartitioner}) and every task keeps its own full
 * copy: they are few, and each change must reach each task in order with the other inputs. Peer
 * answers are the bulk of the input (one per host and peer, changing together when a peer fails),
 * so they are a global store instead, restored from the compacted topic itself: one record read per
 * instance and no changelog, where the broadcast cost a copy per partition, a changelog record per
 * task and three JSON codings. Kafka Streams never tells a task that a global store changed, so its
 * processor tells the tasks through the {@link PeerAnswerBoard}, which also holds the answers
 * decoded; a task re-decides the Gslbs of a changed host at its next decision pass.
 *
 * <p>All stores are key-value stores with String keys and Cairn JSON values ({@link EngineJson},
 * the bytes {@code CairnSerde} writes). {@value #DECISIONS_STORE} holds the last decision emitted
 * per route or Gslb and serves the explain API, with {@value #GSLB_STATUS_STORE} and the reports of
 * {@link GslbReports}. The partitioned inputs (routes, endpoints, Services, Gslbs) are stored as
 * the bytes they arrived as and read from their decoded copy in memory ({@link InputStore}), so
 * neither storing nor reading one codes JSON. The stores of inputs, decisions, statuses and held
 * decisions have changelogs and are kept as {@link StoreType} says. What is derived from them by
 * deciding is rebuilt from empty when a task starts, since every task decides everything it holds
 * again then: the deadline index ({@value #DEADLINES_STORE}) is an in-memory store without
 * changelog, and the reverse index, the dependencies and the reports are plain objects in the
 * task's (or the instance's) memory, so they cost no changelog record, no disk write and no
 * encoding per decision, and can never be left behind the inputs (a RocksDB copy would survive a
 * crash flushed at some other point than the changelogged stores).
 */
public final class EngineTopology {

  /**
   * Store: routes by key ({@code HTTPRoute/<ns>/<name>}, {@code Ingress/<ns>/<name>}, {@code
   * VirtualService/<ns>/<name>}, ...).
   */
  public static final String ROUTES_STORE = "routes";

  /** Store: Service endpoints by key ({@code Service/<ns>/<name>}). */
  public static final String ENDPOINTS_STORE = "endpoints";

  /** Store: this task's copy of every node ({@code Node/<name>}). */
  public static final String NODES_STORE = "nodes";

  /** Store: this task's copy of the watchers' sync markers. */
  public static final String SYNC_STORE = "sync-markers";

  /** Store: this task's copy of the hostname resolutions ({@code <server>|<hostname>}). */
  public static final String RESOLUTIONS_STORE = "hostname-resolutions";

  /** Store: Gslbs by key ({@code Gslb/<ns>/<name>}). */
  public static final String GSLBS_STORE = "gslbs";

  /** Store: Services by key ({@code Service/<ns>/<name>}). */
  public static final String SERVICES_STORE = "services";

  /**
   * Global store: the peer answers, keyed {@code <host>|<geoTag>}, restored from the peer-answers
   * topic (no changelog); read through the {@link PeerAnswerBoard}.
   */
  public static final String PEER_ANSWERS_STORE = "peer-answers";

  /**
   * Store: the time-ordered index of Gslbs to re-decide at an instant ({@link DependencyIndex}).
   */
  public static final String DEADLINES_STORE = "gslb-deadlines";

  /** Store: the last decision emitted per route or Gslb key. */
  public static final String DECISIONS_STORE = "decisions";

  /** Store: the last status emitted per Gslb key. */
  public static final String GSLB_STATUS_STORE = "gslb-status";

  /** Store: keys whose NO_TARGETS, WITHDRAW or tombstone waits for the watcher's sync. */
  public static final String HELD_STORE = "held-decisions";

  /** How state stores are kept. */
  public enum StoreType {
    /** RocksDB on the state directory, restored from the changelog only when lost. */
    ROCKSDB(Stores::persistentKeyValueStore),
    /** Heap memory, restored from the changelog on every start. */
    IN_MEMORY(Stores::inMemoryKeyValueStore);

    private final Function<String, KeyValueBytesStoreSupplier> supplier;

    StoreType(Function<String, KeyValueBytesStoreSupplier> supplier) {
      this.supplier = supplier;
    }
  }

  /** The stores rebuilt by deciding again: in memory, without changelog. */
  private static final Set<String> DERIVED_STORES = Set.of(DEADLINES_STORE);

  /** The stores of decoded values: the inputs copied to every partition, and the indexes. */
  private static final Map<String, Class<?>> STORES =
      Map.ofEntries(
          Map.entry(NODES_STORE, NodeState.class),
          Map.entry(SYNC_STORE, SyncMarker.class),
          Map.entry(RESOLUTIONS_STORE, HostnameResolution.class),
          Map.entry(DEADLINES_STORE, String.class),
          Map.entry(HELD_STORE, String.class));

  /**
   * The stores of inputs kept as the bytes they arrived as, decoded in memory ({@link InputStore}),
   * with the type of their values.
   */
  private static final Map<String, Class<?>> INPUT_STORES =
      Map.of(
          ROUTES_STORE, RouteState.class,
          ENDPOINTS_STORE, ServiceEndpoints.class,
          SERVICES_STORE, ServiceState.class,
          GSLBS_STORE, GslbState.class);

  /**
   * The stores of encoded values ({@link EncodedStore}: the Cairn JSON bytes, compared without
   * decoding), with the type of their values; read them with {@link #decode}.
   */
  private static final Map<String, Class<?>> ENCODED_STORES =
      Map.of(DECISIONS_STORE, TargetDecision.class, GSLB_STATUS_STORE, GslbStatus.class);

  private final TopicSettings topics;
  private final PlacementSettings settings;
  private final GslbSettings gslbSettings;
  private final EngineMetrics metrics;
  private final Duration expiryCheckInterval;
  private final Duration punctuateInterval;
  private final StoreType storeType;
  private final CatchUp catchUp;
  private final GslbReports reports = new GslbReports();

  /**
   * The default largest encoded output, 1000 KiB: under the producer's default {@code
   * max.request.size} and the broker's default {@code message.max.bytes} (1 MiB) with room for the
   * key, the headers and the batch's own overhead.
   */
  public static final int DEFAULT_MAX_OUTPUT_BYTES = 1000 * 1024;

  private final int maxOutputBytes;

  /**
   * @param topics topic names and prefix
   * @param settings the placement settings
   * @param gslbSettings the Gslb settings
   * @param metrics where recomputations and emitted decisions are counted
   * @param expiryCheckInterval how often stale hostname resolutions are checked for expiry
   * @param punctuateInterval how often Gslbs whose trusted peer answers expire are re-decided
   * @param storeType how state stores are kept
   * @param catchUp how decisions are batched while the engine works through a backlog
   * @param maxOutputBytes the largest encoded decision or status the engine sends ({@code
   *     engine.max-output-size}): a larger one is refused, counted and logged, and the previous one
   *     stays, where sending it would fail the producer and stop the engine
   */
  public EngineTopology(
      TopicSettings topics,
      PlacementSettings settings,
      GslbSettings gslbSettings,
      EngineMetrics metrics,
      Duration expiryCheckInterval,
      Duration punctuateInterval,
      StoreType storeType,
      CatchUp catchUp,
      int maxOutputBytes) {
    if (maxOutputBytes < 1) {
      throw new IllegalArgumentException("maxOutputBytes must be positive, was " + maxOutputBytes);
    }
    this.maxOutputBytes = maxOutputBytes;
    this.topics = Objects.requireNonNull(topics, "topics");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.gslbSettings = Objects.requireNonNull(gslbSettings, "gslbSettings");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.expiryCheckInterval = requirePositive(expiryCheckInterval, "the expiry check interval");
    this.punctuateInterval = requirePositive(punctuateInterval, "the punctuate interval");
    this.storeType = Objects.requireNonNull(storeType, "storeType");
    this.catchUp = Objects.requireNonNull(catchUp, "catchUp");
  }

  /** The last report of every Gslb this instance decides, for the explain API. */
  public GslbReports reports() {
    return reports;
  }

  /**
   * A value read from one of the stores of encoded values ({@value #DECISIONS_STORE}, {@value
   * #GSLB_STATUS_STORE}), which hold the bytes they are published with; {@code null} stays {@code
   * null}.
   *
   * @throws IllegalArgumentException when {@code type} is not that store's value type
   */
  public static <V> V decode(String store, Class<V> type, byte[] stored) {
    if (!type.equals(ENCODED_STORES.get(store))) {
      throw new IllegalArgumentException(
          "store " + store + " does not hold encoded " + type.getSimpleName() + " values");
    }
    return EngineJson.serde(type).deserializer().deserialize(store, stored);
  }

  /**
   * Adds the stores, sources, processor and sink to {@code builder}; returns the processor's
   * outputs (decisions and Gslb statuses, Cairn JSON, each to its own topic).
   */
  public KStream<String, ?> build(StreamsBuilder builder) {
    storeBuilders().forEach(builder::addStateStore);

    // Gateways usually live in a namespace of their own, so a route's Gateway can be in another
    // partition than the route and its Gslb: every task gets every Gateway, as it gets every node.
    KStream<String, TopologyInput> routesAndGateways =
        received(builder, Topics.ROUTES, RouteInput::new);
    KStream<String, TopologyInput> gateways =
        routesAndGateways
            .filter((key, input) -> isGateway(key), Named.as("gateways"))
            .repartition(
                Repartitioned.<String, TopologyInput>as("gateways-broadcast")
                    .withKeySerde(Serdes.String())
                    .withValueSerde(EngineJson.passedOn(Topics.ROUTES, RouteInput::new))
                    .withStreamPartitioner(new BroadcastPartitioner<>()));
    KStream<String, TopologyInput> routes =
        routesAndGateways.filterNot((key, input) -> isGateway(key), Named.as("routes"));
    KStream<String, TopologyInput> endpoints =
        received(builder, Topics.ENDPOINTS, EndpointsInput::new);
    KStream<String, TopologyInput> services = received(builder, Topics.SERVICES, ServiceInput::new);
    KStream<String, TopologyInput> gslbs = received(builder, Topics.GSLBS, GslbInput::new);
    KStream<String, TopologyInput> nodes =
        broadcast(builder, Topics.NODES, "nodes-broadcast")
            .mapValues(NodeInput::new, Named.as("nodes-input"));
    KStream<String, TopologyInput> sync =
        broadcast(builder, Topics.SYNC, "sync-broadcast")
            .mapValues(SyncInput::new, Named.as("sync-input"));
    KStream<String, TopologyInput> resolutions =
        broadcast(builder, Topics.HOSTNAME_RESOLUTIONS, "resolutions-broadcast")
            .mapValues(ResolutionInput::new, Named.as("resolutions-input"));
    PeerAnswerBoard board = new PeerAnswerBoard();
    String peerAnswersTopic = topics.name(Topics.PEER_ANSWERS);
    builder.addGlobalStore(
        storeBuilder(PEER_ANSWERS_STORE, Serdes.ByteArray()).withLoggingDisabled(),
        peerAnswersTopic,
        Consumed.with(
                Serdes.String(),
                EngineJson.received(Topics.PEER_ANSWERS, PeerAnswerStoreProcessor.Received::new))
            .withName(peerAnswersTopic + "-source"),
        () -> new PeerAnswerStoreProcessor(board, metrics));

    KStream<String, EngineOutput> outputs =
        routes
            .merge(gateways, Named.as("merge-gateways"))
            .merge(endpoints, Named.as("merge-endpoints"))
            .merge(nodes, Named.as("merge-nodes"))
            .merge(sync, Named.as("merge-sync"))
            .merge(resolutions, Named.as("merge-resolutions"))
            .merge(services, Named.as("merge-services"))
            .merge(gslbs, Named.as("merge-gslbs"))
            .process(
                () ->
                    new DecisionProcessor(
                        settings,
                        gslbSettings,
                        metrics,
                        expiryCheckInterval,
                        punctuateInterval,
                        catchUp,
                        board,
                        reports,
                        maxOutputBytes),
                Named.as("decide"),
                Stream.of(STORES, INPUT_STORES, ENCODED_STORES)
                    .flatMap(stores -> stores.keySet().stream())
                    .toArray(String[]::new));
    // One sink that picks the topic by the output's type: an output goes from the processor
    // straight to the producer, without a branch and a mapValues node on its way.
    String decisionsTopic = topics.name(Topics.DECISIONS);
    String statusTopic = topics.name(Topics.GSLB_STATUS);
    outputs.to(
        (key, output, context) -> output instanceof DecisionOutput ? decisionsTopic : statusTopic,
        Produced.with(Serdes.String(), EngineJson.outputs()).withName("outputs-sink"));
    return outputs;
  }

  /** A Gateway's key on the routes topic, {@code Gateway/<namespace>/<name>}. */
  private static boolean isGateway(String key) {
    return key != null && key.startsWith("Gateway/");
  }

  /** A source whose values reach the processor with the bytes they arrived as. */
  private <V> KStream<String, TopologyInput> received(
      StreamsBuilder builder, TopicSpec<V> topic, BiFunction<V, byte[], TopologyInput> made) {
    String name = topics.name(topic);
    return builder.stream(
        name,
        Consumed.with(Serdes.String(), EngineJson.<V, TopologyInput>received(topic, made))
            .withName(name + "-source"));
  }

  private <V> KStream<String, V> source(StreamsBuilder builder, TopicSpec<V> topic) {
    String name = topics.name(topic);
    return builder.stream(
        name, Consumed.with(Serdes.String(), EngineJson.serde(topic)).withName(name + "-source"));
  }

  private <V> KStream<String, V> broadcast(
      StreamsBuilder builder, TopicSpec<V> topic, String name) {
    Serde<V> values = EngineJson.serde(topic);
    return source(builder, topic)
        .repartition(
            Repartitioned.<String, V>as(name)
                .withKeySerde(Serdes.String())
                .withValueSerde(values)
                .withStreamPartitioner(new BroadcastPartitioner<>()));
  }

  /** Every store of the decision processor. */
  List<StoreBuilder<?>> storeBuilders() {
    List<StoreBuilder<?>> stores = new ArrayList<>();
    STORES.forEach((name, type) -> stores.add(storeBuilder(name, EngineJson.serde(type))));
    Stream.of(INPUT_STORES, ENCODED_STORES)
        .flatMap(encoded -> encoded.keySet().stream())
        .forEach(name -> stores.add(storeBuilder(name, Serdes.ByteArray())));
    return stores;
  }

  private <V> StoreBuilder<KeyValueStore<String, V>> storeBuilder(String name, Serde<V> values) {
    if (DERIVED_STORES.contains(name)) {
      return Stores.keyValueStoreBuilder(
              Stores.inMemoryKeyValueStore(name), Serdes.String(), values)
          .withCachingDisabled()
          .withLoggingDisabled();
    }
    return Stores.keyValueStoreBuilder(storeType.supplier.apply(name), Serdes.String(), values)
        .withCachingDisabled();
  }

  private static Duration requirePositive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive");
    }
    return value;
  }
}
