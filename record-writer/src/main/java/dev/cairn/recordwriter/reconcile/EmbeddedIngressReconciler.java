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
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
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
public final class EmbeddedIngressReconciler extends ObjectWriterLoop<IngressPlan.Action> {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedIngressReconciler.class);

  private final IngressStore store;
  private final GslbStore gslbStore;
  private final GslbCache gslbs;
  private final Consumer<Notice> notices;

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
    super(
        new ReconcileLoop.Names(
            "cairn-embedded-ingress",
            "embedded Ingress writer",
            "ingress",
            "the embedded Ingress of Gslb"),
        log,
        clock,
        leader,
        resyncPeriod,
        scheduler,
        WriteQueue.Lane.INGRESS);
    this.store = store;
    this.gslbStore = gslbStore;
    this.gslbs = gslbs;
    this.notices = notices;
  }

  /**
   * Starts the worker, the informer on labelled Ingresses, and the wait for both informers to list
   * everything; planning starts then.
   */
  public void start() {
    loop().start();
    store.startInformer(this::changed);
    loop().catchUpWhen(this::informersSynced, log);
  }

  /**
   * Stops planning; writes not yet sent are dropped.
   *
   * @param timeout how long to wait for the pass in progress
   */
  public void stop(Duration timeout) {
    loop().stop(timeout);
    store.close();
  }

  private boolean informersSynced() {
    return gslbStore.startInformer() && gslbStore.synced() && store.synced();
  }

  @Override
  void resync() {
    store.dropMarkers();
    Set<ObjectKey> keys = new HashSet<>(gslbs.keys());
    keys.addAll(store.keys());
    keys.addAll(reported());
    loop().markDirty(keys);
  }

  @Override
  void reconcile(ObjectKey key) {
    if (!gslbStore.served()) {
      loop().settled(key);
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
        loop().afterWrite(key, new WriteResult(WriteResult.Status.FAILED, "read failed"), false);
        return;
      }
    }
    IngressPlan plan = IngressPlan.plan(key, gslb, raw.map(store::live).orElse(null));
    report(plan, gslb);
    if (!plan.writes()) {
      if (plan.action() == Action.NONE) {
        forget(key);
      }
      loop().settled(key);
      return;
    }
    GenericKubernetesResource base = raw.orElse(null);
    String gslbUid = gslb == null ? null : gslb.uid();
    loop()
        .write(
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
    WriteState<Action> before =
        plan.action() == Action.NONE ? state(key) : report(key, plan.action(), plan.detail());
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
    reportWrite(key, result);
    Backoff b = loop().afterWrite(key, result, true);
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
