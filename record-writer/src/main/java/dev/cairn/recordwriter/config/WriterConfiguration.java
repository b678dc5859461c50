package dev.cairn.recordwriter.config;

import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnJson;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.recordwriter.delegation.DelegationPublisher;
import dev.cairn.recordwriter.delegation.DelegationRecords;
import dev.cairn.recordwriter.health.DecisionsHealthIndicator;
import dev.cairn.recordwriter.health.DnsEndpointsHealthIndicator;
import dev.cairn.recordwriter.health.GslbStatusHealthIndicator;
import dev.cairn.recordwriter.health.LeadershipHealthIndicator;
import dev.cairn.recordwriter.health.WriteStatesHealthIndicator;
import dev.cairn.recordwriter.health.WriterThreadsHealthIndicator;
import dev.cairn.recordwriter.ingress.GslbFromIngressPlan;
import dev.cairn.recordwriter.ingress.IngressPlan;
import dev.cairn.recordwriter.kafka.StateFeed;
import dev.cairn.recordwriter.kube.AnnotatedIngressStore;
import dev.cairn.recordwriter.kube.CrdSchema;
import dev.cairn.recordwriter.kube.DnsEndpointCache;
import dev.cairn.recordwriter.kube.DnsEndpointMapper;
import dev.cairn.recordwriter.kube.DnsEndpointStore;
import dev.cairn.recordwriter.kube.EventWriter;
import dev.cairn.recordwriter.kube.FieldManagerInterceptor;
import dev.cairn.recordwriter.kube.GslbCache;
import dev.cairn.recordwriter.kube.GslbStore;
import dev.cairn.recordwriter.kube.IngressStore;
import dev.cairn.recordwriter.kube.ObjectCache;
import dev.cairn.recordwriter.kube.ServiceAddresses;
import dev.cairn.recordwriter.kube.WriteRateLimiter;
import dev.cairn.recordwriter.leader.LeaderElection;
import dev.cairn.recordwriter.lifecycle.WriterLifecycle;
import dev.cairn.recordwriter.metrics.GslbHealthMeters;
import dev.cairn.recordwriter.metrics.WriterMetrics;
import dev.cairn.recordwriter.plan.RecordPlan;
import dev.cairn.recordwriter.reconcile.EmbeddedIngressReconciler;
import dev.cairn.recordwriter.reconcile.GslbStatusReconciler;
import dev.cairn.recordwriter.reconcile.GslbStatusReports;
import dev.cairn.recordwriter.reconcile.IngressAnnotationReconciler;
import dev.cairn.recordwriter.reconcile.RecordReconciler;
import dev.cairn.recordwriter.reconcile.RecordReports;
import dev.cairn.recordwriter.reconcile.WriteScheduler;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.jackson.Jackson2JdkTypesModule;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The record-writer's beans: wiring only. */
@Configuration(proxyBeanMethods = false)
public class WriterConfiguration {

  /** The classpath copy of the DNSEndpoint CRD the writer validates against. */
  public static final String CRD_RESOURCE = "crds/dnsendpoints.externaldns.k8s.io.yaml";

  /** The classpath copy of the Gslb CRD whose status schema the writer validates against. */
  public static final String GSLB_CRD_RESOURCE = "crds/k8gb.io_gslbs.yaml";

  @Bean
  Clock writerClock() {
    return Clock.systemUTC();
  }

  @Bean(destroyMethod = "close")
  KubernetesClient writerKubernetesClient(WriterProperties properties) {
    // Credentials and namespace always come from fabric8's auto-configuration (kubeconfig or the
    // pod's service account); writer.kubernetes.master-url only replaces the server URL.
    Config config = Config.autoConfigure(null);
    if (properties.kubernetes().masterUrl() != null) {
      config.setMasterUrl(properties.kubernetes().masterUrl().toString());
    }
    FieldManagerInterceptor fieldManager = new FieldManagerInterceptor(properties.fieldManager());
    return new KubernetesClientBuilder()
        .withConfig(config)
        // fabric8's serialization on Cairn's JSON factory (property names not canonicalized).
        .withKubernetesSerialization(
            new KubernetesSerialization(
                CairnJson.kubernetesMapperBuilder().addModule(new Jackson2JdkTypesModule()).build(),
                true))
        .withHttpClientBuilderConsumer(
            b -> b.addOrReplaceInterceptor(FieldManagerInterceptor.NAME, fieldManager))
        .build();
  }

  @Bean
  NewTopic decisionsTopic(WriterProperties properties) {
    return properties.topics().newTopic(Topics.DECISIONS);
  }

  @Bean
  NewTopic gslbStatusTopic(WriterProperties properties) {
    return properties.topics().newTopic(Topics.GSLB_STATUS);
  }

  @Bean
  WriterMetrics writerMetrics(MeterRegistry registry) {
    return new WriterMetrics(registry);
  }

  @Bean
  RecordPlan recordPlan(WriterProperties properties) {
    return new RecordPlan(properties.gracePeriod());
  }

  @Bean
  CrdSchema dnsEndpointSchema() {
    return CrdSchema.load(CRD_RESOURCE, DnsEndpointStore.CONTEXT.getVersion());
  }

  @Bean
  DnsEndpointMapper dnsEndpointMapper(KubernetesClient client) {
    return new DnsEndpointMapper(client.getKubernetesSerialization());
  }

  @Bean
  DnsEndpointCache dnsEndpointCache() {
    return new DnsEndpointCache();
  }

  @Bean
  WriteRateLimiter writeRateLimiter(WriterProperties properties) {
    return new WriteRateLimiter(
        properties.rateLimit().writesPerSecond(), properties.rateLimit().burst());
  }

  @Bean
  DnsEndpointStore dnsEndpointStore(
      KubernetesClient client,
      DnsEndpointMapper mapper,
      DnsEndpointCache cache,
      CrdSchema schema,
      WriterMetrics metrics) {
    return new DnsEndpointStore(client, mapper, cache, schema, metrics);
  }

  @Bean
  RecordReports recordReports() {
    return new RecordReports();
  }

  @Bean
  GslbCache gslbCache() {
    return new GslbCache();
  }

  @Bean
  GslbStore gslbStore(KubernetesClient client, GslbCache cache, WriterMetrics metrics) {
    return new GslbStore(
        client, cache, CrdSchema.load(GSLB_CRD_RESOURCE, GslbStore.CONTEXT.getVersion()), metrics);
  }

  @Bean
  WriteScheduler writeScheduler(
      WriterProperties properties,
      WriteRateLimiter limiter,
      Clock writerClock,
      WriterMetrics metrics) {
    WriteScheduler scheduler =
        WriteScheduler.of(
            properties.maxConcurrentWrites(),
            properties.statusWriteMaxDelay(),
            limiter::acquire,
            writerClock,
            metrics::writeWait);
    metrics.gauge(
        "cairn.writer.writes.in.flight",
        "DNSEndpoint and Gslb status writes in flight",
        scheduler::inFlight);
    metrics.gauge(
        "cairn.writer.write.queue",
        "Planned writes waiting for their turn",
        "kind",
        "dnsendpoint",
        scheduler::queuedRecordWrites);
    metrics.gauge(
        "cairn.writer.write.queue",
        "Planned writes waiting for their turn",
        "kind",
        "gslb_status",
        scheduler::queuedStatusWrites);
    metrics.gauge(
        "cairn.writer.write.queue",
        "Planned writes waiting for their turn",
        "kind",
        "ingress",
        scheduler::queuedIngressWrites);
    metrics.gauge(
        "cairn.writer.write.queue",
        "Planned writes waiting for their turn",
        "kind",
        "gslb",
        scheduler::queuedGslbWrites);
    return scheduler;
  }

  @Bean
  GslbStatusReports gslbStatusReports() {
    return new GslbStatusReports();
  }

  @Bean(destroyMethod = "close")
  EventWriter eventWriter(
      KubernetesClient client,
      WriterProperties properties,
      WriterMetrics metrics,
      Clock writerClock,
      LeaderElection election) {
    WriterProperties.Events events = properties.events();
    EventWriter writer =
        new EventWriter(
            client,
            new EventWriter.Settings(
                events.enabled(), events.refreshInterval(), election.identity()),
            new WriteRateLimiter(events.writesPerSecond(), events.burst()),
            metrics,
            writerClock,
            election::isLeader);
    metrics.gauge("cairn.writer.events.queued", "Events waiting to be sent", writer::queued);
    return writer;
  }

  @Bean
  LeaderElection leaderElection(KubernetesClient client, WriterProperties properties) {
    WriterProperties.LeaderElection le = properties.leaderElection();
    String namespace = le.namespace();
    if (namespace == null || namespace.isBlank()) {
      namespace = client.getNamespace() == null ? "default" : client.getNamespace();
    }
    String identity = le.identity();
    if (identity == null || identity.isBlank()) {
      identity =
          hostName() + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    }
    return new LeaderElection(
        client,
        new LeaderElection.Settings(
            le.enabled(),
            namespace,
            le.leaseName(),
            identity,
            le.leaseDuration(),
            le.renewDeadline(),
            le.retryPeriod()));
  }

  @Bean
  RecordReconciler recordReconciler(
      RecordPlan plan,
      DnsEndpointStore store,
      DnsEndpointCache cache,
      DnsEndpointMapper mapper,
      RecordReports reports,
      EventWriter events,
      WriterMetrics metrics,
      Clock writerClock,
      LeaderElection election,
      WriterProperties properties,
      WriteScheduler scheduler) {
    RecordReconciler reconciler =
        new RecordReconciler(
            plan,
            store,
            cache,
            mapper,
            reports,
            events::observe,
            metrics,
            writerClock,
            election::isLeader,
            properties.resyncPeriod(),
            scheduler);
    election.addListener(reconciler::onLeadership);
    metrics.gauge(
        "cairn.writer.records.in.grace",
        "DNSEndpoints kept without targets until their grace period ends",
        reconciler::graceTimers);
    metrics.gauge(
        "cairn.writer.leader",
        "1 while this instance holds the lease and writes",
        () -> election.isLeader() ? 1 : 0);
    metrics.gauge("cairn.writer.owned.records", "DNSEndpoints owned by Cairn", cache::ownedCount);
    metrics.gauge(
        "cairn.writer.pending", "DNSEndpoint names waiting to be planned", reconciler::pending);
    return reconciler;
  }

  @Bean
  DelegationPublisher delegationPublisher(
      KubernetesClient client, WriterProperties properties, RecordReconciler reconciler) {
    WriterProperties.Delegation d = properties.delegation();
    if (!d.enabled()) {
      return DelegationPublisher.disabled();
    }
    String own = client.getNamespace() == null ? "default" : client.getNamespace();
    String namespace = d.namespace() == null || d.namespace().isBlank() ? own : d.namespace();
    ServiceAddresses service = null;
    if (d.addresses().isEmpty()) {
      String ref = d.service().strip();
      int slash = ref.indexOf('/');
      service =
          slash < 0
              ? new ServiceAddresses(client, own, ref)
              : new ServiceAddresses(client, ref.substring(0, slash), ref.substring(slash + 1));
    }
    return new DelegationPublisher(
        new DelegationRecords.Spec(
            namespace,
            d.zones(),
            d.gluePrefix(),
            d.geoTag(),
            d.peerGeoTags(),
            d.ttl().getSeconds()),
        d.addresses(),
        service,
        reconciler::onDecision);
  }

  @Bean
  StateFeed<TargetDecision> decisionsFeed(
      KafkaConnectionDetails connection,
      KafkaProperties kafka,
      WriterProperties properties,
      RecordReconciler reconciler,
      LeaderElection election,
      WriterMetrics metrics) {
    StateFeed<TargetDecision> feed =
        stateFeed(
            connection,
            kafka,
            properties,
            "cairn-record-writer-" + election.identity(),
            Topics.DECISIONS,
            reconciler::onDecision,
            reconciler::onDecisionsCaughtUp);
    metrics.gauge(
        "cairn.writer.decisions.caught.up",
        "1 once the decisions topic has been read to its end",
        () -> feed.caughtUp() ? 1 : 0);
    metrics.gauge("cairn.writer.decisions", "Decisions known", feed::size);
    return feed;
  }

  @Bean
  GslbStatusReconciler gslbStatusReconciler(
      GslbStore store,
      GslbCache cache,
      GslbStatusReports reports,
      EventWriter events,
      WriterMetrics metrics,
      Clock writerClock,
      LeaderElection election,
      WriterProperties properties,
      WriteScheduler scheduler) {
    GslbStatusReconciler reconciler =
        new GslbStatusReconciler(
            store,
            cache,
            reports,
            events::observe,
            metrics,
            writerClock,
            election::isLeader,
            properties.resyncPeriod(),
            scheduler);
    election.addListener(reconciler::onLeadership);
    store.addListener(reconciler::onGslbChanged);
    metrics.gauge(
        "cairn.writer.gslb.status.pending",
        "Gslb statuses waiting to be planned",
        reconciler::pending);
    metrics.gauge("cairn.writer.gslbs", "Gslbs seen in the cluster", cache::size);
    return reconciler;
  }

  @Bean
  IngressStore ingressStore(KubernetesClient client, WriterMetrics metrics) {
    return new IngressStore(client, new ObjectCache(), metrics);
  }

  @Bean
  EmbeddedIngressReconciler embeddedIngressReconciler(
      IngressStore store,
      GslbStore gslbStore,
      GslbCache gslbCache,
      EventWriter events,
      WriterMetrics metrics,
      Clock writerClock,
      LeaderElection election,
      WriterProperties properties,
      WriteScheduler scheduler) {
    EmbeddedIngressReconciler reconciler =
        new EmbeddedIngressReconciler(
            store,
            gslbStore,
            gslbCache,
            events::observe,
            writerClock,
            election::isLeader,
            properties.resyncPeriod(),
            scheduler);
    if (properties.embeddedIngress().enabled()) {
      election.addListener(reconciler::onLeadership);
      gslbStore.addListener(reconciler::onGslbChanged);
      metrics.gauge(
          "cairn.writer.ingress.pending",
          "Embedded Ingress names waiting to be planned",
          reconciler::pending);
    }
    return reconciler;
  }

  @Bean
  AnnotatedIngressStore annotatedIngressStore(KubernetesClient client) {
    return new AnnotatedIngressStore(client, new ObjectCache());
  }

  @Bean
  IngressAnnotationReconciler ingressAnnotationReconciler(
      AnnotatedIngressStore store,
      GslbStore gslbStore,
      GslbCache gslbCache,
      EventWriter events,
      WriterMetrics metrics,
      Clock writerClock,
      LeaderElection election,
      WriterProperties properties,
      WriteScheduler scheduler) {
    IngressAnnotationReconciler reconciler =
        new IngressAnnotationReconciler(
            store,
            gslbStore,
            gslbCache,
            events::observe,
            writerClock,
            election::isLeader,
            properties.resyncPeriod(),
            scheduler);
    if (properties.ingressAnnotations().enabled()) {
      election.addListener(reconciler::onLeadership);
      gslbStore.addListener(reconciler::onGslbChanged);
      metrics.gauge(
          "cairn.writer.gslb.from.ingress.pending",
          "Annotated Ingress names waiting to be planned",
          reconciler::pending);
    }
    return reconciler;
  }

  /** k8gb's per-Gslb gauges, exported by the Lease holder (see {@link GslbHealthMeters}). */
  @Bean
  GslbHealthMeters gslbHealthMeters(MeterRegistry registry, LeaderElection election) {
    GslbHealthMeters meters = new GslbHealthMeters(registry);
    election.addListener(meters::onLeadership);
    return meters;
  }

  @Bean
  StateFeed<GslbStatus> gslbStatusFeed(
      KafkaConnectionDetails connection,
      KafkaProperties kafka,
      WriterProperties properties,
      GslbStatusReconciler reconciler,
      GslbHealthMeters healthMeters,
      LeaderElection election,
      WriterMetrics metrics) {
    StateFeed<GslbStatus> feed =
        stateFeed(
            connection,
            kafka,
            properties,
            "cairn-record-writer-status-" + election.identity(),
            Topics.GSLB_STATUS,
            (key, status, eventTime) -> {
              reconciler.onStatus(key, status);
              healthMeters.onStatus(key, status);
            },
            reconciler::onStatusesCaughtUp);
    metrics.gauge(
        "cairn.writer.gslb.status.caught.up",
        "1 once the Gslb status topic has been read to its end",
        () -> feed.caughtUp() ? 1 : 0);
    metrics.gauge("cairn.writer.gslb.statuses", "Desired Gslb statuses known", feed::size);
    return feed;
  }

  /**
   * A feed on one state topic, read with Spring Boot's consumer settings (the bootstrap servers are
   * passed on their own) under its own client id.
   */
  private static <V> StateFeed<V> stateFeed(
      KafkaConnectionDetails connection,
      KafkaProperties kafka,
      WriterProperties properties,
      String clientId,
      TopicSpec<V> topic,
      StateFeed.Changes<V> onChange,
      Runnable onCaughtUp) {
    Map<String, Object> config = new HashMap<>(kafka.buildConsumerProperties());
    config.remove(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    return new StateFeed<>(
        String.join(",", connection.getConsumer().getBootstrapServers()),
        config,
        properties.topics(),
        topic,
        onChange,
        onCaughtUp);
  }

  @Bean
  WriterLifecycle writerLifecycle(
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
      LeaderElection election,
      WriterProperties properties) {
    return new WriterLifecycle(
        store,
        reconciler,
        feed,
        gslbStore,
        statusReconciler,
        statusFeed,
        properties.embeddedIngress().enabled() ? ingressReconciler : null,
        properties.ingressAnnotations().enabled() ? annotationReconciler : null,
        delegation,
        scheduler,
        events,
        election);
  }

  @Bean
  GslbStatusHealthIndicator gslbStatusHealthIndicator(
      StateFeed<GslbStatus> feed, GslbStore store, GslbStatusReports reports) {
    return new GslbStatusHealthIndicator(feed, store, reports);
  }

  @Bean
  DecisionsHealthIndicator decisionsHealthIndicator(StateFeed<TargetDecision> feed) {
    return new DecisionsHealthIndicator(feed);
  }

  @Bean
  WriterThreadsHealthIndicator writerThreadsHealthIndicator(
      RecordReconciler records,
      GslbStatusReconciler statuses,
      EmbeddedIngressReconciler ingresses,
      IngressAnnotationReconciler annotated,
      WriteScheduler scheduler,
      StateFeed<TargetDecision> decisions,
      StateFeed<GslbStatus> statusFeed) {
    return new WriterThreadsHealthIndicator(
        List.of(
            records::failure,
            statuses::failure,
            ingresses::failure,
            annotated::failure,
            scheduler::failure),
        List.of(decisions, statusFeed));
  }

  @Bean
  WriteStatesHealthIndicator<IngressPlan.Action> embeddedIngressHealthIndicator(
      EmbeddedIngressReconciler reconciler, IngressStore store, WriterProperties properties) {
    return new WriteStatesHealthIndicator<>(
        new WriteStatesHealthIndicator.Loop<>(
            properties.embeddedIngress().enabled(),
            IngressPlan.Action.class,
            Set.of(IngressPlan.Action.CONFLICT),
            reconciler::states,
            reconciler::caughtUp,
            store::watching,
            reconciler::pending),
        IngressPlan.Action.NONE.name());
  }

  @Bean
  WriteStatesHealthIndicator<GslbFromIngressPlan.Action> ingressAnnotationsHealthIndicator(
      IngressAnnotationReconciler reconciler,
      AnnotatedIngressStore store,
      WriterProperties properties) {
    return new WriteStatesHealthIndicator<>(
        new WriteStatesHealthIndicator.Loop<>(
            properties.ingressAnnotations().enabled(),
            GslbFromIngressPlan.Action.class,
            Set.of(GslbFromIngressPlan.Action.CONFLICT, GslbFromIngressPlan.Action.INVALID),
            reconciler::states,
            reconciler::caughtUp,
            store::watching,
            reconciler::pending),
        GslbFromIngressPlan.Action.NONE.name());
  }

  @Bean
  LeadershipHealthIndicator leadershipHealthIndicator(LeaderElection election) {
    return new LeadershipHealthIndicator(election);
  }

  @Bean
  DnsEndpointsHealthIndicator dnsEndpointsHealthIndicator(
      WriterLifecycle lifecycle,
      DnsEndpointCache cache,
      RecordReconciler reconciler,
      RecordReports reports) {
    return new DnsEndpointsHealthIndicator(lifecycle, cache, reconciler, reports);
  }

  private static String hostName() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "record-writer";
    }
  }
}
