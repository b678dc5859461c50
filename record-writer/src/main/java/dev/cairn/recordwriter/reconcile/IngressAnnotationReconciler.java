package dev.cairn.recordwriter.reconcile;

import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.ingress.GslbFromIngressPlan;
import dev.cairn.recordwriter.ingress.GslbFromIngressPlan.Action;
import dev.cairn.recordwriter.ingress.LiveIngress;
import dev.cairn.recordwriter.kube.AnnotatedIngressStore;
import dev.cairn.recordwriter.kube.GslbCache;
import dev.cairn.recordwriter.kube.GslbStore;
import dev.cairn.recordwriter.kube.WriteResult;
import dev.cairn.recordwriter.notice.Notice;
import dev.cairn.recordwriter.notice.Notice.Reason;
import dev.cairn.recordwriter.notice.Notices;
import dev.cairn.recordwriter.plan.ObjectKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Ingress-annotation loop (k8gb.md §1.6): for every Ingress annotated {@value
 * GslbFromIngressPlan#STRATEGY}, the Gslb k8gb would create from its annotations, planned by {@link
 * GslbFromIngressPlan} and written through the shared {@link WriteScheduler}. Level-triggered: an
 * event on an Ingress or a Gslb marks the name dirty, and every pass plans from both as they are
 * now. Nothing is planned before both informers have listed everything, while this instance is not
 * the leader, or while the API server does not serve Gslbs. Annotations that cannot be used, a Gslb
 * that is not the Ingress's and a refusal by the API server are reported on the Ingress as Warning
 * Events and in {@link #states()}.
 */
public final class IngressAnnotationReconciler {

  private static final Logger log = LoggerFactory.getLogger(IngressAnnotationReconciler.class);
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

  private final AnnotatedIngressStore ingresses;
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
   * @param notices told the conditions to show on an Ingress; it records each once
   * @param leader whether this instance may write now
   * @param resyncPeriod the period of full resyncs
   * @param scheduler sends the writes (shared with the other loops)
   */
  public IngressAnnotationReconciler(
      AnnotatedIngressStore ingresses,
      GslbStore gslbStore,
      GslbCache gslbs,
      Consumer<Notice> notices,
      Clock clock,
      BooleanSupplier leader,
      Duration resyncPeriod,
      WriteScheduler scheduler) {
    this.ingresses = ingresses;
    this.gslbStore = gslbStore;
    this.gslbs = gslbs;
    this.notices = notices;
    this.clock = clock;
    this.loop =
        new ReconcileLoop<>(
            new ReconcileLoop.Names(
                "cairn-ingress-annotations",
                "annotated Ingress Gslb writer",
                "ingress",
                "the Gslb of annotated Ingress"),
            log,
            clock,
            leader,
            resyncPeriod,
            this::resync,
            batch -> batch.forEach(this::reconcile),
            false,
            scheduler,
            WriteQueue.Lane.GSLB);
  }

  /** Starts the worker, the informer on Ingresses, and the wait for both informers to list. */
  public void start() {
    loop.start();
    ingresses.startInformer(this::onIngressChanged);
    loop.schedule(this::checkSynced, 0);
  }

  /**
   * Stops planning; writes not yet sent are dropped.
   *
   * @param timeout how long to wait for the pass in progress
   */
  public void stop(Duration timeout) {
    loop.stop(timeout);
    ingresses.close();
  }

  /** A Gslb was added, changed or deleted. Thread-safe. */
  public void onGslbChanged(ObjectKey key) {
    loop.signal(() -> loop.markDirty(key));
  }

  /** An Ingress was added, changed or deleted. Thread-safe. */
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

  /** What the last pass concluded for one name, {@code null} when nothing is to be done for it. */
  public State state(ObjectKey key) {
    return states.get(key);
  }

  /** What the last pass concluded for every name with something to report. */
  public Map<ObjectKey, State> states() {
    return Map.copyOf(states);
  }

  private void checkSynced() {
    try {
      if (gslbStore.startInformer() && gslbStore.synced() && ingresses.synced()) {
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
    ingresses.dropMarkers();
    Set<ObjectKey> keys = new HashSet<>(ingresses.annotated());
    keys.addAll(states.keySet());
    loop.markDirty(keys);
  }

  private void reconcile(ObjectKey key) {
    if (!gslbStore.served()) {
      loop.settled(key);
      return; // no Gslb CRD: nothing to create
    }
    LiveIngress ingress = ingresses.get(key).orElse(null);
    GenericKubernetesResource base = gslbs.get(key).orElse(null);
    GslbFromIngressPlan plan =
        GslbFromIngressPlan.plan(key, ingress, base == null ? null : GslbStore.liveObject(base));
    report(plan, ingress);
    if (!plan.writes()) {
      loop.settled(key);
      return;
    }
    String ingressUid = ingress.uid();
    GenericKubernetesResource sendBase = plan.action() == Action.CREATE ? null : base;
    loop.write(
        key,
        mayWrite -> gslbStore.apply(plan, sendBase, mayWrite),
        result -> afterWrite(plan, ingressUid, result));
  }

  private void report(GslbFromIngressPlan plan, LiveIngress ingress) {
    ObjectKey key = plan.key();
    State before = states.get(key);
    if (plan.action() == Action.NONE) {
      states.remove(key);
      return;
    }
    states.put(
        key,
        new State(
            plan.action(),
            plan.detail(),
            before == null ? null : before.lastWrite(),
            clock.instant()));
    boolean news = before == null || before.action() != plan.action();
    Reason reason =
        switch (plan.action()) {
          case CONFLICT -> Reason.GSLB_CONFLICT;
          case INVALID -> Reason.INVALID_ANNOTATION;
          default -> null;
        };
    if (reason != null) {
      if (news) {
        log.atWarn()
            .addKeyValue("ingress", key)
            .log("Gslb of annotated Ingress {} not written: {}", key, plan.detail());
      }
      notices.accept(Notices.ofAnnotatedIngress(key, ingress.uid(), reason, plan.problem()));
    }
  }

  private void afterWrite(GslbFromIngressPlan plan, String ingressUid, WriteResult result) {
    ObjectKey key = plan.key();
    states.computeIfPresent(key, (k, s) -> new State(s.action(), s.detail(), result, s.at()));
    Backoff b = loop.afterWrite(key, result, true);
    switch (result.status()) {
      case DONE ->
          log.atInfo()
              .addKeyValue("gslb", key)
              .addKeyValue("action", plan.action())
              .log("{} Gslb {} from its Ingress's annotations", result.detail(), key);
      case CONFLICT ->
          log.atInfo()
              .addKeyValue("gslb", key)
              .addKeyValue("attempt", b.attempts())
              .log("conflict writing Gslb {}: {}; planning again", key, result.detail());
      case INVALID -> {
        log.atError().addKeyValue("gslb", key).log("Gslb {} refused: {}", key, result.detail());
        notices.accept(
            Notices.ofAnnotatedIngress(
                key,
                ingressUid,
                Reason.INVALID_ANNOTATION,
                new Problem(
                    "metadata.annotations[" + GslbFromIngressPlan.STRATEGY + "]",
                    null,
                    "the Gslb built from the annotations was refused: " + result.detail())));
      }
      case FAILED ->
          log.atWarn()
              .addKeyValue("gslb", key)
              .addKeyValue("retryAt", b.notBefore())
              .log("write of Gslb {} failed: {}", key, result.detail());
      case GONE, SKIPPED -> {}
    }
  }
}
