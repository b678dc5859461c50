package dev.cairn.recordwriter.reconcile;

import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.ingress.EmbeddingGslb;
import dev.cairn.recordwriter.ingress.IngressPlan;
import dev.cairn.recordwriter.ingress.IngressPlan.Action;
import dev.cairn.recordwriter.kube.GslbCache;
import dev.cairn.recordwriter.kube.GslbStore;
import dev.cairn.recordwriter.kube.IngressStore;
import dev.cairn.recordwriter.kube.WriteResult;
import dev.cairn.recordwriter.notice.Notice;
import dev.cairn.recordwriter.notice.Notice.Reason;
import dev.cairn.recordwriter.notice.Notices;
import dev.cairn.recordwriter.plan.ObjectKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded-Ingress loop: for every Gslb without a resourceRef, the Ingress k8gb would create
 * from its {@code spec.ingress} (k8gb.md §1.5), planned by {@link IngressPlan} and written through
 * the shared {@link WriteScheduler}, one write per Ingress at a time. Level-triggered: a Gslb event
 * or an event on a labelled Ingress marks the name dirty, and every pass plans from the Gslb and
 * the Ingress as they are now.
 *
 * <ul>
 *   <li>Nothing is planned before the informers on Gslbs and on labelled Ingresses have listed
 *       everything (a partial view would delete or create wrongly), nor while this instance is not
 *       the leader. Every {@code resyncPeriod}, every known name is planned again.
 *   <li>While the API server does not serve Gslbs, nothing is planned: no Ingress is deleted for
 *       want of a Gslb the writer cannot see.
 *   <li>A conflict (the name held by another Ingress) and a refusal by the API server are reported
 *       on the Gslb as Warning Events and in {@link #states()}.
 * </ul>
 */
public final class EmbeddedIngressReconciler {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedIngressReconciler.class);
  private static final long FIRST_SYNC_CHECK_MILLIS = 200;
  private static final long MAX_SYNC_CHECK_MILLIS = 30_000;

  /**
   * What the last pass concluded for one name.
   *
   * @param action the plan's action
   * @param detail why
   * @param lastWrite the result of the last write, {@code null} before one
   * @param at when it was planned
   */
  public record State(Action action, String detail, WriteResult lastWrite, Instant at) {

    /** True when the API server refused the last write (it is not tried again until a change). */
    public boolean refused() {
      return lastWrite != null && lastWrite.status() == WriteResult.Status.INVALID;
    }
  }

  private final IngressStore store;
  private final GslbStore gslbStore;
  private final GslbCache gslbs;
  private final Consumer<Notice> notices;
  private final Clock clock;
  private final ReconcileLoop<ObjectKey> loop;
  private final Map<ObjectKey, State> states = new ConcurrentHashMap<>();
  private volatile long syncCheckMillis = FIRST_SYNC_CHECK_MILLIS;

  /**
   * A reconciler; {@link #start()} starts its thread.
   *
   * @param notices told the conditions to show on a Gslb; it records each once
   * @param leader whether this instance may write now
   * @param resyncPeriod the period of full resyncs
   * @param scheduler sends the writes (shared with the other loops)
   */
  public EmbeddedIngressReconciler(
      IngressStore store,
      GslbStore gslbStore,
      GslbCache gslbs,
      Consumer<Notice> notices,
      Clock clock,
      BooleanSupplier leader,
      Duration resyncPeriod,
      WriteScheduler scheduler) {
    this.store = store;
    this.gslbStore = gslbStore;
    this.gslbs = gslbs;
    this.notices = notices;
    this.clock = clock;
    this.loop =
        new ReconcileLoop<>(
            new ReconcileLoop.Names(
                "cairn-embedded-ingress",
                "embedded Ingress writer",
                "ingress",
                "the embedded Ingress of Gslb"),
            log,
            clock,
            leader,
            resyncPeriod,
            this::resync,
            batch -> batch.forEach(this::reconcile),
            false,
            scheduler,
            WriteQueue.Lane.INGRESS);
  }

  /**
   * Starts the worker, the informer on labelled Ingresses, and the wait for both informers to list
   * everything; planning starts then.
   */
  public void start() {
    loop.start();
    store.startInformer(this::onIngressChanged);
    loop.schedule(this::checkSynced, 0);
  }

  /**
   * Stops planning; writes not yet sent are dropped.
   *
   * @param timeout how long to wait for the pass in progress
   */
  public void stop(Duration timeout) {
    loop.stop(timeout);
    store.close();
  }

  /** A Gslb was added, changed or deleted. Thread-safe. */
  public void onGslbChanged(ObjectKey key) {
    loop.signal(() -> loop.markDirty(key));
  }

  /** A labelled Ingress was added, changed or deleted. Thread-safe. */
  public void onIngressChanged(ObjectKey key) {
    loop.signal(() -> loop.markDirty(key));
  }

  /** Leadership was gained or lost. Thread-safe. */
  public void onLeadership(boolean isLeader) {
    loop.onLeadership(isLeader);
  }

  /** True once both informers have listed everything and planning has started. */
  public boolean caughtUp() {
    return loop.caughtUp();
  }

  /** What ended the planning thread unexpectedly, or {@code null}. */
  public String failure() {
    return loop.failure();
  }

  /** Names waiting to be planned (approximate). */
  public int pending() {
    return loop.pending();
  }

  /** What the last pass concluded for one name, {@code null} when it embeds no Ingress. */
  public State state(ObjectKey key) {
    return states.get(key);
  }

  /** What the last pass concluded for every name planned, for the explain API and health. */
  public Map<ObjectKey, State> states() {
    return Map.copyOf(states);
  }

  private void checkSynced() {
    try {
      if (gslbStore.startInformer() && gslbStore.synced() && store.synced()) {
        loop.onCaughtUp();
        return;
      }
    } catch (RuntimeException e) {
      log.atDebug().setCause(e).log("waiting for the Gslb and Ingress informers");
    }
    long wait = syncCheckMillis;
    syncCheckMillis = Math.min(MAX_SYNC_CHECK_MILLIS, wait * 2);
    loop.schedule(this::checkSynced, wait);
  }

  private void resync() {
    store.dropMarkers();
    Set<ObjectKey> keys = new HashSet<>(gslbs.keys());
    keys.addAll(store.keys());
    keys.addAll(states.keySet());
    loop.markDirty(keys);
  }

  private void reconcile(ObjectKey key) {
    if (!gslbStore.served()) {
      loop.settled(key);
      return; // the Gslb CRD is gone or not installed: never delete for want of a Gslb
    }
    EmbeddingGslb gslb = gslbs.get(key).map(IngressStore::embedding).orElse(null);
    Optional<GenericKubernetesResource> raw = store.cached(key);
    if (gslb != null
        && gslb.shape() == EmbeddingGslb.Shape.EMBEDDED
        && raw.map(r -> !IngressStore.labelled(r)).orElse(true)) {
      // The informer sees labelled Ingresses only: whether the name is free, or held by an Ingress
      // that is not the Gslb's, is asked of the API.
      raw = read(key);
      if (raw == null) {
        loop.afterWrite(key, new WriteResult(WriteResult.Status.FAILED, "read failed"), false);
        return;
      }
    }
    IngressPlan plan = IngressPlan.plan(key, gslb, raw.map(store::live).orElse(null));
    report(plan, gslb);
    if (!plan.writes()) {
      if (plan.action() == Action.NONE) {
        states.remove(key);
      }
      loop.settled(key);
      return;
    }
    GenericKubernetesResource base = raw.orElse(null);
    String gslbUid = gslb == null ? null : gslb.uid();
    loop.write(
        key,
        mayWrite -> store.apply(plan, base, mayWrite),
        result -> afterWrite(plan, gslbUid, result));
  }

  /** Reads the Ingress of a name; {@code null} when the read failed (planned again later). */
  private Optional<GenericKubernetesResource> read(ObjectKey key) {
    try {
      return store.read(key);
    } catch (KubernetesClientException e) {
      log.atWarn()
          .addKeyValue("ingress", key)
          .addKeyValue("error", e.getMessage())
          .log("could not read Ingress {}; trying again later", key);
      return null;
    }
  }

  private void report(IngressPlan plan, EmbeddingGslb gslb) {
    ObjectKey key = plan.key();
    State before = states.get(key);
    if (plan.action() != Action.NONE) {
      states.put(
          key,
          new State(
              plan.action(),
              plan.detail(),
              before == null ? null : before.lastWrite(),
              clock.instant()));
    }
    boolean news = before == null || before.action() != plan.action();
    if (plan.action() == Action.CONFLICT) {
      if (news) {
        log.atWarn()
            .addKeyValue("gslb", key)
            .log("embedded Ingress of Gslb {} not written: {}", key, plan.detail());
      }
      notices.accept(Notices.ofIngress(key, gslb.uid(), Reason.INGRESS_CONFLICT, plan.problem()));
    } else if (news && (plan.action() == Action.KEEP)) {
      log.atInfo().addKeyValue("gslb", key).log("Ingress {}: {}", key, plan.detail());
    }
  }

  private void afterWrite(IngressPlan plan, String gslbUid, WriteResult result) {
    ObjectKey key = plan.key();
    states.computeIfPresent(key, (k, s) -> new State(s.action(), s.detail(), result, s.at()));
    Backoff b = loop.afterWrite(key, result, true);
    switch (result.status()) {
      case DONE ->
          log.atInfo()
              .addKeyValue("ingress", key)
              .addKeyValue("action", plan.action())
              .log("{} the embedded Ingress {}: {}", result.detail(), key, plan.detail());
      case CONFLICT ->
          log.atInfo()
              .addKeyValue("ingress", key)
              .addKeyValue("attempt", b.attempts())
              .log("conflict writing Ingress {}: {}; planning again", key, result.detail());
      case INVALID -> {
        log.atError()
            .addKeyValue("ingress", key)
            .log("Ingress {} refused: {}", key, result.detail());
        notices.accept(
            Notices.ofIngress(
                key,
                gslbUid,
                Reason.INVALID_INGRESS,
                new Problem(
                    "spec.ingress",
                    null,
                    "the Ingress built from it was refused, so it has no load-balancer address: "
                        + result.detail())));
      }
      case FAILED ->
          log.atWarn()
              .addKeyValue("ingress", key)
              .addKeyValue("retryAt", b.notBefore())
              .log("write of Ingress {} failed: {}", key, result.detail());
      case GONE, SKIPPED -> {}
    }
  }
}
