package dev.cairn.healthprober.kafka;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.kafka.StateTopicReader;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceState;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The prober's view of Kafka: the Gslb, route, Service and node tables it probes and resolves for,
 * and (read once at start, then closed) its own output topics, so that state and the keys to
 * withdraw survive a restart. Changes only raise dirty flags; the schedulers recompute from full
 * tables (level-based).
 *
 * <p>Every table holds only records whose Kafka key is the key their value names ({@link
 * KeyCheckedTable}): a record claiming to be another object (key {@code HTTPRoute/default/shop},
 * value named {@code shop-evil}) is logged, counted as malformed in {@link #describe()} and
 * skipped, and the last good value of its key stays.
 */
public final class TopologyInputs implements TopologyView, AutoCloseable {

  private final Input<GslbState> gslbs;
  private final Input<RouteState> routes;
  private final Input<ServiceState> services;
  private final Input<NodeState> nodes;
  private final Input<PeerAnswer> peerAnswers;
  private final Input<HostnameResolution> resolutions;
  private final AtomicBoolean hostsDirty = new AtomicBoolean(true);
  private final AtomicBoolean targetsDirty = new AtomicBoolean(true);
  private volatile boolean ownTopicsClosed;
  private OwnState ownState;

  /**
   * @param bootstrapServers the Kafka bootstrap servers
   * @param consumerConfig further consumer settings (security and the like)
   * @param topics the topic naming
   */
  public TopologyInputs(
      String bootstrapServers, Map<String, Object> consumerConfig, TopicSettings topics) {
    this.gslbs =
        input(
            bootstrapServers,
            consumerConfig,
            topics,
            Topics.GSLBS,
            g -> g.ref().key(),
            () -> {
              hostsChanged();
              targetsChanged(); // k8gb.io/exposed-hostnames
            });
    this.routes =
        input(
            bootstrapServers,
            consumerConfig,
            topics,
            Topics.ROUTES,
            r -> r.ref().key(),
            () -> {
              hostsChanged();
              targetsChanged();
            });
    this.services =
        input(
            bootstrapServers,
            consumerConfig,
            topics,
            Topics.SERVICES,
            s -> s.ref().key(),
            this::targetsChanged);
    this.nodes =
        input(
            bootstrapServers,
            consumerConfig,
            topics,
            Topics.NODES,
            n -> n.ref().key(),
            this::targetsChanged);
    this.peerAnswers =
        input(
            bootstrapServers,
            consumerConfig,
            topics,
            Topics.PEER_ANSWERS,
            PeerAnswer::key,
            () -> {});
    this.resolutions =
        input(
            bootstrapServers,
            consumerConfig,
            topics,
            Topics.HOSTNAME_RESOLUTIONS,
            HostnameResolution::key,
            () -> {});
  }

  /**
   * A topic's reader and the table the prober uses: only records whose key matches their value's
   * own key ({@link KeyCheckedTable}); the reader's own table, keyed by record key alone, is never
   * read.
   */
  private record Input<V>(StateTopicReader<V> reader, KeyCheckedTable<V> table) {}

  private static <V> Input<V> input(
      String bootstrap,
      Map<String, Object> config,
      TopicSettings topics,
      TopicSpec<V> spec,
      Function<V, String> valueKey,
      Runnable onChange) {
    Map<String, Object> c = new LinkedHashMap<>(config);
    c.put("client.id", "cairn-health-prober-" + topics.name(spec));
    KeyCheckedTable<V> table = new KeyCheckedTable<>(topics.name(spec), valueKey, onChange);
    return new Input<>(
        new StateTopicReader<>(bootstrap, c, topics.name(spec), spec.valueType(), table), table);
  }

  /** Starts every reader. */
  public void start() {
    for (Input<?> i : all()) {
      i.reader().start();
    }
  }

  private void hostsChanged() {
    hostsDirty.set(true);
  }

  private void targetsChanged() {
    targetsDirty.set(true);
  }

  /** True once, and clears, when Gslbs or routes changed since the last call. */
  @Override
  public boolean takeHostsDirty() {
    return hostsDirty.getAndSet(false);
  }

  /** True once, and clears, when Gslbs, routes, Services or nodes changed since the last call. */
  @Override
  public boolean takeTargetsDirty() {
    return targetsDirty.getAndSet(false);
  }

  /** True when every reader has caught up with its topic. */
  @Override
  public boolean caughtUp() {
    return gslbs.reader().caughtUp()
        && routes.reader().caughtUp()
        && services.reader().caughtUp()
        && nodes.reader().caughtUp()
        && (ownTopicsClosed
            || (peerAnswers.reader().caughtUp() && resolutions.reader().caughtUp()));
  }

  /** Why a reader stopped (a newer schema version, a failure), or {@code null}. */
  public String blockedReason() {
    return first(StateTopicReader::blockedReason);
  }

  /**
   * Why a reader ended on an unexpected failure, which a restart may cure ({@link
   * StateTopicReader#failure()}), or {@code null}.
   */
  public String failure() {
    return first(StateTopicReader::failure);
  }

  /** The first reader's non-null answer, among the readers still open. */
  private String first(Function<StateTopicReader<?>, String> answer) {
    List<Input<?>> inputs = ownTopicsClosed ? topology() : all();
    for (Input<?> i : inputs) {
      String a = answer.apply(i.reader());
      if (a != null) {
        return a;
      }
    }
    return null;
  }

  /** Every Gslb. */
  @Override
  public Collection<GslbState> gslbs() {
    return gslbs.table().snapshot().values();
  }

  /** Every route. */
  @Override
  public Collection<RouteState> routes() {
    return routes.table().snapshot().values();
  }

  /** Every Service. */
  @Override
  public Collection<ServiceState> services() {
    return services.table().snapshot().values();
  }

  /** Every node. */
  @Override
  public Collection<NodeState> nodes() {
    return nodes.table().snapshot().values();
  }

  /**
   * The prober's own published peer answers and hostname resolutions, read once after catching up;
   * the readers of the own topics are closed afterwards.
   */
  @Override
  public synchronized OwnState takeOwnState() {
    if (ownState == null) {
      ownState = new OwnState(peerAnswers.table().snapshot(), resolutions.table().snapshot());
      ownTopicsClosed = true;
      peerAnswers.reader().close();
      resolutions.reader().close();
    }
    return ownState;
  }

  /** Per-topic reader state, for health. */
  public Map<String, Object> describe() {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Input<?> i : topology()) {
      StateTopicReader<?> r = i.reader();
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("caughtUp", r.caughtUp());
      d.put("keys", i.table().size());
      d.put("malformed", r.malformedCount() + i.table().mismatched());
      if (r.blockedReason() != null) {
        d.put("blocked", r.blockedReason());
      }
      out.put(r.topic(), d);
    }
    return out;
  }

  /** The readers of the topology topics, open until {@link #close()}. */
  private List<Input<?>> topology() {
    return List.of(gslbs, routes, services, nodes);
  }

  private List<Input<?>> all() {
    return List.of(gslbs, routes, services, nodes, peerAnswers, resolutions);
  }

  @Override
  public synchronized void close() {
    for (Input<?> i : topology()) {
      i.reader().close();
    }
    if (!ownTopicsClosed) {
      ownTopicsClosed = true;
      peerAnswers.reader().close();
      resolutions.reader().close();
    }
  }
}
