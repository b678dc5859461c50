package dev.cairn.recordwriter.reconcile;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.kube.GslbCache;
import dev.cairn.recordwriter.kube.GslbStore;
import dev.cairn.recordwriter.kube.WriteResult;
import dev.cairn.recordwriter.metrics.WriterMetrics;
import dev.cairn.recordwriter.notice.Notice;
import dev.cairn.recordwriter.notice.Notices;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.status.GslbStatusPlan;
import dev.cairn.recordwriter.status.StatusPlan;
import dev.cairn.recordwriter.status.StatusPlan.Action;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Gslb status loop: keeps the engine's desired statuses and a dirty set of Gslb names, plans
 * the dirty names on one worker thread ({@link GslbStatusPlan}) and hands the statuses that differ
 * to the {@link WriteScheduler}, which writes them ({@link GslbStore}) several at a time, one per
 * Gslb, after the DNSEndpoint writes waiting with them (unless they waited too long).
 * Level-triggered like {@link RecordReconciler}: a status change or a Gslb event marks the name
 * dirty; every pass plans from the desired status and the Gslb as it is now.
 *
 * <ul>
 *   <li>Nothing is planned before the status topic has been read to its end (a replay would write
 *       old statuses), nor while this instance is not the leader. Reaching the end, gaining
 *       leadership and every {@code resyncPeriod}, every status is planned again.
 *   <li>A name whose write is queued or in flight is not planned again until its result is in; a
 *       write whose Gslb changed before its turn came is dropped unsent and the name planned again.
 *       A 409 makes the store read the Gslb again and the name is planned again (with backoff if it
 *       keeps happening).
 *   <li>A status for a missing Gslb or for another uid is skipped and reported once; the Gslb's
 *       creation, or a new status, plans it again.
 * </ul>
 */
public final class GslbStatusReconciler {

  private static final Logger log = LoggerFactory.getLogger(GslbStatusReconciler.class);

  private final GslbStore store;
  private final GslbCache cache;
  private final GslbStatusReports reports;
  private final Consumer<Notice> notices;
  private final WriterMetrics metrics;
  private final Clock clock;
  private final ReconcileLoop<ObjectKey> loop;

  // Worker-confined state.
  private final Map<ObjectKey, GslbStatus> statuses = new HashMap<>();
  private final Set<String> invalidKeys = new HashSet<>();

  /**
   * A reconciler; {@link #start()} starts its thread.
   *
   * @param notices told every condition to show on a Gslb (engine problems) at every plan; it
   *     records each once
   * @param leader whether this instance may write now
   * @param resyncPeriod the period of full resyncs
   * @param scheduler sends the writes (shared with the DNSEndpoint loop)
   */
  public GslbStatusReconciler(
      GslbStore store,
      GslbCache cache,
      GslbStatusReports reports,
      Consumer<Notice> notices,
      WriterMetrics metrics,
      Clock clock,
      BooleanSupplier leader,
      Duration resyncPeriod,
      WriteScheduler scheduler) {
    this.store = store;
    this.cache = cache;
    this.reports = reports;
    this.notices = notices;
    this.metrics = metrics;
    this.clock = clock;
    this.loop =
        new ReconcileLoop<>(
            new ReconcileLoop.Names(
                "cairn-gslb-status", "status writer", "gslb", "the status of Gslb"),
            log,
            clock,
            leader,
            resyncPeriod,
            this::resync,
            batch -> batch.forEach(this::reconcile),
            false,
            scheduler,
            WriteQueue.Lane.STATUS);
  }

  /** Starts the worker and the periodic resync. */
  public void start() {
    loop.start();
  }

  /**
   * Stops planning; writes not yet sent are dropped (the scheduler lets those in flight finish).
   *
   * @param timeout how long to wait for the pass in progress
   */
  public void stop(Duration timeout) {
    loop.stop(timeout);
  }

  /** A status was added, changed or removed (tombstone: {@code status == null}). */
  public void onStatus(String topicKey, GslbStatus status) {
    loop.signal(() -> statusChanged(topicKey, status));
  }

  /** The status topic has been read to its end. */
  public void onStatusesCaughtUp() {
    loop.onCaughtUp();
  }

  /** A Gslb was added, changed or deleted in the cluster. */
  public void onGslbChanged(ObjectKey key) {
    loop.signal(
        () -> {
          if (statuses.containsKey(key)) {
            loop.markDirty(key);
          }
        });
  }

  /** Leadership was gained or lost. */
  public void onLeadership(boolean isLeader) {
    loop.onLeadership(isLeader);
  }

  /** Asks for a full resync. */
  public void requestResync() {
    loop.requestResync();
  }

  /** True once the status topic has been read to its end. */
  public boolean caughtUp() {
    return loop.caughtUp();
  }

  /** What ended the planning thread unexpectedly, or {@code null}. */
  public String failure() {
    return loop.failure();
  }

  /** Gslbs waiting to be planned (approximate). */
  public int pending() {
    return loop.pending();
  }

  private void statusChanged(String topicKey, GslbStatus status) {
    Optional<ObjectKey> key = GslbStatusPlan.keyOf(topicKey);
    if (key.isEmpty()) {
      if (status != null && invalidKeys.add(topicKey)) {
        metrics.statusSkipped(Action.INVALID.name());
        log.atWarn()
            .addKeyValue("key", topicKey)
            .log(
                "skipped a Gslb status keyed '{}': not {}/<namespace>/<name> with valid names",
                topicKey,
                GslbStatusPlan.KIND);
      } else if (status == null) {
        invalidKeys.remove(topicKey);
      }
      return;
    }
    if (status == null) {
      statuses.remove(key.get());
    } else {
      statuses.put(key.get(), status);
    }
    loop.markDirty(key.get());
  }

  private void resync() {
    store.startInformer();
    cache.dropMarkers();
    loop.markDirty(statuses.keySet());
    reports.retainOnly(statuses.keySet());
  }

  private void reconcile(ObjectKey key) {
    GslbStatus desired = statuses.get(key);
    if (desired == null) {
      reports.remove(key);
      loop.settled(key);
      return;
    }
    Optional<GenericKubernetesResource> raw = cache.get(key);
    if (raw.isEmpty() && store.served()) {
      raw = readThrough(key);
    }
    StatusPlan plan = GslbStatusPlan.plan(key, desired, raw.map(GslbStore::live).orElse(null));
    report(plan, desired, raw.map(r -> r.getMetadata().getUid()).orElse(null));
    if (plan.action() != Action.WRITE) {
      loop.settled(key);
      return;
    }
    GenericKubernetesResource base = raw.get();
    loop.write(
        key,
        mayWrite -> store.writeStatus(plan, base, mayWrite),
        result -> afterWrite(plan, result));
  }

  /**
   * Reads a Gslb the informer has not shown (yet): a status can arrive before the watch event of
   * the Gslb it is for, and a missing Gslb is reported only when the API confirms it.
   */
  private Optional<GenericKubernetesResource> readThrough(ObjectKey key) {
    try {
      return store.read(key);
    } catch (KubernetesClientException e) {
      log.atDebug()
          .addKeyValue("gslb", key)
          .addKeyValue("error", e.getMessage())
          .log("could not read a Gslb; planning from the informer's view");
      return Optional.empty();
    }
  }

  private void report(StatusPlan plan, GslbStatus desired, String liveUid) {
    ObjectKey key = plan.key();
    GslbStatusReport before = reports.planned(plan, desired, clock.instant());
    boolean stateNews = before == null || before.state() != plan.action();
    if (plan.skipped() && stateNews) {
      metrics.statusSkipped(plan.action().name());
      // A missing Gslb or an old uid is normal while a Gslb is deleted or recreated and the engine
      // has not caught up; a status that names no valid Gslb is a bug worth a warning.
      var event = plan.action() == Action.INVALID ? log.atWarn() : log.atInfo();
      event
          .addKeyValue("gslb", key)
          .addKeyValue("reason", plan.action())
          .log("status of Gslb {} not written: {}", key, plan.detail());
    }
    if (!plan.problems().isEmpty()
        && (before == null || !before.notWritten().equals(plan.problems()))) {
      for (Problem p : plan.problems()) {
        log.atWarn()
            .addKeyValue("gslb", key)
            .addKeyValue("field", p.field())
            .addKeyValue("value", p.value())
            .log("status of Gslb {}: {} {}", key, p.field(), p.reason());
      }
    }
    if (!desired.problems().isEmpty()
        && (before == null || !Objects.equals(before.problems(), desired.problems()))) {
      log.atInfo()
          .addKeyValue("gslb", key)
          .addKeyValue("problems", desired.problems())
          .log("Gslb {} has problems: {}", key, String.join("; ", desired.problems()));
    }
    if (plan.action() == Action.WRITE || plan.action() == Action.IN_SYNC) {
      Notices.ofGslbStatus(desired, liveUid).ifPresent(notices);
    }
  }

  private void afterWrite(StatusPlan plan, WriteResult result) {
    ObjectKey key = plan.key();
    reports.written(
        key,
        new GslbStatusReport.LastWrite(result.status().name(), result.detail(), clock.instant()));
    Backoff b = loop.afterWrite(key, result, true);
    switch (result.status()) {
      case DONE ->
          log.atInfo()
              .addKeyValue("gslb", key)
              .log("wrote the status of Gslb {} ({})", key, plan.detail());
      case CONFLICT ->
          log.atInfo()
              .addKeyValue("gslb", key)
              .addKeyValue("attempt", b.attempts())
              .log(
                  "conflict writing the status of Gslb {}: {}; planning again",
                  key,
                  result.detail());
      case INVALID ->
          log.atError()
              .addKeyValue("gslb", key)
              .log("status of Gslb {} refused as invalid: {}", key, result.detail());
      case FAILED ->
          log.atWarn()
              .addKeyValue("gslb", key)
              .addKeyValue("retryAt", b.notBefore())
              .log("status write of Gslb {} failed: {}", key, result.detail());
      case GONE, SKIPPED -> {}
    }
  }
}
