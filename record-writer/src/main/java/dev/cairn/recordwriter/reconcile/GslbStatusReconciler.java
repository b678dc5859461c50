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
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Gslb status loop: keeps the engine's desired statuses and a dirty set of Gslb names, and on
 * one worker thread plans the dirty names ({@link GslbStatusPlan}) and writes the statuses that
 * differ ({@link GslbStore}). Level-triggered like {@link RecordReconciler}: a status change or a
 * Gslb event marks the name dirty; every pass plans from the desired status and the Gslb as it is
 * now.
 *
 * <ul>
 *   <li>Nothing is planned before the status topic has been read to its end (a replay would write
 *       old statuses), nor while this instance is not the leader. Reaching the end, gaining
 *       leadership and every {@code resyncPeriod}, every status is planned again.
 *   <li>Before each write the pending events are taken in; a write whose Gslb changed since it was
 *       planned is dropped and the name planned again. A 409 makes the store read the Gslb again
 *       and the name is planned again (with backoff if it keeps happening).
 *   <li>A status for a missing Gslb or for another uid is skipped and reported once; the Gslb's
 *       creation, or a new status, plans it again.
 * </ul>
 */
public final class GslbStatusReconciler {

  private static final Logger log = LoggerFactory.getLogger(GslbStatusReconciler.class);
  private static final int BATCH = 256;
  private static final Duration CONFLICT_BACKOFF_BASE = Duration.ofMillis(100);
  private static final Duration CONFLICT_BACKOFF_MAX = Duration.ofSeconds(30);
  private static final Duration ERROR_BACKOFF_BASE = Duration.ofSeconds(1);
  private static final Duration ERROR_BACKOFF_MAX = Duration.ofMinutes(5);

  private sealed interface Signal
      permits StatusChanged, GslbChanged, CaughtUp, Resync, Leadership, Wake {}

  private record StatusChanged(String topicKey, GslbStatus status) implements Signal {}

  private record GslbChanged(ObjectKey key) implements Signal {}

  private record CaughtUp() implements Signal {}

  private record Resync() implements Signal {}

  private record Leadership(boolean leader) implements Signal {}

  private record Wake() implements Signal {}

  private final GslbStore store;
  private final GslbCache cache;
  private final GslbStatusReports reports;
  private final Consumer<Notice> notices;
  private final WriterMetrics metrics;
  private final Clock clock;
  private final BooleanSupplier leader;
  private final Duration resyncPeriod;

  private final BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
  private final ScheduledExecutorService timers;
  private final Thread worker;
  private volatile boolean stopping;
  private volatile boolean caughtUp;
  private volatile int pending;

  // Worker-confined state.
  private final Map<ObjectKey, GslbStatus> statuses = new HashMap<>();
  private final Set<ObjectKey> dirty = new LinkedHashSet<>();
  private final Map<ObjectKey, Backoff> backoff = new HashMap<>();
  private final Set<String> invalidKeys = new HashSet<>();
  private boolean resyncRequested;

  /**
   * A reconciler; {@link #start()} starts its thread.
   *
   * @param notices told every condition to show on a Gslb (engine problems) at every plan; it
   *     records each once
   * @param leader whether this instance may write now
   * @param resyncPeriod the period of full resyncs
   */
  public GslbStatusReconciler(
      GslbStore store,
      GslbCache cache,
      GslbStatusReports reports,
      Consumer<Notice> notices,
      WriterMetrics metrics,
      Clock clock,
      BooleanSupplier leader,
      Duration resyncPeriod) {
    this.store = store;
    this.cache = cache;
    this.reports = reports;
    this.notices = notices;
    this.metrics = metrics;
    this.clock = clock;
    this.leader = leader;
    this.resyncPeriod = resyncPeriod;
    this.timers =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "cairn-gslb-status-timers");
              t.setDaemon(true);
              return t;
            });
    this.worker = new Thread(this::run, "cairn-gslb-status");
    this.worker.setDaemon(true);
  }

  /** Starts the worker and the periodic resync. */
  public void start() {
    worker.start();
    long period = resyncPeriod.toMillis();
    timers.scheduleWithFixedDelay(this::requestResync, period, period, TimeUnit.MILLISECONDS);
  }

  /**
   * Stops in lameduck fashion: the write in flight completes, nothing further is sent.
   *
   * @param timeout how long to wait for the write in flight
   */
  public void stop(Duration timeout) {
    stopping = true;
    signals.offer(new Wake());
    try {
      worker.join(timeout.toMillis());
      if (worker.isAlive()) {
        log.atWarn().log("the status writer did not finish its write in time; interrupting it");
        worker.interrupt();
        worker.join(1_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    timers.shutdownNow();
  }

  /** A status was added, changed or removed (tombstone: {@code status == null}). */
  public void onStatus(String topicKey, GslbStatus status) {
    signals.offer(new StatusChanged(topicKey, status));
  }

  /** The status topic has been read to its end. */
  public void onStatusesCaughtUp() {
    signals.offer(new CaughtUp());
  }

  /** A Gslb was added, changed or deleted in the cluster. */
  public void onGslbChanged(ObjectKey key) {
    signals.offer(new GslbChanged(key));
  }

  /** Leadership was gained or lost. */
  public void onLeadership(boolean isLeader) {
    signals.offer(new Leadership(isLeader));
  }

  /** Asks for a full resync. */
  public void requestResync() {
    signals.offer(new Resync());
  }

  /** True once the status topic has been read to its end. */
  public boolean caughtUp() {
    return caughtUp;
  }

  /** Gslbs waiting to be planned (approximate). */
  public int pending() {
    return pending + signals.size();
  }

  private boolean mayWrite() {
    return !stopping && leader.getAsBoolean();
  }

  private void run() {
    while (!stopping) {
      try {
        Signal s = signals.poll(waitMillis(), TimeUnit.MILLISECONDS);
        if (s != null) {
          handle(s);
        }
        drainSignals();
        if (stopping || !caughtUp || !leader.getAsBoolean()) {
          continue;
        }
        if (resyncRequested) {
          resyncRequested = false;
          resync();
          continue;
        }
        for (ObjectKey key : dueBatch()) {
          reconcileIsolated(key);
        }
      } catch (InterruptedException e) {
        if (!stopping) {
          log.atWarn().log("the status writer thread was interrupted; continuing");
        }
      } catch (RuntimeException e) {
        log.atError().setCause(e).log("a status pass failed; continuing");
      } finally {
        pending = dirty.size();
      }
    }
  }

  private long waitMillis() {
    if (!caughtUp || !leader.getAsBoolean()) {
      return 60_000;
    }
    if (resyncRequested) {
      return 0;
    }
    Instant now = clock.instant();
    long wait = 60_000;
    for (ObjectKey key : dirty) {
      Backoff b = backoff.get(key);
      if (b == null || b.due(now)) {
        return 0;
      }
      wait = Math.min(wait, Math.max(1, Duration.between(now, b.notBefore()).toMillis()));
    }
    return wait;
  }

  private void drainSignals() {
    Signal s;
    while ((s = signals.poll()) != null) {
      handle(s);
    }
  }

  private void handle(Signal s) {
    if (s instanceof StatusChanged c) {
      statusChanged(c.topicKey(), c.status());
    } else if (s instanceof GslbChanged g) {
      if (statuses.containsKey(g.key())) {
        dirty.add(g.key());
      }
    } else if (s instanceof CaughtUp) {
      caughtUp = true;
      resyncRequested = true;
    } else if (s instanceof Resync) {
      resyncRequested = true;
    } else if (s instanceof Leadership l && l.leader()) {
      resyncRequested = true;
    }
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
    dirty.add(key.get());
  }

  private List<ObjectKey> dueBatch() {
    Instant now = clock.instant();
    List<ObjectKey> batch = new ArrayList<>();
    Iterator<ObjectKey> it = dirty.iterator();
    while (it.hasNext() && batch.size() < BATCH) {
      ObjectKey key = it.next();
      Backoff b = backoff.get(key);
      if (b == null || b.due(now)) {
        batch.add(key);
        it.remove();
      }
    }
    return batch;
  }

  private void resync() {
    store.startInformer(this::onGslbChanged);
    cache.dropMarkers();
    dirty.addAll(statuses.keySet());
    reports.retainOnly(statuses.keySet());
  }

  private void reconcileIsolated(ObjectKey key) {
    try {
      reconcile(key);
    } catch (RuntimeException e) {
      Backoff b =
          Backoff.next(
              backoff.get(key), ERROR_BACKOFF_BASE, ERROR_BACKOFF_MAX, clock.instant(), false);
      backoff.put(key, b);
      dirty.add(key);
      log.atError()
          .addKeyValue("gslb", key)
          .addKeyValue("retryAt", b.notBefore())
          .setCause(e)
          .log("planning the status of Gslb {} failed; trying again later", key);
    }
  }

  private void reconcile(ObjectKey key) {
    GslbStatus desired = statuses.get(key);
    if (desired == null) {
      reports.remove(key);
      backoff.remove(key);
      return;
    }
    Optional<GenericKubernetesResource> raw = cache.get(key);
    if (raw.isEmpty() && store.served()) {
      raw = readThrough(key);
    }
    StatusPlan plan = GslbStatusPlan.plan(key, desired, raw.map(GslbStore::live).orElse(null));
    report(plan, desired, raw.map(r -> r.getMetadata().getUid()).orElse(null));
    if (plan.action() != Action.WRITE) {
      backoff.remove(key);
      return;
    }
    drainSignals();
    if (!mayWrite()) {
      dirty.add(key);
      return;
    }
    if (dirty.contains(key)) {
      return; // changed since planned: planned again in a later pass
    }
    WriteResult result = store.writeStatus(plan, raw.get(), this::mayWrite);
    afterWrite(plan, result);
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
    Instant now = clock.instant();
    reports.written(
        key, new GslbStatusReport.LastWrite(result.status().name(), result.detail(), now));
    switch (result.status()) {
      case DONE -> {
        backoff.remove(key);
        log.atInfo()
            .addKeyValue("gslb", key)
            .log("wrote the status of Gslb {} ({})", key, plan.detail());
      }
      case GONE -> {
        backoff.remove(key);
        dirty.add(key);
      }
      case CONFLICT -> {
        Backoff b =
            Backoff.next(backoff.get(key), CONFLICT_BACKOFF_BASE, CONFLICT_BACKOFF_MAX, now, true);
        backoff.put(key, b);
        dirty.add(key);
        log.atInfo()
            .addKeyValue("gslb", key)
            .addKeyValue("attempt", b.attempts())
            .log(
                "conflict writing the status of Gslb {}: {}; planning again", key, result.detail());
      }
      case INVALID -> {
        backoff.remove(key);
        log.atError()
            .addKeyValue("gslb", key)
            .log("status of Gslb {} refused as invalid: {}", key, result.detail());
      }
      case FAILED -> {
        Backoff b =
            Backoff.next(backoff.get(key), ERROR_BACKOFF_BASE, ERROR_BACKOFF_MAX, now, false);
        backoff.put(key, b);
        dirty.add(key);
        log.atWarn()
            .addKeyValue("gslb", key)
            .addKeyValue("retryAt", b.notBefore())
            .log("status write of Gslb {} failed: {}", key, result.detail());
      }
      case SKIPPED -> dirty.add(key);
    }
  }
}
