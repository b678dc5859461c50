package dev.cairn.topologywatcher.config;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.kafka.NamespacePartitioner;
import dev.cairn.topologywatcher.health.ProblemLog;
import dev.cairn.topologywatcher.health.WatcherHealthIndicator;
import dev.cairn.topologywatcher.health.WatcherMetrics;
import dev.cairn.topologywatcher.kafka.StatePublisher;
import dev.cairn.topologywatcher.kafka.TopicSnapshotReader;
import dev.cairn.topologywatcher.kube.KubeWatcher;
import dev.cairn.topologywatcher.kube.LeaseElection;
import dev.cairn.topologywatcher.kube.WatchScope;
import dev.cairn.topologywatcher.kube.WatcherSerialization;
import dev.cairn.topologywatcher.lifecycle.WatcherLifecycle;
import dev.cairn.topologywatcher.lifecycle.WatcherStatus;
import dev.cairn.topologywatcher.state.TopologyView;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/** Wires the watcher: Kubernetes client, Kafka producer and topics, informers, publisher. */
@Configuration(proxyBeanMethods = false)
class WatcherConfiguration {

  /** Pause before a failed step (send, read-back) is tried again. */
  static final Duration RETRY_BACKOFF = Duration.ofSeconds(2);

  @Bean
  Clock watcherClock() {
    return Clock.systemUTC();
  }

  @Bean(destroyMethod = "close")
  KubernetesClient kubernetesClient(WatcherProperties properties) {
    Config config = Config.autoConfigure(null);
    if (properties.kubernetes().masterUrl() != null) {
      config.setMasterUrl(properties.kubernetes().masterUrl().toString());
    }
    return new KubernetesClientBuilder()
        .withConfig(config)
        // fabric8's serialization on Cairn's JSON factory (property names not canonicalized).
        .withKubernetesSerialization(WatcherSerialization.create())
        .build();
  }

  @Bean
  TopologyView topologyView() {
    TopologyView view = new TopologyView();
    view.addListener(new ProblemLog());
    return view;
  }

  @Bean
  WatcherMetrics watcherMetrics(MeterRegistry registry, TopologyView view, Clock watcherClock) {
    return new WatcherMetrics(registry, view, watcherClock);
  }

  /**
   * String keys, {@link CairnSerializer} values, {@link NamespacePartitioner}; acks from all
   * replicas and the idempotent producer, so records of a key are never reordered or duplicated by
   * retries; a 5 ms {@code linger.ms} unless the {@code spring.kafka.producer} settings set one.
   * Other settings come from {@code spring.kafka.*} (Kafka's 16 KB {@code batch.size}: 256 KB did
   * not shorten the initial publish of 35,000 records, docs/benchmarks.md).
   */
  @Bean
  ProducerFactory<String, Object> topologyProducerFactory(KafkaProperties kafka) {
    Map<String, Object> config = new HashMap<>(kafka.buildProducerProperties());
    config.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NamespacePartitioner.class);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
    return new DefaultKafkaProducerFactory<>(
        config, new StringSerializer(), new CairnSerializer<>());
  }

  @Bean
  KafkaTemplate<String, Object> topologyKafkaTemplate(
      ProducerFactory<String, Object> topologyProducerFactory) {
    return new KafkaTemplate<>(topologyProducerFactory);
  }

  @Bean
  NewTopic routesTopic(WatcherProperties properties) {
    return properties.topics().newTopic(Topics.ROUTES);
  }

  @Bean
  NewTopic servicesTopic(WatcherProperties properties) {
    return properties.topics().newTopic(Topics.SERVICES);
  }

  @Bean
  NewTopic endpointsTopic(WatcherProperties properties) {
    return properties.topics().newTopic(Topics.ENDPOINTS);
  }

  @Bean
  NewTopic nodesTopic(WatcherProperties properties) {
    return properties.topics().newTopic(Topics.NODES);
  }

  @Bean
  NewTopic gslbsTopic(WatcherProperties properties) {
    return properties.topics().newTopic(Topics.GSLBS);
  }

  @Bean
  NewTopic syncTopic(WatcherProperties properties) {
    return properties.topics().newTopic(Topics.SYNC);
  }

  @Bean(destroyMethod = "")
  StatePublisher statePublisher(
      KafkaTemplate<String, Object> topologyKafkaTemplate,
      WatcherProperties properties,
      TopologyView view,
      WatcherMetrics metrics) {
    StatePublisher publisher =
        new StatePublisher(
            topologyKafkaTemplate, properties.topics(), view, metrics, RETRY_BACKOFF);
    view.addListener((entity, key, previous, current) -> publisher.changed(entity, key));
    return publisher;
  }

  @Bean
  TopicSnapshotReader topicSnapshotReader(KafkaProperties kafka, WatcherProperties properties) {
    Map<String, Object> consumer = new HashMap<>(kafka.buildConsumerProperties());
    Object servers = consumer.remove(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
    for (String owned :
        List.of(
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ConsumerConfig.GROUP_ID_CONFIG,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            ConsumerConfig.CLIENT_ID_CONFIG)) {
      consumer.remove(owned);
    }
    String bootstrap =
        servers instanceof Collection<?> list
            ? String.join(",", list.stream().map(String::valueOf).toList())
            : String.valueOf(servers);
    return new TopicSnapshotReader(bootstrap, consumer, properties.topics());
  }

  @Bean(destroyMethod = "")
  KubeWatcher kubeWatcher(
      KubernetesClient client,
      TopologyView view,
      WatcherProperties properties,
      WatcherMetrics metrics,
      Clock watcherClock) {
    return new KubeWatcher(
        client,
        view,
        new WatchScope(properties.namespaces(), properties.labelSelector()),
        properties.resyncPeriod(),
        properties.crdPollInterval(),
        metrics,
        watcherClock);
  }

  @Bean
  WatcherStatus watcherStatus(WatcherProperties properties) {
    WatcherProperties.LeaderElection election = properties.leaderElection();
    String identity = election.identity() != null ? election.identity() : defaultIdentity();
    return new WatcherStatus(identity, election.enabled());
  }

  @Bean
  WatcherLifecycle watcherLifecycle(
      KubeWatcher kube,
      StatePublisher publisher,
      TopicSnapshotReader reader,
      TopologyView view,
      WatcherStatus status,
      WatcherMetrics metrics,
      Clock watcherClock,
      KubernetesClient client,
      KafkaAdmin kafkaAdmin,
      WatcherProperties properties) {
    WatcherProperties.LeaderElection election = properties.leaderElection();
    return new WatcherLifecycle(
        kube,
        publisher,
        reader,
        view,
        status,
        metrics,
        watcherClock,
        RETRY_BACKOFF,
        kafkaAdmin::initialize,
        election.enabled()
            ? listener ->
                new LeaseElection(
                    client,
                    leaseNamespace(client, election),
                    election.leaseName(),
                    status.identity(),
                    election.leaseDuration(),
                    election.renewDeadline(),
                    election.retryPeriod(),
                    listener)
            : null);
  }

  @Bean
  WatcherHealthIndicator topologyWatcherHealthIndicator(
      WatcherStatus status,
      KubeWatcher kube,
      KubernetesClient client,
      WatcherProperties properties) {
    WatcherProperties.LeaderElection election = properties.leaderElection();
    return new WatcherHealthIndicator(
        status,
        kube,
        properties.clusterName(),
        "Lease " + leaseNamespace(client, election) + "/" + election.leaseName());
  }

  /** The configured namespace, else the pod's (fabric8 reads it in-cluster), else default. */
  static String leaseNamespace(KubernetesClient client, WatcherProperties.LeaderElection election) {
    if (election.namespace() != null) {
      return election.namespace();
    }
    String own = client.getConfiguration().getNamespace();
    return own == null || own.isBlank() ? "default" : own;
  }

  /** {@code <hostname>-<8 hex>}: the pod name in a cluster, unique even for replicas in one JVM. */
  static String defaultIdentity() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = "topology-watcher";
      }
    }
    return host + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
  }
}
