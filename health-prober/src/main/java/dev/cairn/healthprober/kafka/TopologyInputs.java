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
 */
public final class TopologyInputs implements TopologyView, AutoCloseable {

  private final StateTopicReader<GslbState> gslbs;
  private final StateTopicReader<RouteState> routes;
  private final StateTopicReader<ServiceState> services;
  private final StateTopicReader<NodeState> nodes;
  private final StateTopicReader<PeerAnswer> peerAnswers;
  private final StateTopicReader<HostnameResolution> resolutions;
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
        reader(
            bootstrapServers,
            consumerConfig,
            topics,
            Topics.GSLBS,
            () -> {
              hostsChanged();
              targetsChanged(); // k8gb.io/exposed-hostnames
            });
    this.routes =
        reader(
            bootstrapServers,
            consumerConfig,
            topics,
            Topics.ROUTES,
            () -> {
              hostsChanged();
              targetsChanged();
            });
    this.services =
        reader(bootstrapServers, consumerConfig, topics, Topics.SERVICES, this::targetsChanged);
    this.nodes =
        reader(bootstrapServers, consumerConfig, topics, Topics.NODES, this::targetsChanged);
    this.peerAnswers =
        reader(bootstrapServers, consumerConfig, topics, Topics.PEER_ANSWERS, () -> {});
    this.resolutions =
        reader(bootstrapServers, consumerConfig, topics, Topics.HOSTNAME_RESOLUTIONS, () -> {});
  }

  private static <V> StateTopicReader<V> reader(
      String bootstrap,
      Map<String, Object> config,
      TopicSettings topics,
      TopicSpec<V> spec,
      Runnable onChange) {
    Map<String, Object> c = new LinkedHashMap<>(config);
    c.put("client.id", "cairn-health-prober-" + topics.name(spec));
    return new StateTopicReader<>(
        bootstrap,
        c,
        topics.name(spec),
        spec.valueType(),
        (key, oldValue, newValue) -> onChange.run());
  }

  /** Starts every reader. */
  public void start() {
    for (StateTopicReader<?> r : all()) {
      r.start();
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
    return gslbs.caughtUp()
        && routes.caughtUp()
        && services.caughtUp()
        && nodes.caughtUp()
        && (ownTopicsClosed || (peerAnswers.caughtUp() && resolutions.caughtUp()));
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
    List<StateTopicReader<?>> readers = ownTopicsClosed ? topology() : all();
    for (StateTopicReader<?> r : readers) {
      String a = answer.apply(r);
      if (a != null) {
        return a;
      }
    }
    return null;
  }

  /** Every Gslb. */
  @Override
  public Collection<GslbState> gslbs() {
    return gslbs.snapshot().values();
  }

  /** Every route. */
  @Override
  public Collection<RouteState> routes() {
    return routes.snapshot().values();
  }

  /** Every Service. */
  @Override
  public Collection<ServiceState> services() {
    return services.snapshot().values();
  }

  /** Every node. */
  @Override
  public Collection<NodeState> nodes() {
    return nodes.snapshot().values();
  }

  /**
   * The prober's own published peer answers and hostname resolutions, read once after catching up;
   * the readers of the own topics are closed afterwards.
   */
  @Override
  public synchronized OwnState takeOwnState() {
    if (ownState == null) {
      ownState = new OwnState(peerAnswers.snapshot(), resolutions.snapshot());
      ownTopicsClosed = true;
      peerAnswers.close();
      resolutions.close();
    }
    return ownState;
  }

  /** Per-topic reader state, for health. */
  public Map<String, Object> describe() {
    Map<String, Object> out = new LinkedHashMap<>();
    for (StateTopicReader<?> r : topology()) {
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("caughtUp", r.caughtUp());
      d.put("keys", r.size());
      d.put("malformed", r.malformedCount());
      if (r.blockedReason() != null) {
        d.put("blocked", r.blockedReason());
      }
      out.put(r.topic(), d);
    }
    return out;
  }

  /** The readers of the topology topics, open until {@link #close()}. */
  private List<StateTopicReader<?>> topology() {
    return List.of(gslbs, routes, services, nodes);
  }

  private List<StateTopicReader<?>> all() {
    return List.of(gslbs, routes, services, nodes, peerAnswers, resolutions);
  }

  @Override
  public synchronized void close() {
    for (StateTopicReader<?> r : topology()) {
      r.close();
    }
    if (!ownTopicsClosed) {
      ownTopicsClosed = true;
      peerAnswers.close();
      resolutions.close();
    }
  }
}
