package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerde;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.strategyengine.placement.PlacementDependencies;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.stream.TopologyInput.EndpointsInput;
import dev.cairn.strategyengine.stream.TopologyInput.NodeInput;
import dev.cairn.strategyengine.stream.TopologyInput.ResolutionInput;
import dev.cairn.strategyengine.stream.TopologyInput.RouteInput;
import dev.cairn.strategyengine.stream.TopologyInput.SyncInput;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

/**
 * The strategy-engine's Kafka Streams topology for direct-dns placement.
 *
 * <pre>
 * routes ───────────────────────────────────────────┐
 * endpoints ────────────────────────────────────────┤
 * nodes ─────────── repartition (to every partition) ┤ merge ─▶ placement ─▶ decisions
 * sync ──────────── repartition (to every partition) ┤          (state stores)
 * hostname-resolutions ─ repartition (to every p.) ──┘
 * </pre>
 *
 * <p>Routes and endpoints are co-partitioned by namespace ({@code NamespacePartitioner}), so a task
 * holds a route with its Services. Nodes, sync markers and hostname resolutions concern every
 * route, so they are re-published to every partition of an internal topic (a multicast {@code
 * StreamPartitioner}) and every task keeps its own full copy. A global store would give every task
 * the data too, but Kafka Streams never tells a task that a global store changed, and a task
 * reading it races the global thread; the broadcast delivers each change to each task in order,
 * which is what recomputing the affected routes needs.
 *
 * <p>All stores are key-value stores with String keys and {@link CairnSerde} values. {@value
 * #DECISIONS_STORE} holds the last decision emitted per route and serves the explain API.
 */
public final class PlacementTopology {

  /** Store: routes by key ({@code HTTPRoute/<ns>/<name>}). */
  public static final String ROUTES_STORE = "routes";

  /** Store: Service endpoints by key ({@code Service/<ns>/<name>}). */
  public static final String ENDPOINTS_STORE = "endpoints";

  /** Store: this task's copy of every node ({@code Node/<name>}). */
  public static final String NODES_STORE = "nodes";

  /** Store: this task's copy of the watchers' sync markers. */
  public static final String SYNC_STORE = "sync-markers";

  /** Store: this task's copy of the hostname resolutions ({@code <server>|<hostname>}). */
  public static final String RESOLUTIONS_STORE = "hostname-resolutions";

  /** Store: the reverse index input → routes ({@link PlacementIndex}). */
  public static final String INDEX_STORE = "placement-index";

  /** Store: each route's {@link PlacementDependencies}, to update the index. */
  public static final String DEPENDENCIES_STORE = "placement-dependencies";

  /** Store: the last decision emitted per route key. */
  public static final String DECISIONS_STORE = "decisions";

  /** Store: routes whose NO_TARGETS, WITHDRAW or tombstone waits for the watcher's sync. */
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

  private final TopicSettings topics;
  private final PlacementSettings settings;
  private final EngineMetrics metrics;
  private final Duration expiryCheckInterval;
  private final StoreType storeType;

  /**
   * @param topics topic names and prefix
   * @param settings the placement settings
   * @param metrics where recomputations and emitted decisions are counted
   * @param expiryCheckInterval how often stale hostname resolutions are checked for expiry
   * @param storeType how state stores are kept
   */
  public PlacementTopology(
      TopicSettings topics,
      PlacementSettings settings,
      EngineMetrics metrics,
      Duration expiryCheckInterval,
      StoreType storeType) {
    this.topics = Objects.requireNonNull(topics, "topics");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.expiryCheckInterval = Objects.requireNonNull(expiryCheckInterval, "expiryCheckInterval");
    this.storeType = Objects.requireNonNull(storeType, "storeType");
    if (expiryCheckInterval.isNegative() || expiryCheckInterval.isZero()) {
      throw new IllegalArgumentException("the expiry check interval must be positive");
    }
  }

  /** Adds the stores, sources, processor and sink to {@code builder}; returns the decisions. */
  public KStream<String, TargetDecision> build(StreamsBuilder builder) {
    addStore(builder, ROUTES_STORE, RouteState.class);
    addStore(builder, ENDPOINTS_STORE, ServiceEndpoints.class);
    addStore(builder, NODES_STORE, NodeState.class);
    addStore(builder, SYNC_STORE, SyncMarker.class);
    addStore(builder, RESOLUTIONS_STORE, HostnameResolution.class);
    addStore(builder, INDEX_STORE, String.class);
    addStore(builder, DEPENDENCIES_STORE, PlacementDependencies.class);
    addStore(builder, DECISIONS_STORE, TargetDecision.class);
    addStore(builder, HELD_STORE, String.class);

    KStream<String, TopologyInput> routes =
        source(builder, Topics.ROUTES).mapValues(RouteInput::new, Named.as("routes-input"));
    KStream<String, TopologyInput> endpoints =
        source(builder, Topics.ENDPOINTS)
            .mapValues(EndpointsInput::new, Named.as("endpoints-input"));
    KStream<String, TopologyInput> nodes =
        broadcast(builder, Topics.NODES, "nodes-broadcast")
            .mapValues(NodeInput::new, Named.as("nodes-input"));
    KStream<String, TopologyInput> sync =
        broadcast(builder, Topics.SYNC, "sync-broadcast")
            .mapValues(SyncInput::new, Named.as("sync-input"));
    KStream<String, TopologyInput> resolutions =
        broadcast(builder, Topics.HOSTNAME_RESOLUTIONS, "resolutions-broadcast")
            .mapValues(ResolutionInput::new, Named.as("resolutions-input"));

    KStream<String, TargetDecision> decisions =
        routes
            .merge(endpoints, Named.as("merge-endpoints"))
            .merge(nodes, Named.as("merge-nodes"))
            .merge(sync, Named.as("merge-sync"))
            .merge(resolutions, Named.as("merge-resolutions"))
            .process(
                () -> new PlacementProcessor(settings, metrics, expiryCheckInterval),
                Named.as("placement"),
                ROUTES_STORE,
                ENDPOINTS_STORE,
                NODES_STORE,
                SYNC_STORE,
                RESOLUTIONS_STORE,
                INDEX_STORE,
                DEPENDENCIES_STORE,
                DECISIONS_STORE,
                HELD_STORE);
    decisions.to(
        topics.name(Topics.DECISIONS),
        Produced.with(Serdes.String(), CairnSerde.of(Topics.DECISIONS)).withName("decisions-sink"));
    return decisions;
  }

  private <V> KStream<String, V> source(StreamsBuilder builder, TopicSpec<V> topic) {
    String name = topics.name(topic);
    return builder.stream(
        name, Consumed.with(Serdes.String(), CairnSerde.of(topic)).withName(name + "-source"));
  }

  private <V> KStream<String, V> broadcast(
      StreamsBuilder builder, TopicSpec<V> topic, String name) {
    Serde<V> values = CairnSerde.of(topic);
    return source(builder, topic)
        .repartition(
            Repartitioned.<String, V>as(name)
                .withKeySerde(Serdes.String())
                .withValueSerde(values)
                .withStreamPartitioner(new BroadcastPartitioner<>()));
  }

  private <V> void addStore(StreamsBuilder builder, String name, Class<V> type) {
    builder.addStateStore(
        Stores.keyValueStoreBuilder(
                storeType.supplier.apply(name), Serdes.String(), new CairnSerde<>(type))
            .withCachingDisabled());
  }
}
