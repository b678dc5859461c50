package dev.cairn.recordwriter.lifecycle;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.recordwriter.delegation.DelegationPublisher;
import dev.cairn.recordwriter.kafka.StateFeed;
import dev.cairn.recordwriter.kube.DnsEndpointStore;
import dev.cairn.recordwriter.kube.EventWriter;
import dev.cairn.recordwriter.kube.GslbStore;
import dev.cairn.recordwriter.leader.LeaderElection;
import dev.cairn.recordwriter.reconcile.EmbeddedIngressReconciler;
import dev.cairn.recordwriter.reconcile.GslbStatusReconciler;
import dev.cairn.recordwriter.reconcile.IngressAnnotationReconciler;
import dev.cairn.recordwriter.reconcile.RecordReconciler;
import dev.cairn.recordwriter.reconcile.WriteScheduler;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Starts and stops the writer's moving parts in order. Start: check that the API serves
 * DNSEndpoints (a missing CRD stops the service), start the write scheduler, the reconcilers, the
 * informers on owned DNSEndpoints and on Gslbs (when served), the embedded-Ingress loop (unless
 * disabled), the decisions and Gslb status readers and the leader election. Stop (SIGTERM closes
 * the Spring context): lameduck, so the reconcilers stop planning, writes not yet sent are dropped
 * (whoever writes next plans them again, level- triggered), the writes in flight complete and
 * nothing further is sent (Events still queued are dropped); then the lease is given up, and the
 * readers and informers are closed.
 */
public final class WriterLifecycle implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(WriterLifecycle.class);
  private static final Duration LAMEDUCK_TIMEOUT = Duration.ofSeconds(30);

  private final DnsEndpointStore store;
  private final RecordReconciler reconciler;
  private final StateFeed<TargetDecision> feed;
  private final GslbStore gslbStore;
  private final GslbStatusReconciler statusReconciler;
  private final StateFeed<GslbStatus> statusFeed;
  private final EmbeddedIngressReconciler ingressReconciler;
  private final IngressAnnotationReconciler annotationReconciler;
  private final DelegationPublisher delegation;
  private final WriteScheduler scheduler;
  private final EventWriter events;
  private final LeaderElection election;
  private volatile SharedIndexInformer<GenericKubernetesResource> informer;
  private volatile boolean running;

  /**
   * The parts to start and stop; {@code ingressReconciler} and {@code annotationReconciler} are
   * {@code null} when disabled.
   */
  public WriterLifecycle(
      DnsEndpointStore store,
      RecordReconciler reconciler,
      StateFeed<TargetDecision> feed,
      GslbStore gslbStore,
      GslbStatusReconciler statusReconciler,
      StateFeed<GslbStatus> statusFeed,
      EmbeddedIngressReconciler ingressReconciler,
      IngressAnnotationReconciler annotationReconciler,
      DelegationPublisher delegation,
      WriteScheduler scheduler,
      EventWriter events,
      LeaderElection election) {
    this.store = store;
    this.reconciler = reconciler;
    this.feed = feed;
    this.gslbStore = gslbStore;
    this.statusReconciler = statusReconciler;
    this.statusFeed = statusFeed;
    this.ingressReconciler = ingressReconciler;
    this.annotationReconciler = annotationReconciler;
    this.delegation = delegation;
    this.scheduler = scheduler;
    this.events = events;
    this.election = election;
  }

  @Override
  public synchronized void start() {
    try {
      if (!store.served()) {
        throw new IllegalStateException(
            "the API server does not serve "
                + DnsEndpointStore.CONTEXT.getGroup()
                + "/"
                + DnsEndpointStore.CONTEXT.getVersion()
                + " "
                + DnsEndpointStore.CONTEXT.getPlural()
                + ": install the DNSEndpoint CRD (crds/dnsendpoints.externaldns.k8s.io.yaml)");
      }
    } catch (KubernetesClientException e) {
      log.atWarn()
          .addKeyValue("error", e.getMessage())
          .log("could not check the DNSEndpoint API; starting anyway, the informer retries");
    }
    scheduler.start();
    reconciler.start();
    statusReconciler.start();
    informer = store.inform(reconciler::onObjectChanged);
    gslbStore.startInformer();
    if (ingressReconciler != null) {
      ingressReconciler.start();
    }
    if (annotationReconciler != null) {
      annotationReconciler.start();
    }
    // Before the decisions topic and the election (nothing is written before the election): the
    // delegation is part of the first full view of what Cairn publishes, so no resync takes the
    // published one for an orphan.
    delegation.start();
    feed.start();
    statusFeed.start();
    election.start();
    running = true;
    log.atInfo()
        .addKeyValue("topic", feed.topic())
        .addKeyValue("statusTopic", statusFeed.topic())
        .addKeyValue("identity", election.identity())
        .log("record-writer started");
  }

  @Override
  public synchronized void stop() {
    if (!running) {
      return;
    }
    running = false;
    reconciler.stop(LAMEDUCK_TIMEOUT);
    statusReconciler.stop(LAMEDUCK_TIMEOUT);
    if (ingressReconciler != null) {
      ingressReconciler.stop(LAMEDUCK_TIMEOUT);
    }
    if (annotationReconciler != null) {
      annotationReconciler.stop(LAMEDUCK_TIMEOUT);
    }
    scheduler.stop(LAMEDUCK_TIMEOUT);
    delegation.stop();
    events.close();
    election.stop();
    feed.close();
    statusFeed.close();
    if (informer != null) {
      informer.close();
    }
    gslbStore.close();
    log.atInfo().log("record-writer stopped; the lease is released");
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** True while the informer on owned DNSEndpoints is watching. */
  public boolean watching() {
    SharedIndexInformer<GenericKubernetesResource> i = informer;
    return i != null && i.isWatching();
  }

  /** True once the informer has listed the owned DNSEndpoints. */
  public boolean synced() {
    SharedIndexInformer<GenericKubernetesResource> i = informer;
    return i != null && i.hasSynced();
  }
}
