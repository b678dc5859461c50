package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.strategyengine.gslb.GslbDecider;
import dev.cairn.strategyengine.gslb.GslbDependencies;
import dev.cairn.strategyengine.gslb.GslbOutcome;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.gslb.GslbView;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.stream.EngineMetrics.Trigger;
import dev.cairn.strategyengine.stream.EngineOutput.DecisionOutput;
import dev.cairn.strategyengine.stream.EngineOutput.StatusOutput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The adapter around {@link GslbDecider} in one stream task: decides a Gslb from the task's stores,
 * keeps its dependencies in the reverse index and its re-decision instant in the deadline index,
 * and emits its decision and status, each only when it changed. The decision and status are
 * compared with the last ones as objects and stored as their encoded bytes ({@link EncodedStore}),
 * so an unchanged outcome costs no encoding and no write; the dependencies and the report are
 * derived by deciding and kept as objects in memory (the report in the instance's {@link
 * GslbReports}, for the explain API).
 *
 * <ul>
 *   <li>A decided Gslb: the decision is emitted when it differs from the last one, the status when
 *       it differs from the last one. A NO_TARGETS decision is held (with its status) while the
 *       watcher's view is not synced, as every deletion is.
 *   <li>An undecided Gslb (invalid spec, no geo tag): no decision is emitted, so the last one
 *       stays; the status keeps what it said about the records served and carries the new problems.
 *   <li>A deleted Gslb: tombstones for its decision and status (held while unsynced).
 * </ul>
 */
final class GslbReconciler {

  private static final Logger log = LoggerFactory.getLogger(GslbReconciler.class);
  private static final String TOMBSTONE = "TOMBSTONE";

  private final GslbSettings settings;
  private final PlacementSettings placementSettings;
  private final EngineMetrics metrics;
  private final Emission emission;
  private final GslbView view;
  private final ReverseIndex index;
  private final InputStore<GslbState> gslbs;
  private final Map<String, GslbDependencies> dependencies = new HashMap<>();
  private final KeyValueStore<String, String> deadlines;
  private final EncodedStore<TargetDecision> decisions;
  private final EncodedStore<GslbStatus> statuses;
  private final GslbReports reports;

  /** The keys this task has put a report under, removed from {@link #reports} at {@link #close}. */
  private final Set<String> reported = new HashSet<>();

  GslbReconciler(
      GslbSettings settings,
      PlacementSettings placementSettings,
      EngineMetrics metrics,
      Emission emission,
      GslbView view,
      ReverseIndex index,
      InputStore<GslbState> gslbs,
      KeyValueStore<String, String> deadlines,
      EncodedStore<TargetDecision> decisions,
      EncodedStore<GslbStatus> statuses,
      GslbReports reports) {
    this.settings = settings;
    this.placementSettings = placementSettings;
    this.metrics = metrics;
    this.emission = emission;
    this.view = view;
    this.index = index;
    this.gslbs = gslbs;
    this.deadlines = deadlines;
    this.decisions = decisions;
    this.statuses = statuses;
    this.reports = reports;
  }

  /** Decides the Gslb {@code key} again and emits what changed. */
  void recompute(String key, Trigger trigger) {
    metrics.recomputed(trigger);
    GslbState gslb = gslbs.get(key);
    if (gslb == null) {
      deleted(key);
      return;
    }
    GslbOutcome outcome;
    try {
      outcome =
          GslbDecider.decide(
              gslb, view, settings, placementSettings, Instant.ofEpochMilli(emission.now()));
    } catch (RuntimeException e) {
      metrics.gslbFailed();
      log.atError()
          .addKeyValue("gslb", key)
          .setCause(e)
          .log("Deciding the Gslb failed; its previous decision and status stay");
      return;
    }
    replaceDependencies(key, outcome.dependencies());
    reports.put(key, outcome.report());
    reported.add(key);
    if (!outcome.decided()) {
      metrics.gslbUndecided();
      emission.release(key);
      GslbStatus status = keepServed(statuses.get(key), outcome.status());
      if (emitStatus(key, status)) {
        log.atWarn()
            .addKeyValue("gslb", key)
            .addKeyValue("problems", status.problems())
            .log("Gslb not decided; its previous records stay");
      }
      return;
    }
    TargetDecision desired = outcome.decision();
    if (decisions.holds(key, desired)) {
      emission.release(key);
      emitStatus(key, outcome.status());
      return;
    }
    if (desired.disposition() != Disposition.PUBLISH && !emission.synced()) {
      emission.hold(key, desired.disposition().name());
      return;
    }
    emission.release(key);
    byte[] encoded = decisions.encode(desired);
    String refused = emission.refusal(key, "decision", encoded);
    if (refused != null) {
      // Its previous decision stays, and the status says why, as for a Gslb not decided.
      emitStatus(
          key,
          keepServed(
              statuses.get(key),
              withProblem(
                  outcome.status(), new Problem("decision", encoded.length + " bytes", refused))));
      return;
    }
    // Published before it is stored: the engine's producer sends the decision in its first
    // request, ahead of the store's changelog record (the broker serves one request per connection
    // at a time), and a crash between the two only decides it again after the restart.
    emission.forward(key, new DecisionOutput(encoded));
    decisions.put(key, desired, encoded);
    metrics.emitted(desired.disposition().name());
    emitStatus(key, outcome.status());
    log.atInfo()
        .addKeyValue("gslb", key)
        .addKeyValue("disposition", desired.disposition())
        .addKeyValue("targets", desired.explanation().chosenTargets())
        .addKeyValue("trigger", trigger.tag())
        .log("Gslb decision changed");
  }

  /** The Gslbs whose re-decision instant is at or before {@code epochMillis}, removed. */
  List<String> takeDue(long epochMillis) {
    List<KeyValue<String, String>> due = new ArrayList<>();
    try (KeyValueIterator<String, String> found =
        deadlines.range(null, DependencyIndex.deadlineUpTo(epochMillis))) {
      found.forEachRemaining(due::add);
    }
    List<String> keys = new ArrayList<>(due.size());
    for (KeyValue<String, String> entry : due) {
      deadlines.delete(entry.key);
      keys.add(entry.value);
    }
    return keys;
  }

  private void deleted(String key) {
    replaceDependencies(key, GslbDependencies.NONE);
    reports.remove(key);
    reported.remove(key);
    boolean decided = decisions.contains(key);
    boolean reported = statuses.contains(key);
    if (!decided && !reported) {
      emission.release(key);
      return;
    }
    if (!emission.synced()) {
      emission.hold(key, TOMBSTONE);
      return;
    }
    emission.release(key);
    if (decided) {
      emission.forward(key, new DecisionOutput(null));
      decisions.delete(key);
      metrics.emitted(TOMBSTONE);
    }
    if (reported) {
      emission.forward(key, new StatusOutput(null));
      statuses.delete(key);
      metrics.statusEmitted(TOMBSTONE);
    }
    log.atInfo().addKeyValue("gslb", key).log("Gslb deleted; decision and status withdrawn");
  }

  /**
   * Starts a batch of decisions: from now until {@link #finishBatch()} a changed status is kept
   * back, so that every decision of the batch goes out before its statuses. The decisions are what
   * the record-writer writes first and the DNS answers follow; in a failover's burst of thousands
   * of Gslbs the statuses would otherwise take half the engine's output path ahead of the last
   * decisions.
   */
  void startBatch() {
    pendingStatuses = new ArrayList<>();
  }

  /** Stores and emits the statuses kept back, each with its own decision's timestamps. */
  void finishBatch() {
    List<PendingStatus> pending = pendingStatuses;
    pendingStatuses = null;
    if (pending == null) {
      return;
    }
    for (PendingStatus p : pending) {
      store(p.key(), p.status(), p.stamp());
    }
  }

  /**
   * Drops what a batch that failed kept back: neither stored nor emitted, so the next decision of
   * those Gslbs finds them changed and emits them.
   */
  void abandonBatch() {
    pendingStatuses = null;
  }

  /** A status kept back until the batch's decisions are out. */
  private record PendingStatus(String key, GslbStatus status, Emission.Stamp stamp) {}

  /** The statuses of the current batch, or {@code null} outside a batch. */
  private List<PendingStatus> pendingStatuses;

  /** Whether the status changed (then it is emitted, now or at the end of the batch). */
  private boolean emitStatus(String key, GslbStatus status) {
    if (pendingStatuses == null) {
      return store(key, status, emission.stamp());
    }
    if (statuses.holds(key, status)) {
      return false;
    }
    pendingStatuses.add(new PendingStatus(key, status, emission.stamp()));
    return true;
  }

  private boolean store(String key, GslbStatus status, Emission.Stamp stamp) {
    byte[] encoded = statuses.changed(key, status);
    if (encoded == null || emission.refusal(key, "status", encoded) != null) {
      return false;
    }
    emission.forward(key, new StatusOutput(encoded), stamp);
    statuses.put(key, status, encoded);
    metrics.statusEmitted("UPDATE");
    return true;
  }

  /**
   * The status of an undecided Gslb: the records served are still the previous decision's, so the
   * previous status's health, records, hosts, addresses and servers stay; the problems are new.
   */
  private static GslbStatus withProblem(GslbStatus status, Problem problem) {
    List<String> problems = new ArrayList<>(status.problems());
    problems.add(problem.toString());
    return new GslbStatus(
        status.namespace(),
        status.name(),
        status.uid(),
        status.geoTag(),
        status.serviceHealth(),
        status.healthyRecords(),
        status.hosts(),
        status.exposedIps(),
        status.servers(),
        problems);
  }

  private static GslbStatus keepServed(GslbStatus previous, GslbStatus undecided) {
    if (previous == null) {
      return undecided;
    }
    return new GslbStatus(
        undecided.namespace(),
        undecided.name(),
        undecided.uid(),
        undecided.geoTag(),
        previous.serviceHealth(),
        previous.healthyRecords(),
        previous.hosts(),
        previous.exposedIps(),
        previous.servers(),
        undecided.problems());
  }

  /** Removes the reports this task put: its Gslbs are decided elsewhere, or nowhere, from now. */
  void close() {
    reported.forEach(reports::remove);
    reported.clear();
  }

  private void replaceDependencies(String key, GslbDependencies next) {
    GslbDependencies old = dependencies.getOrDefault(key, GslbDependencies.NONE);
    if (old.equals(next)) {
      return;
    }
    Set<String> oldKeys = DependencyIndex.keys(old);
    Set<String> newKeys = DependencyIndex.keys(next);
    index.replace(key, oldKeys, newKeys);
    if (!Objects.equals(old.reevaluateAt(), next.reevaluateAt())) {
      if (old.reevaluateAt() != null) {
        deadlines.delete(DependencyIndex.deadlineKey(old.reevaluateAt(), key));
      }
      if (next.reevaluateAt() != null) {
        deadlines.put(DependencyIndex.deadlineKey(next.reevaluateAt(), key), key);
      }
    }
    if (next.equals(GslbDependencies.NONE)) {
      dependencies.remove(key);
    } else {
      dependencies.put(key, next);
    }
  }
}
