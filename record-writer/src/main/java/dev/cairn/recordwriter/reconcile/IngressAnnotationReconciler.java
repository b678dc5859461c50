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
import java.util.HashSet;
import java.util.Set;
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
public final class IngressAnnotationReconciler
    extends ObjectWriterLoop<GslbFromIngressPlan.Action> {

  private static final Logger log = LoggerFactory.getLogger(IngressAnnotationReconciler.class);

  private final AnnotatedIngressStore ingresses;
  private final GslbStore gslbStore;
  private final GslbCache gslbs;
  private final Consumer<Notice> notices;

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
    super(
        new ReconcileLoop.Names(
            "cairn-ingress-annotations",
            "annotated Ingress Gslb writer",
            "ingress",
            "the Gslb of annotated Ingress"),
        log,
        clock,
        leader,
        resyncPeriod,
        scheduler,
        WriteQueue.Lane.GSLB);
    this.ingresses = ingresses;
    this.gslbStore = gslbStore;
    this.gslbs = gslbs;
    this.notices = notices;
  }

  /** Starts the worker, the informer on Ingresses, and the wait for both informers to list. */
  public void start() {
    loop().start();
    ingresses.startInformer(this::changed);
    loop().catchUpWhen(this::informersSynced, log);
  }

  /**
   * Stops planning; writes not yet sent are dropped.
   *
   * @param timeout how long to wait for the pass in progress
   */
  public void stop(Duration timeout) {
    loop().stop(timeout);
    ingresses.close();
  }

  private boolean informersSynced() {
    return gslbStore.startInformer() && gslbStore.synced() && ingresses.synced();
  }

  @Override
  void resync() {
    ingresses.dropMarkers();
    Set<ObjectKey> keys = new HashSet<>(ingresses.annotated());
    keys.addAll(reported());
    loop().markDirty(keys);
  }

  @Override
  void reconcile(ObjectKey key) {
    if (!gslbStore.served()) {
      loop().settled(key);
      return; // no Gslb CRD: nothing to create
    }
    LiveIngress ingress = ingresses.get(key).orElse(null);
    GenericKubernetesResource base = gslbs.get(key).orElse(null);
    GslbFromIngressPlan plan =
        GslbFromIngressPlan.plan(key, ingress, base == null ? null : GslbStore.liveObject(base));
    report(plan, ingress);
    if (!plan.writes()) {
      loop().settled(key);
      return;
    }
    String ingressUid = ingress.uid();
    GenericKubernetesResource sendBase = plan.action() == Action.CREATE ? null : base;
    loop()
        .write(
            key,
            mayWrite -> gslbStore.apply(plan, sendBase, mayWrite),
            result -> afterWrite(plan, ingressUid, result));
  }

  private void report(GslbFromIngressPlan plan, LiveIngress ingress) {
    ObjectKey key = plan.key();
    if (plan.action() == Action.NONE) {
      forget(key);
      return;
    }
    WriteState<Action> before = report(key, plan.action(), plan.detail());
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
    reportWrite(key, result);
    Backoff b = loop().afterWrite(key, result, true);
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
