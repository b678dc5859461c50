package dev.cairn.strategyengine.config;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.stream.EngineMeters;
import dev.cairn.strategyengine.stream.EngineMetrics;
import dev.cairn.strategyengine.stream.EngineTopology;
import dev.cairn.strategyengine.stream.InputErrorHandler;
import dev.cairn.strategyengine.stream.InputErrors;
import dev.cairn.strategyengine.stream.StreamsFailures;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
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
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;
import org.springframework.kafka.core.KafkaAdmin;

/** Wires the decision topology into Spring Kafka's Streams support. */
@Configuration(proxyBeanMethods = false)
@EnableKafkaStreams
class StrategyEngineConfiguration {

  private static final Logger log = LoggerFactory.getLogger(StrategyEngineConfiguration.class);

  @Bean
  EngineMetrics engineMetrics(MeterRegistry registry) {
    return new EngineMeters(registry);
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
    config.put(
        StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG),
        (int) properties.producerLinger().toMillis());
    config.put(
        StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, properties.statestoreCacheMaxBytes());
    config.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, properties.streamThreads());
    config.put(
        StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) properties.topics().replicationFactor());
    config.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    config.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, InputErrorHandler.class);
    config.put(InputErrorHandler.INPUT_ERRORS_CONFIG, inputErrors);
    return new KafkaStreamsConfiguration(config);
  }

  @Bean
  StreamsBuilderFactoryBeanConfigurer engineStreamsConfigurer(StreamsFailures failures) {
    return factory -> factory.setStreamsUncaughtExceptionHandler(failures);
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
        properties.stateStoreType());
  }

  @Bean
  KStream<String, TargetDecision> decisionStream(StreamsBuilder builder, EngineTopology topology) {
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
