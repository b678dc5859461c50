package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerde;
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
import dev.cairn.strategyengine.gslb.GslbDependencies;
import dev.cairn.strategyengine.gslb.GslbReport;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.placement.PlacementDependencies;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.stream.EngineOutput.DecisionOutput;
import dev.cairn.strategyengine.stream.EngineOutput.StatusOutput;
import dev.cairn.strategyengine.stream.TopologyInput.EndpointsInput;
import dev.cairn.strategyengine.stream.TopologyInput.GslbInput;
import dev.cairn.strategyengine.stream.TopologyInput.NodeInput;
import dev.cairn.strategyengine.stream.TopologyInput.PeerAnswerInput;
import dev.cairn.strategyengine.stream.TopologyInput.ResolutionInput;
import dev.cairn.strategyengine.stream.TopologyInput.RouteInput;
import dev.cairn.strategyengine.stream.TopologyInput.ServiceInput;
import dev.cairn.strategyengine.stream.TopologyInput.SyncInput;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

/**
 * The strategy-engine's Kafka Streams topology: direct-dns placement of HTTPRoutes and k8gb
 * decisions of Gslbs, in one processor per task.
 *
 * <pre>
 * routes, endpoints, services, gslbs ──────────────────────┐
 * nodes ─────────── repartition (to every partition) ───────┤
 * sync ──────────── repartition (to every partition) ───────┤ merge ─▶ decide ─┬─▶ decisions
 * hostname-resolutions ─ repartition (to every p.) ─────────┤   (state stores) └─▶ gslb-status
 * peer-answers ──── repartition (to every partition) ───────┘
 * </pre>
 *
 * <p>Routes, endpoints, Services and Gslbs are co-partitioned by namespace ({@code
 * NamespacePartitioner}), so a task holds a route or a Gslb with its Services. Nodes, sync markers,
 * hostname resolutions and peer answers concern every route or Gslb, so they are re-published to
 * every partition of an internal topic (a multicast {@code StreamPartitioner}) and every task keeps
 * its own full copy. A global store would give every task the data too, but Kafka Streams never
 * tells a task that a global store changed, and a task reading it races the global thread; the
 * broadcast delivers each change to each task in order, which is what recomputing the affected
 * routes and Gslbs needs.
 *
 * <p>All stores are key-value stores with String keys and {@link CairnSerde} values. {@value
 * #DECISIONS_STORE} holds the last decision emitted per route or Gslb and serves the explain API,
 * with {@value #GSLB_STATUS_STORE} and {@value #GSLB_REPORTS_STORE}.
 */
public final class EngineTopology {

  /** Store: routes by key ({@code HTTPRoute/<ns>/<name>}, {@code Ingress/<ns>/<name>}). */
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

  /** Store: this task's copy of the peer answers, keyed {@code <host>|<geoTag>}. */
  public static final String PEER_ANSWERS_STORE = "peer-answers";

  /** Store: the reverse index input → routes and Gslbs ({@link DependencyIndex}). */
  public static final String INDEX_STORE = "dependency-index";

  /** Store: each route's {@link PlacementDependencies}, to update the index. */
  public static final String DEPENDENCIES_STORE = "placement-dependencies";

  /** Store: each Gslb's {@link GslbDependencies}, to update the index. */
  public static final String GSLB_DEPENDENCIES_STORE = "gslb-dependencies";

  /**
   * Store: the time-ordered index of Gslbs to re-decide at an instant ({@link DependencyIndex}).
   */
  public static final String DEADLINES_STORE = "gslb-deadlines";

  /** Store: the last decision emitted per route or Gslb key. */
  public static final String DECISIONS_STORE = "decisions";

  /** Store: the last status emitted per Gslb key. */
  public static final String GSLB_STATUS_STORE = "gslb-status";

  /** Store: the last {@link GslbReport} per Gslb key, for the explain API. */
  public static final String GSLB_REPORTS_STORE = "gslb-reports";

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

  private static final Map<String, Class<?>> STORES =
      Map.ofEntries(
          Map.entry(ROUTES_STORE, RouteState.class),
          Map.entry(ENDPOINTS_STORE, ServiceEndpoints.class),
          Map.entry(NODES_STORE, NodeState.class),
          Map.entry(SYNC_STORE, SyncMarker.class),
          Map.entry(RESOLUTIONS_STORE, HostnameResolution.class),
          Map.entry(GSLBS_STORE, GslbState.class),
          Map.entry(SERVICES_STORE, ServiceState.class),
          Map.entry(PEER_ANSWERS_STORE, PeerAnswer.class),
          Map.entry(INDEX_STORE, String.class),
          Map.entry(DEPENDENCIES_STORE, PlacementDependencies.class),
          Map.entry(GSLB_DEPENDENCIES_STORE, GslbDependencies.class),
          Map.entry(DEADLINES_STORE, String.class),
          Map.entry(DECISIONS_STORE, TargetDecision.class),
          Map.entry(GSLB_STATUS_STORE, GslbStatus.class),
          Map.entry(GSLB_REPORTS_STORE, GslbReport.class),
          Map.entry(HELD_STORE, String.class));

  private final TopicSettings topics;
  private final PlacementSettings settings;
  private final GslbSettings gslbSettings;
  private final EngineMetrics metrics;
  private final Duration expiryCheckInterval;
  private final Duration punctuateInterval;
  private final StoreType storeType;

  /**
   * @param topics topic names and prefix
   * @param settings the placement settings
   * @param gslbSettings the Gslb settings
   * @param metrics where recomputations and emitted decisions are counted
   * @param expiryCheckInterval how often stale hostname resolutions are checked for expiry
   * @param punctuateInterval how often Gslbs whose trusted peer answers expire are re-decided
   * @param storeType how state stores are kept
   */
  public EngineTopology(
      TopicSettings topics,
      PlacementSettings settings,
      GslbSettings gslbSettings,
      EngineMetrics metrics,
      Duration expiryCheckInterval,
      Duration punctuateInterval,
      StoreType storeType) {
    this.topics = Objects.requireNonNull(topics, "topics");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.gslbSettings = Objects.requireNonNull(gslbSettings, "gslbSettings");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.expiryCheckInterval = requirePositive(expiryCheckInterval, "the expiry check interval");
    this.punctuateInterval = requirePositive(punctuateInterval, "the punctuate interval");
    this.storeType = Objects.requireNonNull(storeType, "storeType");
  }

  /**
   * Adds the stores, sources, processor and sinks to {@code builder}; returns the decisions (the
   * Gslb statuses go to their own sink).
   */
  public KStream<String, TargetDecision> build(StreamsBuilder builder) {
    STORES.forEach((name, type) -> addStore(builder, name, type));

    KStream<String, TopologyInput> routes =
        source(builder, Topics.ROUTES).mapValues(RouteInput::new, Named.as("routes-input"));
    KStream<String, TopologyInput> endpoints =
        source(builder, Topics.ENDPOINTS)
            .mapValues(EndpointsInput::new, Named.as("endpoints-input"));
    KStream<String, TopologyInput> services =
        source(builder, Topics.SERVICES).mapValues(ServiceInput::new, Named.as("services-input"));
    KStream<String, TopologyInput> gslbs =
        source(builder, Topics.GSLBS).mapValues(GslbInput::new, Named.as("gslbs-input"));
    KStream<String, TopologyInput> nodes =
        broadcast(builder, Topics.NODES, "nodes-broadcast")
            .mapValues(NodeInput::new, Named.as("nodes-input"));
    KStream<String, TopologyInput> sync =
        broadcast(builder, Topics.SYNC, "sync-broadcast")
            .mapValues(SyncInput::new, Named.as("sync-input"));
    KStream<String, TopologyInput> resolutions =
        broadcast(builder, Topics.HOSTNAME_RESOLUTIONS, "resolutions-broadcast")
            .mapValues(ResolutionInput::new, Named.as("resolutions-input"));
    KStream<String, TopologyInput> peerAnswers =
        broadcast(builder, Topics.PEER_ANSWERS, "peer-answers-broadcast")
            .mapValues(PeerAnswerInput::new, Named.as("peer-answers-input"));

    KStream<String, EngineOutput> outputs =
        routes
            .merge(endpoints, Named.as("merge-endpoints"))
            .merge(nodes, Named.as("merge-nodes"))
            .merge(sync, Named.as("merge-sync"))
            .merge(resolutions, Named.as("merge-resolutions"))
            .merge(services, Named.as("merge-services"))
            .merge(gslbs, Named.as("merge-gslbs"))
            .merge(peerAnswers, Named.as("merge-peer-answers"))
            .process(
                () ->
                    new DecisionProcessor(
                        settings, gslbSettings, metrics, expiryCheckInterval, punctuateInterval),
                Named.as("decide"),
                STORES.keySet().toArray(String[]::new));
    Map<String, KStream<String, EngineOutput>> branches =
        outputs
            .split(Named.as("output-"))
            .branch((key, value) -> value instanceof DecisionOutput, Branched.as("decisions"))
            .defaultBranch(Branched.as("statuses"));
    KStream<String, TargetDecision> decisions =
        branches
            .get("output-decisions")
            .mapValues(value -> ((DecisionOutput) value).value(), Named.as("decision-values"));
    KStream<String, GslbStatus> statuses =
        branches
            .get("output-statuses")
            .mapValues(value -> ((StatusOutput) value).value(), Named.as("status-values"));
    decisions.to(
        topics.name(Topics.DECISIONS),
        Produced.with(Serdes.String(), CairnSerde.of(Topics.DECISIONS)).withName("decisions-sink"));
    statuses.to(
        topics.name(Topics.GSLB_STATUS),
        Produced.with(Serdes.String(), CairnSerde.of(Topics.GSLB_STATUS))
            .withName("gslb-status-sink"));
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

  private static Duration requirePositive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive");
    }
    return value;
  }
}
