package dev.cairn.strategyengine.config;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.Topics;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.stream.EngineMeters;
import dev.cairn.strategyengine.stream.EngineMetrics;
import dev.cairn.strategyengine.stream.EngineTopology;
import dev.cairn.strategyengine.stream.GslbReports;
import dev.cairn.strategyengine.stream.InputErrorHandler;
import dev.cairn.strategyengine.stream.InputErrors;
import dev.cairn.strategyengine.stream.OutputErrorHandler;
import dev.cairn.strategyengine.stream.StreamsFailures;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.config.MeterFilter;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.KStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.EnableKafkaStreams;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;
import org.springframework.kafka.core.KafkaAdmin;

/** Wires the decision topology into Spring Kafka's Streams support. */
@Configuration(proxyBeanMethods = false)
@EnableKafkaStreams
class StrategyEngineConfiguration {

  private static final Logger log = LoggerFactory.getLogger(StrategyEngineConfiguration.class);

  /**
   * The consumer's internal switch for the LeaveGroup request on close, which Kafka Streams turns
   * off for its main consumer; the engine turns it on. A stopped engine then leaves its consumer
   * group at once, and the instance taking over (a restart, a rolling update) gets the partitions
   * without waiting {@code session.timeout.ms} (45 s by default) for the old member to expire,
   * during which no decision would be made. The public way, {@code KafkaStreams.close(CloseOptions
   * .leaveGroup(true))} ({@code StreamsBuilderFactoryBean.setLeaveGroupOnClose}, also set), only
   * removes static members in Kafka Streams 4.1 (<a
   * href="https://issues.apache.org/jira/browse/KAFKA-16514">KAFKA-16514</a>; KIP-1153's {@code
   * CloseOptions.GroupMembershipOperation.LEAVE_GROUP} fixes it in 4.2, which also drops this
   * switch). {@code LeaveGroupOnCloseIT} checks the effect.
   */
  static final String LEAVE_GROUP_ON_CLOSE = "internal.leave.group.on.close";

  /** One set of tag keys for the state stores' meters, whatever the store type. */
  @Bean
  MeterFilter stateStoreMeterTags() {
    return new StateStoreMeterTags();
  }

  @Bean
  EngineMetrics engineMetrics(MeterRegistry registry, StrategyEngineProperties properties) {
    TopicSettings topics = properties.topics();
    return new EngineMeters(
        registry,
        java.util.stream.Stream.of(
                Topics.ROUTES,
                Topics.SERVICES,
                Topics.ENDPOINTS,
                Topics.NODES,
                Topics.GSLBS,
                Topics.SYNC,
                Topics.PEER_ANSWERS,
                Topics.HOSTNAME_RESOLUTIONS)
            .map(topics::name)
            .toList());
  }

  /**
   * {@code cairn.engine.streams.running}: 1 while Kafka Streams is RUNNING, else 0 (starting,
   * rebalancing, stopped on a newer schema version or a failure). Kafka Streams' own meters go away
   * with a stopped client, so an alert on them would never see it stop; this gauge stays.
   */
  @Bean
  MeterBinder streamsRunningGauge(StreamsBuilderFactoryBean factory) {
    return registry ->
        Gauge.builder(
                "cairn.engine.streams.running",
                factory,
                f -> {
                  KafkaStreams streams = f.getKafkaStreams();
                  return streams != null && streams.state() == KafkaStreams.State.RUNNING ? 1 : 0;
                })
            .description("1 while Kafka Streams is RUNNING, else 0")
            .register(registry);
  }

  @Bean
  InputErrors inputErrors(EngineMetrics metrics) {
    return new InputErrors(metrics);
  }

  @Bean
  StreamsFailures streamsFailures(InputErrors inputErrors, ApplicationEventPublisher events) {
    return new StreamsFailures(
        inputErrors,
        () -> AvailabilityChangeEvent.publish(events, StreamsFailures.class, LivenessState.BROKEN));
  }

  /**
   * The Streams configuration: Spring Boot's {@code spring.kafka.*} client settings, then the
   * engine's own (application id, state directory, latency settings, error handling).
   */
  @Bean(name = KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_CONFIG_BEAN_NAME)
  KafkaStreamsConfiguration defaultKafkaStreamsConfig(
      KafkaProperties kafka,
      KafkaConnectionDetails connection,
      StrategyEngineProperties properties,
      InputErrors inputErrors) {
    Map<String, Object> config = new HashMap<>(kafka.buildStreamsProperties());
    KafkaConnectionDetails.Configuration streams = connection.getStreams();
    config.put(
        StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", streams.getBootstrapServers()));
    if (streams.getSecurityProtocol() != null) {
      config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, streams.getSecurityProtocol());
    }
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, properties.applicationId());
    config.put(StreamsConfig.STATE_DIR_CONFIG, properties.stateDir().toString());
    config.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, properties.commitInterval().toMillis());
    config.put(StreamsConfig.POLL_MS_CONFIG, properties.pollInterval().toMillis());
    config.put(
        StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG),
        (int) properties.producerLinger().toMillis());
    config.put(
        StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG),
        (int) properties.producerBatchSize().toBytes());
    config.put(
        StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, properties.statestoreCacheMaxBytes());
    config.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, properties.streamThreads());
    config.put(
        StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) properties.topics().replicationFactor());
    config.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    config.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, InputErrorHandler.class);
    config.put(InputErrorHandler.INPUT_ERRORS_CONFIG, inputErrors);
    config.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, OutputErrorHandler.class);
    config.put(StreamsConfig.mainConsumerPrefix(LEAVE_GROUP_ON_CLOSE), true);
    return new KafkaStreamsConfiguration(config);
  }

  /**
   * Streams failures go to {@link StreamsFailures}; on close the engine leaves its consumer group
   * ({@link #LEAVE_GROUP_ON_CLOSE} explains why both settings are needed).
   */
  @Bean
  StreamsBuilderFactoryBeanConfigurer engineStreamsConfigurer(StreamsFailures failures) {
    return factory -> {
      factory.setStreamsUncaughtExceptionHandler(failures);
      factory.setLeaveGroupOnClose(true);
    };
  }

  @Bean
  EngineTopology engineTopology(StrategyEngineProperties properties, EngineMetrics metrics) {
    GslbSettings gslb = properties.gslbSettings();
    if (gslb.geoTag() == null) {
      log.atWarn()
          .log(
              "engine.gslb.geo-tag is not set: Gslbs are reported in their status and not decided");
    }
    return new EngineTopology(
        properties.topics(),
        properties.placementSettings(),
        gslb,
        metrics,
        properties.resolutionExpiryCheckInterval(),
        properties.gslb().punctuateInterval(),
        properties.stateStoreType(),
        properties.catchUpSettings(),
        (int) properties.maxOutputSize().toBytes());
  }

  /** The Gslb reports of the explain API, kept by the topology's tasks. */
  @Bean
  GslbReports gslbReports(EngineTopology topology) {
    return topology.reports();
  }

  @Bean
  KStream<String, ?> decisionStream(StreamsBuilder builder, EngineTopology topology) {
    return topology.build(builder);
  }

  /** The clock of the explain API (ages of peer answers); the decisions use the task's clock. */
  @Bean
  Clock engineClock() {
    return Clock.systemUTC();
  }

  /** The topics the engine reads and writes, created when missing so Streams can start. */
  @Bean
  KafkaAdmin.NewTopics engineTopics(StrategyEngineProperties properties) {
    TopicSettings topics = properties.topics();
    return new KafkaAdmin.NewTopics(
        topics.newTopic(Topics.ROUTES),
        topics.newTopic(Topics.SERVICES),
        topics.newTopic(Topics.ENDPOINTS),
        topics.newTopic(Topics.NODES),
        topics.newTopic(Topics.GSLBS),
        topics.newTopic(Topics.SYNC),
        topics.newTopic(Topics.PEER_ANSWERS),
        topics.newTopic(Topics.HOSTNAME_RESOLUTIONS),
        topics.newTopic(Topics.DECISIONS),
        topics.newTopic(Topics.GSLB_STATUS));
  }
}
