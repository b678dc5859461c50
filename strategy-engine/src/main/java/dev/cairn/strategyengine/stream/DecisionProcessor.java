package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.EventTime;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.strategyengine.gslb.GslbDecider;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.placement.NodeDirectory;
import dev.cairn.strategyengine.placement.NodeView;
import dev.cairn.strategyengine.placement.Placement;
import dev.cairn.strategyengine.placement.PlacementDecider;
import dev.cairn.strategyengine.placement.PlacementDependencies;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.stream.EngineMetrics.Trigger;
import dev.cairn.strategyengine.stream.EngineOutput.DecisionOutput;
import dev.cairn.strategyengine.stream.TopologyInput.EndpointsInput;
import dev.cairn.strategyengine.stream.TopologyInput.GslbInput;
import dev.cairn.strategyengine.stream.TopologyInput.NodeInput;
import dev.cairn.strategyengine.stream.TopologyInput.ResolutionInput;
import dev.cairn.strategyengine.stream.TopologyInput.RouteInput;
import dev.cairn.strategyengine.stream.TopologyInput.ServiceInput;
import dev.cairn.strategyengine.stream.TopologyInput.SyncInput;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The adapter around {@link PlacementDecider} and {@link GslbDecider} in one stream task: keeps the
 * normalised inputs in state stores, recomputes only the routes and Gslbs an input change affects
 * (through the {@link DependencyIndex}), emits a decision only when it differs from the last one
 * emitted, and holds back every NO_TARGETS, WITHDRAW and tombstone until the watcher's view is
 * synced. Gslbs are handled by a {@link GslbReconciler}; two wall-clock punctuators re-decide what
 * changes with time alone (stale hostname resolutions, expiring trusted peer answers).
 *
 * <p>Recomputation is coalesced: an input change only marks the routes and Gslbs it affects, and
 * the marks are decided once each after the processing batch, by a punctuator on stream time (due
 * as soon as a record has advanced it; only while the input is live) or one on wall-clock time
 * (checked after every batch and at least every {@code poll.ms}, for records that did not advance
 * stream time). While the task catches up on a backlog of its own records each mark waits until the
 * backlog is worked off or it is {@link CatchUp#maxDelay()} old ({@link CatchUp}), so a Gslb whose
 * spec and peer answers arrive one after the other is decided once, not once per input; late peer
 * answer changes alone never start one ({@link #takeAnswerChanges}). Marks live in memory: a commit
 * can happen between a mark and its decision, so every task re-decides everything it holds when it
 * starts ({@link Trigger#RESTART}), as a level-triggered loop does after a restart.
 *
 * <p>Every decision and status is forwarded with the latest timestamp among the records (or
 * punctuations) that caused it and, in its {@link EventTime} header, the earliest event time among
 * the input records coalesced into it (a decision held back until the watcher's view is synced
 * keeps it until it is emitted). A decision caused by time alone (a trusted peer answer or a stale
 * resolution expiring, a restart) carries the time the engine decided it: that is when the change
 * was observed. A decision caused by inputs none of which carries the header carries none.
 */
final class DecisionProcessor
    implements Processor<String, TopologyInput, String, EngineOutput>, Emission {

  private static final Logger log = LoggerFactory.getLogger(DecisionProcessor.class);
  private static final String ROUTE_PREFIX = PlacementDecider.HTTP_ROUTE + "/";

  private static final String INGRESS_PREFIX = "Ingress/";
  private static final String GATEWAY_PREFIX = "Gateway/";

  /** An Istio VirtualService: read by the Gslbs on it, never placed (no direct-dns record). */
  private static final String VIRTUAL_SERVICE_PREFIX = "VirtualService/";

  private static final String GSLB_PREFIX = GslbDecider.KIND + "/";
  private static final String NODE_PREFIX = "Node/";
  private static final String TOMBSTONE = "TOMBSTONE";

  private final PlacementSettings settings;
  private final GslbSettings gslbSettings;
  private final EngineMetrics metrics;
  private final Duration expiryCheckInterval;
  private final Duration punctuateInterval;

  private ProcessorContext<String, EngineOutput> context;
  private InputStore<RouteState> routes;
  private InputStore<ServiceEndpoints> endpoints;
  private KeyValueStore<String, NodeState> nodes;
  private KeyValueStore<String, SyncMarker> syncMarkers;
  private KeyValueStore<String, HostnameResolution> resolutions;
  private InputStore<GslbState> gslbs;
  private InputStore<ServiceState> services;
  private final PeerAnswerBoard board;
  private final GslbReports reports;
  private Queue<PeerAnswerBoard.Change> answerChanges;

  /** Each route's dependencies: derived by deciding, in memory only (see {@link ReverseIndex}). */
  private final Map<String, PlacementDependencies> dependencies = new HashMap<>();

  private EncodedStore<TargetDecision> decisions;
  private EncodedStore<GslbStatus> statuses;
  private KeyValueStore<String, String> held;
  private ReverseIndex index;
  private StoreGslbView view;
  private GslbReconciler gslbReconciler;

  /** How often marks are considered for deciding (stream and wall-clock time). */
  private static final Duration DECIDE_INTERVAL = Duration.ofMillis(1);

  /** The content of the held store, kept in memory: every decision asks whether it is held. */
  private final Map<String, String> heldOutcomes = new HashMap<>();

  /** The triggers that are the passing of time, not an input record. */
  private static final Set<Trigger> TIMED =
      EnumSet.of(Trigger.RESOLUTION_EXPIRY, Trigger.SPLIT_BRAIN_EXPIRY, Trigger.RESTART);

  /** No event time known. */
  private static final long NO_EVENT_TIME = Long.MAX_VALUE;

  /** The routes and Gslbs marked and not decided yet, in the order they were first marked. */
  private Map<String, Mark> pending = new LinkedHashMap<>();

  /**
   * The event time of each held decision (the keys of {@link #heldOutcomes} whose causes carried
   * one), so that the decision carries it when the sync releases it; kept in memory only, so a
   * decision released after a restart carries the time it was decided.
   */
  private final Map<String, Long> heldEventTimes = new HashMap<>();

  private final CatchUp catchUp;
  private NodeDirectory directory;
  private boolean synced;
  private long timestamp;
  private long lastExpiryCheck = Long.MIN_VALUE;

  /**
   * The wall-clock time the task last processed an input or finished deciding (the start before
   * either): a task catching up that has had the chance to take input for {@link CatchUp#idle()}
   * since, and got none, has worked off its backlog. Deciding counts, so that a long decision pass
   * does not look like a pause of the input.
   */
  private long lastInputAt;

  /** True while the task works through a backlog: its last input was older than the lag. */
  private boolean catchingUp;

  /**
   * The stream-time decision punctuator, scheduled while the input is live and cancelled while the
   * task catches up. It fires after nearly every record (each advances stream time), and every
   * punctuation makes Kafka Streams halve the records it processes before it next looks at
   * punctuators, commits and polls: during a replay that meant one record per loop, and the loop's
   * own work was a fifth of the stream thread's CPU. While catching up, marks wait for the backlog
   * or for {@link CatchUp#maxDelay()} anyway, and the wall-clock punctuator (every millisecond at
   * most) decides them.
   */
  private Cancellable decideOnStreamTime;

  /** The event time of the input record being processed, {@link #NO_EVENT_TIME} when none. */
  private long inputEventTime = NO_EVENT_TIME;

  /** The largest encoded output sent ({@code engine.max-output-size}). */
  private final int maxOutputBytes;

  /** The timestamp of what the key being decided is forwarded with. */
  private long decidingTimestamp;

  /** The event time the key being decided is forwarded with, {@link #NO_EVENT_TIME} when none. */
  private long decidingEventTime = NO_EVENT_TIME;

  /**
   * @param maxOutputBytes the largest encoded decision or status sent ({@code
   *     engine.max-output-size}); a larger one is refused and the previous one stays
   */
  DecisionProcessor(
      PlacementSettings settings,
      GslbSettings gslbSettings,
      EngineMetrics metrics,
      Duration expiryCheckInterval,
      Duration punctuateInterval,
      CatchUp catchUp,
      PeerAnswerBoard board,
      GslbReports reports,
      int maxOutputBytes) {
    this.maxOutputBytes = maxOutputBytes;
    this.catchUp = catchUp;
    this.board = board;
    this.reports = reports;
    this.settings = settings;
    this.gslbSettings = gslbSettings;
    this.metrics = metrics;
    this.expiryCheckInterval = expiryCheckInterval;
    this.punctuateInterval = punctuateInterval;
  }

  @Override
  public void init(ProcessorContext<String, EngineOutput> context) {
    this.context = context;
    routes = input(context, EngineTopology.ROUTES_STORE, Topics.ROUTES, true);
    endpoints = input(context, EngineTopology.ENDPOINTS_STORE, Topics.ENDPOINTS, false);
    nodes = context.getStateStore(EngineTopology.NODES_STORE);
    syncMarkers = context.getStateStore(EngineTopology.SYNC_STORE);
    resolutions = context.getStateStore(EngineTopology.RESOLUTIONS_STORE);
    gslbs = input(context, EngineTopology.GSLBS_STORE, Topics.GSLBS, false);
    services = input(context, EngineTopology.SERVICES_STORE, Topics.SERVICES, true);
    // Before marking everything: a change after this is noticed, one before it is in the board.
    answerChanges = board.subscribe();
    decisions =
        new EncodedStore<>(
            context.getStateStore(EngineTopology.DECISIONS_STORE), TargetDecision.class);
    held = context.getStateStore(EngineTopology.HELD_STORE);
    try (KeyValueIterator<String, String> all = held.all()) {
      all.forEachRemaining(entry -> heldOutcomes.put(entry.key, entry.value));
    }
    statuses =
        new EncodedStore<>(
            context.getStateStore(EngineTopology.GSLB_STATUS_STORE), GslbStatus.class);
    index = new ReverseIndex();
    directory = new NodeDirectory();
    try (KeyValueIterator<String, NodeState> all = nodes.all()) {
      all.forEachRemaining(entry -> directory.put(entry.value));
    }
    view = new StoreGslbView(routes, services, endpoints, board, resolutions, directory);
    gslbReconciler =
        new GslbReconciler(
            gslbSettings,
            settings,
            metrics,
            this,
            view,
            index,
            gslbs,
            context.getStateStore(EngineTopology.DEADLINES_STORE),
            decisions,
            statuses,
            reports);
    synced = computeSynced();
    // Until the first input shows whether a backlog waits, assume one: the marks of the start are
    // decided once it is worked off (or the task is idle), not before.
    lastInputAt = context.currentSystemTimeMs();
    decideOnStreamTime = null; // a task's processor can be initialised again: not its old one
    catchingUp(true);
    markEverything();
    context.schedule(DECIDE_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> maybeDecide());
    context.schedule(
        expiryCheckInterval, PunctuationType.WALL_CLOCK_TIME, this::checkResolutionExpiry);
    context.schedule(
        punctuateInterval, PunctuationType.WALL_CLOCK_TIME, this::checkPeerAnswerExpiry);
    log.atInfo()
        .addKeyValue("task", context.taskId())
        .addKeyValue("nodes", directory.size())
        .addKeyValue("synced", synced)
        .addKeyValue("pending", pending.size())
        .addKeyValue("geoTag", gslbSettings.geoTag())
        .log("Decision task initialised");
  }

  @Override
  public void process(Record<String, TopologyInput> record) {
    takeAnswerChanges(); // changes of the global store count as input taken now, as records do
    String key = record.key();
    TopologyInput input = record.value();
    timestamp = record.timestamp();
    lastInputAt = context.currentSystemTimeMs();
    catchingUp(lastInputAt - timestamp > catchUp.lag().toMillis());
    if (key == null || input == null) {
      return;
    }
    inputEventTime =
        EventTime.read(record.headers()).map(Instant::toEpochMilli).orElse(NO_EVENT_TIME);
    if (input instanceof RouteInput route) {
      onRoute(key, route.value(), route.encoded());
    } else if (input instanceof EndpointsInput service) {
      onEndpoints(key, service.value(), service.encoded());
    } else if (input instanceof NodeInput node) {
      onNode(key, node.value());
    } else if (input instanceof SyncInput marker) {
      onSync(key, marker.value());
    } else if (input instanceof ResolutionInput resolution) {
      onResolution(key, resolution.value());
    } else if (input instanceof GslbInput gslb) {
      onGslb(key, gslb.value(), gslb.encoded());
    } else if (input instanceof ServiceInput service) {
      onService(key, service.value(), service.encoded());
    }
  }

  /** Whether the task is catching up; decides on stream time only while it is not. */
  private void catchingUp(boolean backlog) {
    catchingUp = backlog;
    if (!backlog && decideOnStreamTime == null) {
      decideOnStreamTime =
          context.schedule(DECIDE_INTERVAL, PunctuationType.STREAM_TIME, now -> maybeDecide());
    } else if (backlog && decideOnStreamTime != null) {
      decideOnStreamTime.cancel();
      decideOnStreamTime = null;
    }
  }

  @Override
  public void close() {
    if (gslbReconciler != null) {
      gslbReconciler.close();
    }
    if (answerChanges != null) {
      board.unsubscribe(answerChanges);
      answerChanges = null;
    }
  }

  // ------------------------------------------------------------------ Emission

  @Override
  public boolean synced() {
    return synced;
  }

  @Override
  public void hold(String key, String outcome) {
    if (decidingEventTime != NO_EVENT_TIME) {
      heldEventTimes.put(key, decidingEventTime); // the earliest, held ones included
    }
    if (!outcome.equals(heldOutcomes.put(key, outcome))) {
      held.put(key, outcome);
      metrics.held(outcome);
      log.atInfo()
          .addKeyValue("key", key)
          .addKeyValue("outcome", outcome)
          .log("Holding the decision until the watcher's view is synced");
    }
  }

  @Override
  public void release(String key) {
    heldEventTimes.remove(key);
    if (heldOutcomes.remove(key) != null) {
      held.delete(key); // only when held: a delete writes a changelog tombstone
    }
  }

  @Override
  public void forward(String key, EngineOutput output) {
    forward(key, output, stamp());
  }

  @Override
  public Stamp stamp() {
    return new Stamp(decidingTimestamp, decidingEventTime);
  }

  @Override
  public String refusal(String key, String output, byte[] encoded) {
    if (encoded.length <= maxOutputBytes) {
      return null;
    }
    metrics.outputTooLarge(output);
    log.atWarn()
        .addKeyValue("key", key)
        .addKeyValue("output", output)
        .addKeyValue("bytes", encoded.length)
        .addKeyValue("limit", maxOutputBytes)
        .log(
            "Not sending the {} of {}: it is too large for a Kafka record; the previous one stays",
            output,
            key);
    return "over the limit of "
        + maxOutputBytes
        + " bytes for one Kafka record (engine.max-output-size); the previous "
        + output
        + " stays";
  }

  @Override
  public void forward(String key, EngineOutput output, Stamp stamp) {
    Headers headers = new RecordHeaders();
    if (stamp.eventTime() != NO_EVENT_TIME) {
      EventTime.stamp(headers, Instant.ofEpochMilli(stamp.eventTime()));
    }
    context.forward(new Record<>(key, output, stamp.timestamp(), headers));
  }

  @Override
  public long now() {
    return context.currentSystemTimeMs();
  }

  // ------------------------------------------------------------------ input changes

  /** The kind of a key, {@code <kind>/<namespace>/<name>}: up to its first {@code /}. */
  private static String kindOf(String key) {
    int slash = key.indexOf('/');
    return slash < 0 ? key : key.substring(0, slash);
  }

  private void onRoute(String key, RouteState route, byte[] encoded) {
    boolean placed = key.startsWith(ROUTE_PREFIX);
    if (!placed
        && !key.startsWith(INGRESS_PREFIX)
        && !key.startsWith(GATEWAY_PREFIX)
        && !key.startsWith(VIRTUAL_SERVICE_PREFIX)
        && !PlacementDecider.OTHER_GATEWAY_ROUTES.contains(kindOf(key))) {
      return; // other kinds are neither placed nor read by Gslbs
    }
    if (route != null && !key.equals(keyOf(route::ref))) {
      mismatch(Topics.ROUTES.name(), key, keyOf(route::ref));
      return;
    }
    boolean changed = !Objects.equals(routes.get(key), route);
    routes.put(key, route, encoded);
    if (placed) {
      mark(key, Trigger.ROUTE);
    }
    if (changed) {
      markAll(index.dependents(DependencyIndex.routeKey(key)), Trigger.ROUTE);
      markAll(
          index.dependents(DependencyIndex.selectionKey(InputStore.groupOf(key))), Trigger.ROUTE);
    }
  }

  private void onEndpoints(String key, ServiceEndpoints value, byte[] encoded) {
    if (value != null && !key.equals(keyOf(value::ref))) {
      mismatch(Topics.ENDPOINTS.name(), key, keyOf(value::ref));
      return;
    }
    if (Objects.equals(endpoints.get(key), value)) {
      return;
    }
    endpoints.put(key, value, encoded);
    markAll(index.dependents(DependencyIndex.serviceKey(key)), Trigger.ENDPOINTS);
  }

  private void onService(String key, ServiceState value, byte[] encoded) {
    if (value != null && !key.equals(keyOf(value::ref))) {
      mismatch(Topics.SERVICES.name(), key, keyOf(value::ref));
      return;
    }
    if (Objects.equals(services.get(key), value)) {
      return;
    }
    services.put(key, value, encoded);
    markAll(index.dependents(DependencyIndex.serviceStateKey(key)), Trigger.SERVICE);
    markAll(
        index.dependents(DependencyIndex.selectionKey(InputStore.groupOf(key))), Trigger.SERVICE);
  }

  private void onGslb(String key, GslbState gslb, byte[] encoded) {
    if (!key.startsWith(GSLB_PREFIX) || (gslb != null && !key.equals(keyOf(gslb::ref)))) {
      mismatch(Topics.GSLBS.name(), key, gslb == null ? "Gslb/<ns>/<name>" : keyOf(gslb::ref));
      return;
    }
    gslbs.put(key, gslb, encoded);
    mark(key, Trigger.GSLB);
  }

  /**
   * Marks the Gslbs of every host whose peer answer changed since the last call (told by the global
   * store's processor, {@link PeerAnswerBoard}), each with the timing of the record that changed
   * it.
   *
   * <p>A live answer change ends a catch-up, as a live record does; a late one (older than {@link
   * CatchUp#lag()} when taken) does not start one: only the task's own records say whether it works
   * through a backlog. A backlog is batched so that a Gslb whose spec and answers arrive one after
   * the other is decided once; the answers of a start are all in the global store before the task
   * starts, and a live burst of answer changes (a peer failing for every host at once) marks each
   * Gslb once. When the global thread fell behind such a burst, its changes were late when taken
   * and, treated as a backlog, held every mark until the changes paused for {@link CatchUp#idle()}
   * or the mark was {@link CatchUp#maxDelay()} (2 s) old: up to that much added to a failover, and
   * no Gslb decided less often for it.
   */
  private void takeAnswerChanges() {
    PeerAnswerBoard.Change change = answerChanges.poll();
    if (change == null) {
      return;
    }
    long savedTimestamp = timestamp;
    long savedEventTime = inputEventTime;
    try {
      long now = context.currentSystemTimeMs();
      do {
        timestamp = change.timestamp();
        inputEventTime = change.eventTime();
        lastInputAt = now;
        if (now - change.timestamp() <= catchUp.lag().toMillis()) {
          catchingUp(false); // live input: whatever backlog there was is worked off
        }
        markAll(index.dependents(DependencyIndex.peerKey(change.host())), Trigger.PEER_ANSWER);
        change = answerChanges.poll();
      } while (change != null);
    } finally {
      timestamp = savedTimestamp;
      inputEventTime = savedEventTime;
    }
  }

  private void onNode(String key, NodeState value) {
    if (!key.startsWith(NODE_PREFIX)
        || (value != null && !key.equals(NODE_PREFIX + value.name()))) {
      mismatch(Topics.NODES.name(), key, value == null ? "Node/<name>" : "Node/" + value.name());
      return;
    }
    String name = key.substring(NODE_PREFIX.length());
    NodeState old = nodes.get(key);
    if (Objects.equals(old, value)) {
      return;
    }
    if (value == null) {
      nodes.delete(key);
      directory.remove(name);
    } else {
      nodes.put(key, value);
      directory.put(value);
    }
    if (!placementRelevant(old, value)) {
      return;
    }
    Set<String> affected = new LinkedHashSet<>(index.dependents(DependencyIndex.nodeKey(name)));
    if (isIngress(old) || isIngress(value)) {
      for (String zone : zonesOf(old, value)) {
        affected.addAll(index.dependents(DependencyIndex.zoneKey(zone)));
      }
      affected.addAll(index.dependents(DependencyIndex.fallbackKey()));
    }
    markAll(new TreeSet<>(affected), Trigger.NODE);
  }

  private void onSync(String key, SyncMarker marker) {
    SyncMarker current = marker == null ? syncMarkers.get(key) : null;
    if (current != null) {
      // Only the watcher writes sync markers, and it never deletes one: a tombstone comes from
      // outside (kcat, a script). Taking it would hold every removal back until the watcher's next
      // leader term, with the watcher itself healthy; the marker it last published stands.
      metrics.malformedRecord(Topics.SYNC.name());
      log.atWarn()
          .addKeyValue("key", key)
          .addKeyValue("generation", current.generation())
          .log(
              "Ignoring a tombstone on the sync topic: the topology-watcher never deletes its"
                  + " marker; its last one stands");
      return;
    }
    boolean wasSynced = synced;
    StoreWrites.putOrDelete(syncMarkers, key, marker);
    synced = computeSynced();
    if (synced == wasSynced) {
      return;
    }
    List<String> waiting = new ArrayList<>(new TreeSet<>(heldOutcomes.keySet()));
    log.atInfo()
        .addKeyValue("task", context.taskId())
        .addKeyValue("watcher", key)
        .addKeyValue("generation", marker == null ? null : marker.generation())
        .addKeyValue("held", waiting.size())
        .log(synced ? "Watcher view synced; releasing held decisions" : "Watcher view unsynced");
    if (synced) {
      markAll(waiting, Trigger.SYNC);
    }
  }

  private void onResolution(String key, HostnameResolution value) {
    if (value != null && !key.equals(value.key())) {
      mismatch(Topics.HOSTNAME_RESOLUTIONS.name(), key, value.key());
      return;
    }
    if (Objects.equals(resolutions.get(key), value)) {
      return;
    }
    StoreWrites.putOrDelete(resolutions, key, value);
    markAll(index.dependents(DependencyIndex.resolutionKey(key)), Trigger.RESOLUTION);
  }

  /**
   * Stale resolutions stop being used {@code resolutionMaxStale} after they expired; no input
   * changes at that moment, so the routes (and node-aware Gslbs) using them are recomputed here.
   */
  private void checkResolutionExpiry(long now) {
    timestamp = now;
    long since = lastExpiryCheck;
    lastExpiryCheck = now;
    TreeSet<String> affected = new TreeSet<>();
    try (KeyValueIterator<String, HostnameResolution> all = resolutions.all()) {
      while (all.hasNext()) {
        KeyValue<String, HostnameResolution> entry = all.next();
        Instant expiresAt = entry.value.expiresAt();
        if (!entry.value.stale() || expiresAt == null) {
          continue;
        }
        long limit = expiresAt.plus(settings.resolutionMaxStale()).toEpochMilli();
        if (limit >= since && limit < now) {
          affected.addAll(index.dependents(DependencyIndex.resolutionKey(entry.key)));
        }
      }
    }
    markAll(affected, Trigger.RESOLUTION_EXPIRY);
    maybeDecide();
  }

  /**
   * An unreachable peer's last answer stops being trusted at {@code lastSuccess + threshold}; no
   * input changes at that moment, so the Gslbs due (read from the deadline index, never a scan of
   * every Gslb) are re-decided here.
   */
  private void checkPeerAnswerExpiry(long now) {
    timestamp = now;
    List<String> due = gslbReconciler.takeDue(now);
    markAll(new TreeSet<>(due), Trigger.SPLIT_BRAIN_EXPIRY);
    maybeDecide();
  }

  // ------------------------------------------------------------------ recomputation

  private void markAll(Iterable<String> keys, Trigger trigger) {
    for (String key : keys) {
      mark(key, trigger);
    }
  }

  /**
   * Marks a route or Gslb to be decided ({@link #maybeDecide}), noting the cause: the record being
   * processed (its timestamp and event time), or for a {@link #TIMED} trigger the punctuation.
   */
  private void mark(String key, Trigger trigger) {
    Mark mark = pending.get(key);
    if (mark == null) {
      mark = new Mark(trigger, context.currentSystemTimeMs());
      pending.put(key, mark);
    }
    mark.timestamp = Math.max(mark.timestamp, timestamp);
    if (!TIMED.contains(trigger)) {
      mark.byInput = true;
      mark.eventTime = Math.min(mark.eventTime, inputEventTime);
    }
  }

  /**
   * After a processing batch (and at least every {@code poll.ms}): decides every mark when the
   * input is live or the task has worked off its backlog (no input for {@link CatchUp#idle()});
   * while it catches up, only the marks that have waited {@link CatchUp#maxDelay()}.
   */
  private void maybeDecide() {
    takeAnswerChanges();
    if (pending.isEmpty()) {
      return;
    }
    long now = context.currentSystemTimeMs();
    if (!catchingUp || now - lastInputAt >= catchUp.idle().toMillis()) {
      // A new map rather than clear(): clearing costs the table's capacity, which a backlog grows.
      Map<String, Mark> all = pending;
      pending = new LinkedHashMap<>();
      decide(new ArrayList<>(all.entrySet()));
      return;
    }
    long due = now - catchUp.maxDelay().toMillis();
    List<Map.Entry<String, Mark>> batch = new ArrayList<>();
    Iterator<Map.Entry<String, Mark>> oldestFirst = pending.entrySet().iterator();
    while (oldestFirst.hasNext()) {
      Map.Entry<String, Mark> entry = oldestFirst.next();
      if (entry.getValue().markedAt > due) {
        break;
      }
      batch.add(entry);
      oldestFirst.remove();
    }
    decide(batch);
  }

  /**
   * Marks every placed route and Gslb this task holds, and every one it has published a decision or
   * status for or holds one back (at start).
   */
  private void markEverything() {
    timestamp = context.currentSystemTimeMs();
    for (Set<String> keys :
        List.of(
            routes.keys(),
            gslbs.keys(),
            decisions.keys(),
            statuses.keys(),
            heldOutcomes.keySet())) {
      for (String key : new TreeSet<>(keys)) {
        if (key.startsWith(ROUTE_PREFIX) || key.startsWith(GSLB_PREFIX)) {
          mark(key, Trigger.RESTART);
        }
      }
    }
  }

  /**
   * Decides each marked route and Gslb once, in the order they were first marked, forwarding what
   * changed with the timestamp and event time of its causes.
   */
  private void decide(List<Map.Entry<String, Mark>> batch) {
    if (batch.isEmpty()) {
      return;
    }
    gslbReconciler.startBatch();
    try {
      for (Map.Entry<String, Mark> entry : batch) {
        String key = entry.getKey();
        Mark mark = entry.getValue();
        long eventTime = Math.min(mark.eventTime, heldEventTimes.getOrDefault(key, NO_EVENT_TIME));
        if (eventTime == NO_EVENT_TIME && !mark.byInput) {
          eventTime = context.currentSystemTimeMs(); // time alone: observed now
        }
        decidingTimestamp = mark.timestamp;
        decidingEventTime = eventTime;
        recompute(key, mark.trigger);
      }
      gslbReconciler.finishBatch();
    } finally {
      gslbReconciler.abandonBatch();
      decidingEventTime = NO_EVENT_TIME;
      lastInputAt = Math.max(lastInputAt, context.currentSystemTimeMs());
    }
  }

  private void recompute(String key, Trigger trigger) {
    if (key.startsWith(GSLB_PREFIX)) {
      gslbReconciler.recompute(key, trigger);
    } else if (key.startsWith(ROUTE_PREFIX)) {
      recomputeRoute(key, trigger);
    }
  }

  private void recomputeRoute(String routeKey, Trigger trigger) {
    metrics.recomputed(trigger);
    RouteState route = routes.get(routeKey);
    if (route == null) {
      replaceDependencies(routeKey, PlacementDependencies.NONE);
      if (!decisions.contains(routeKey)) {
        release(routeKey);
      } else if (!synced) {
        hold(routeKey, TOMBSTONE);
      } else {
        release(routeKey);
        forward(routeKey, new DecisionOutput(null));
        decisions.delete(routeKey);
        metrics.emitted(TOMBSTONE);
        log.atInfo().addKeyValue("route", routeKey).log("Route deleted; decision withdrawn");
      }
      return;
    }
    Placement placement;
    try {
      placement =
          PlacementDecider.place(
              route,
              endpointsOf(route),
              directory,
              this::resolution,
              settings,
              Instant.ofEpochMilli(context.currentSystemTimeMs()));
    } catch (RuntimeException e) {
      metrics.placementFailed();
      log.atError()
          .addKeyValue("route", routeKey)
          .setCause(e)
          .log("Placing the route failed; its previous decision stays");
      return;
    }
    replaceDependencies(routeKey, placement.dependencies());
    TargetDecision desired = placement.decision();
    if (decisions.holds(routeKey, desired)) {
      release(routeKey);
      return;
    }
    if (desired.disposition() != Disposition.PUBLISH && !synced) {
      hold(routeKey, desired.disposition().name());
      return;
    }
    release(routeKey);
    byte[] encoded = decisions.encode(desired);
    if (refusal(routeKey, "decision", encoded) != null) {
      return; // counted and logged; its records stay as they are
    }
    forward(routeKey, new DecisionOutput(encoded)); // before the store's changelog record
    decisions.put(routeKey, desired, encoded);
    metrics.emitted(desired.disposition().name());
    log.atInfo()
        .addKeyValue("route", routeKey)
        .addKeyValue("disposition", desired.disposition())
        .addKeyValue("targets", desired.explanation().chosenTargets())
        .addKeyValue("trigger", trigger.tag())
        .log("Decision changed");
  }

  private Map<String, ServiceEndpoints> endpointsOf(RouteState route) {
    Map<String, ServiceEndpoints> found = new HashMap<>();
    for (String service : PlacementDecider.serviceNames(route)) {
      ServiceEndpoints value = endpoints.get("Service/" + route.namespace() + "/" + service);
      if (value != null) {
        found.put(service, value);
      }
    }
    return found;
  }

  private Optional<HostnameResolution> resolution(String key) {
    return Optional.ofNullable(resolutions.get(key));
  }

  private void replaceDependencies(String routeKey, PlacementDependencies next) {
    PlacementDependencies old = dependencies.get(routeKey);
    if (old == null) {
      old = PlacementDependencies.NONE;
    }
    if (old.equals(next)) {
      return;
    }
    index.replace(routeKey, DependencyIndex.keys(old), DependencyIndex.keys(next));
    if (next.equals(PlacementDependencies.NONE)) {
      dependencies.remove(routeKey);
    } else {
      dependencies.put(routeKey, next);
    }
  }

  // ------------------------------------------------------------------ helpers

  /**
   * The task's copy of a partitioned input topic, loaded into memory; {@code grouped} for the
   * routes and Services, which a label-selecting resourceRef reads by kind and namespace.
   */
  private static <V> InputStore<V> input(
      ProcessorContext<String, EngineOutput> context,
      String store,
      TopicSpec<V> topic,
      boolean grouped) {
    InputStore<V> input =
        new InputStore<>(
            context.getStateStore(store), EngineJson.serde(topic).deserializer(), grouped);
    input.load();
    return input;
  }

  private boolean computeSynced() {
    boolean any = false;
    try (KeyValueIterator<String, SyncMarker> all = syncMarkers.all()) {
      while (all.hasNext()) {
        any = true;
        if (!all.next().value.synced()) {
          return false;
        }
      }
    }
    return any;
  }

  private void mismatch(String topic, String key, String expected) {
    metrics.malformedRecord(topic);
    log.atWarn()
        .addKeyValue("topic", topic)
        .addKeyValue("key", key)
        .addKeyValue("valueKey", expected)
        .log("Skipping a record whose key does not match its value");
  }

  /**
   * The key a value claims, or a description of why it has none (a namespace or name that is not a
   * valid key part); such a value never matches its record key and is skipped.
   */
  private static String keyOf(Supplier<ObjectRef> ref) {
    try {
      return ref.get().key();
    } catch (IllegalArgumentException e) {
      return "<invalid: " + e.getMessage() + ">";
    }
  }

  /** True when the change can alter a placement (zone, role, addresses or annotations). */
  private static boolean placementRelevant(NodeState old, NodeState value) {
    if (old == null || value == null) {
      return true;
    }
    return !(Objects.equals(NodeView.zoneOf(old), NodeView.zoneOf(value))
        && old.ingress() == value.ingress()
        && old.addresses().equals(value.addresses())
        && old.annotations().equals(value.annotations()));
  }

  private static boolean isIngress(NodeState node) {
    return node != null && node.ingress();
  }

  private static Set<String> zonesOf(NodeState old, NodeState value) {
    Set<String> zones = new TreeSet<>();
    for (NodeState node : new NodeState[] {old, value}) {
      String zone = NodeView.zoneOf(node);
      if (zone != null) {
        zones.add(zone);
      }
    }
    return zones;
  }

  /** A route or Gslb marked to be decided, and what caused it. */
  private static final class Mark {

    /** The first trigger (the metric tag of the recomputation). */
    final Trigger trigger;

    /** The wall-clock time of the first mark. */
    final long markedAt;

    /** The latest timestamp among the records and punctuations that caused it. */
    long timestamp = Long.MIN_VALUE;

    /** The earliest event time among the input records that caused it. */
    long eventTime = NO_EVENT_TIME;

    /** True when an input record caused it, not only the passing of time. */
    boolean byInput;

    Mark(Trigger trigger, long markedAt) {
      this.trigger = trigger;
      this.markedAt = markedAt;
    }
  }
}
