package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.strategyengine.placement.NodeDirectory;
import dev.cairn.strategyengine.placement.NodeView;
import dev.cairn.strategyengine.placement.Placement;
import dev.cairn.strategyengine.placement.PlacementDecider;
import dev.cairn.strategyengine.placement.PlacementDependencies;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.stream.EngineMetrics.Trigger;
import dev.cairn.strategyengine.stream.TopologyInput.EndpointsInput;
import dev.cairn.strategyengine.stream.TopologyInput.NodeInput;
import dev.cairn.strategyengine.stream.TopologyInput.ResolutionInput;
import dev.cairn.strategyengine.stream.TopologyInput.RouteInput;
import dev.cairn.strategyengine.stream.TopologyInput.SyncInput;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The adapter around {@link PlacementDecider} in one stream task: keeps the normalised inputs in
 * state stores, recomputes only the routes an input change affects (through the {@link
 * PlacementIndex}), emits a decision only when it differs from the last one emitted, and holds back
 * every NO_TARGETS, WITHDRAW and tombstone until the watcher's view is synced.
 */
final class PlacementProcessor implements Processor<String, TopologyInput, String, TargetDecision> {

  private static final Logger log = LoggerFactory.getLogger(PlacementProcessor.class);
  private static final StringSerializer KEYS = new StringSerializer();
  private static final String ROUTE_PREFIX = PlacementDecider.HTTP_ROUTE + "/";
  private static final String NODE_PREFIX = "Node/";
  private static final String TOMBSTONE = "TOMBSTONE";

  private final PlacementSettings settings;
  private final EngineMetrics metrics;
  private final Duration expiryCheckInterval;

  private ProcessorContext<String, TargetDecision> context;
  private KeyValueStore<String, RouteState> routes;
  private KeyValueStore<String, ServiceEndpoints> endpoints;
  private KeyValueStore<String, NodeState> nodes;
  private KeyValueStore<String, SyncMarker> syncMarkers;
  private KeyValueStore<String, HostnameResolution> resolutions;
  private KeyValueStore<String, String> index;
  private KeyValueStore<String, PlacementDependencies> dependencies;
  private KeyValueStore<String, TargetDecision> decisions;
  private KeyValueStore<String, String> held;

  private NodeDirectory directory;
  private boolean synced;
  private long timestamp;
  private long lastExpiryCheck = Long.MIN_VALUE;

  PlacementProcessor(
      PlacementSettings settings, EngineMetrics metrics, Duration expiryCheckInterval) {
    this.settings = settings;
    this.metrics = metrics;
    this.expiryCheckInterval = expiryCheckInterval;
  }

  @Override
  public void init(ProcessorContext<String, TargetDecision> context) {
    this.context = context;
    routes = context.getStateStore(PlacementTopology.ROUTES_STORE);
    endpoints = context.getStateStore(PlacementTopology.ENDPOINTS_STORE);
    nodes = context.getStateStore(PlacementTopology.NODES_STORE);
    syncMarkers = context.getStateStore(PlacementTopology.SYNC_STORE);
    resolutions = context.getStateStore(PlacementTopology.RESOLUTIONS_STORE);
    index = context.getStateStore(PlacementTopology.INDEX_STORE);
    dependencies = context.getStateStore(PlacementTopology.DEPENDENCIES_STORE);
    decisions = context.getStateStore(PlacementTopology.DECISIONS_STORE);
    held = context.getStateStore(PlacementTopology.HELD_STORE);
    directory = new NodeDirectory();
    try (KeyValueIterator<String, NodeState> all = nodes.all()) {
      all.forEachRemaining(entry -> directory.put(entry.value));
    }
    synced = computeSynced();
    context.schedule(
        expiryCheckInterval, PunctuationType.WALL_CLOCK_TIME, this::checkResolutionExpiry);
    log.atInfo()
        .addKeyValue("task", context.taskId())
        .addKeyValue("nodes", directory.size())
        .addKeyValue("synced", synced)
        .log("Placement task initialised");
  }

  @Override
  public void process(Record<String, TopologyInput> record) {
    String key = record.key();
    TopologyInput input = record.value();
    timestamp = record.timestamp();
    if (key == null || input == null) {
      return;
    }
    if (input instanceof RouteInput route) {
      onRoute(key, route.value());
    } else if (input instanceof EndpointsInput service) {
      onEndpoints(key, service.value());
    } else if (input instanceof NodeInput node) {
      onNode(key, node.value());
    } else if (input instanceof SyncInput marker) {
      onSync(key, marker.value());
    } else if (input instanceof ResolutionInput resolution) {
      onResolution(key, resolution.value());
    }
  }

  // ------------------------------------------------------------------ input changes

  private void onRoute(String key, RouteState route) {
    if (!key.startsWith(ROUTE_PREFIX)) {
      return; // Ingress and other kinds are not placed by direct-dns rules
    }
    if (route != null && !key.equals(keyOf(route::ref))) {
      mismatch(Topics.ROUTES.name(), key, keyOf(route::ref));
      return;
    }
    if (route == null) {
      routes.delete(key);
    } else {
      routes.put(key, route);
    }
    recompute(key, Trigger.ROUTE);
  }

  private void onEndpoints(String key, ServiceEndpoints value) {
    if (value != null && !key.equals(keyOf(value::ref))) {
      mismatch(Topics.ENDPOINTS.name(), key, keyOf(value::ref));
      return;
    }
    if (Objects.equals(endpoints.get(key), value)) {
      return;
    }
    if (value == null) {
      endpoints.delete(key);
    } else {
      endpoints.put(key, value);
    }
    recomputeAll(scan(PlacementIndex.servicePrefix(key)), Trigger.ENDPOINTS);
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
    TreeSet<String> affected = new TreeSet<>(scan(PlacementIndex.nodePrefix(name)));
    if (isIngress(old) || isIngress(value)) {
      for (String zone : zonesOf(old, value)) {
        affected.addAll(scan(PlacementIndex.zonePrefix(zone)));
      }
      affected.addAll(scan(PlacementIndex.fallbackPrefix()));
    }
    recomputeAll(affected, Trigger.NODE);
  }

  private void onSync(String key, SyncMarker marker) {
    boolean wasSynced = synced;
    if (marker == null) {
      syncMarkers.delete(key);
    } else {
      syncMarkers.put(key, marker);
    }
    synced = computeSynced();
    if (synced == wasSynced) {
      return;
    }
    List<String> waiting = new ArrayList<>();
    try (KeyValueIterator<String, String> all = held.all()) {
      all.forEachRemaining(entry -> waiting.add(entry.key));
    }
    log.atInfo()
        .addKeyValue("task", context.taskId())
        .addKeyValue("watcher", key)
        .addKeyValue("generation", marker == null ? null : marker.generation())
        .addKeyValue("held", waiting.size())
        .log(synced ? "Watcher view synced; releasing held decisions" : "Watcher view unsynced");
    if (synced) {
      recomputeAll(waiting, Trigger.SYNC);
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
    if (value == null) {
      resolutions.delete(key);
    } else {
      resolutions.put(key, value);
    }
    recomputeAll(scan(PlacementIndex.resolutionPrefix(key)), Trigger.RESOLUTION);
  }

  /**
   * Stale resolutions stop being used {@code resolutionMaxStale} after they expired; no input
   * changes at that moment, so the routes using them are recomputed here.
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
          affected.addAll(scan(PlacementIndex.resolutionPrefix(entry.key)));
        }
      }
    }
    recomputeAll(affected, Trigger.RESOLUTION_EXPIRY);
  }

  // ------------------------------------------------------------------ recomputation

  private void recomputeAll(Iterable<String> routeKeys, Trigger trigger) {
    for (String routeKey : routeKeys) {
      recompute(routeKey, trigger);
    }
  }

  private void recompute(String routeKey, Trigger trigger) {
    metrics.recomputed(trigger);
    RouteState route = routes.get(routeKey);
    TargetDecision previous = decisions.get(routeKey);
    if (route == null) {
      replaceDependencies(routeKey, PlacementDependencies.NONE);
      if (previous == null) {
        held.delete(routeKey);
      } else if (!synced) {
        hold(routeKey, TOMBSTONE);
      } else {
        held.delete(routeKey);
        decisions.delete(routeKey);
        context.forward(new Record<>(routeKey, null, timestamp));
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
    if (desired.equals(previous)) {
      held.delete(routeKey);
      return;
    }
    if (desired.disposition() != Disposition.PUBLISH && !synced) {
      hold(routeKey, desired.disposition().name());
      return;
    }
    held.delete(routeKey);
    decisions.put(routeKey, desired);
    context.forward(new Record<>(routeKey, desired, timestamp));
    metrics.emitted(desired.disposition().name());
    log.atInfo()
        .addKeyValue("route", routeKey)
        .addKeyValue("disposition", desired.disposition())
        .addKeyValue("targets", desired.explanation().chosenTargets())
        .addKeyValue("trigger", trigger.tag())
        .log("Decision changed");
  }

  private void hold(String routeKey, String outcome) {
    if (!outcome.equals(held.get(routeKey))) {
      held.put(routeKey, outcome);
      metrics.held(outcome);
      log.atInfo()
          .addKeyValue("route", routeKey)
          .addKeyValue("outcome", outcome)
          .log("Holding the decision until the watcher's view is synced");
    }
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
    Set<String> oldKeys = PlacementIndex.keys(old, routeKey);
    Set<String> newKeys = PlacementIndex.keys(next, routeKey);
    for (String stale : oldKeys) {
      if (!newKeys.contains(stale)) {
        index.delete(stale);
      }
    }
    for (String fresh : newKeys) {
      if (!oldKeys.contains(fresh)) {
        index.put(fresh, routeKey);
      }
    }
    if (next.equals(PlacementDependencies.NONE)) {
      dependencies.delete(routeKey);
    } else {
      dependencies.put(routeKey, next);
    }
  }

  private List<String> scan(String prefix) {
    List<String> routeKeys = new ArrayList<>();
    try (KeyValueIterator<String, String> found = index.prefixScan(prefix, KEYS)) {
      found.forEachRemaining(entry -> routeKeys.add(entry.value));
    }
    return routeKeys;
  }

  // ------------------------------------------------------------------ helpers

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
}
