package dev.cairn.healthprober.config;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.healthprober.discovery.PeerDirectory;
import dev.cairn.healthprober.discovery.PeerDiscovery;
import dev.cairn.healthprober.dns.DnsClient;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.health.ProberHealthIndicator;
import dev.cairn.healthprober.health.ProberThreadsHealthIndicator;
import dev.cairn.healthprober.kafka.Outbox;
import dev.cairn.healthprober.kafka.OutboxPublisher;
import dev.cairn.healthprober.kafka.TopologyInputs;
import dev.cairn.healthprober.resolver.HostnameResolver;
import dev.cairn.healthprober.schedule.ProbeMetrics;
import dev.cairn.healthprober.schedule.ProbeScheduler;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.micrometer.tagged.TaggedBulkheadMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/** Wires the prober: the DNS client, discovery, probing, resolution, Kafka in and out, health. */
@Configuration(proxyBeanMethods = false)
class ProberConfiguration {

  @Bean
  @ConfigurationPropertiesBinding
  static ServerAddressConverter serverAddressConverter() {
    return new ServerAddressConverter();
  }

  @Bean
  Clock proberClock() {
    return Clock.systemUTC();
  }

  @Bean
  KafkaAdmin.NewTopics proberTopics(ProberProperties props) {
    TopicSettings t = props.topics();
    return new KafkaAdmin.NewTopics(
        t.newTopic(Topics.PEER_ANSWERS),
        t.newTopic(Topics.HOSTNAME_RESOLUTIONS),
        t.newTopic(Topics.GSLBS),
        t.newTopic(Topics.ROUTES),
        t.newTopic(Topics.SERVICES),
        t.newTopic(Topics.NODES));
  }

  /**
   * String keys, {@link CairnSerializer} values; other settings from {@code spring.kafka.*}, with
   * batches of up to 256 KB unless {@code spring.kafka.producer.batch-size} says otherwise: a peer
   * that stops answering changes the answers of all its hosts at once, and Kafka's 16 KB batches
   * (about forty answers) would send a 10k-host failover in hundreds of requests.
   */
  @Bean
  ProducerFactory<String, Object> proberProducerFactory(KafkaProperties kafka) {
    Map<String, Object> config = new HashMap<>(kafka.buildProducerProperties());
    config.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    return new DefaultKafkaProducerFactory<>(
        config, new StringSerializer(), new CairnSerializer<>());
  }

  @Bean
  KafkaTemplate<String, Object> proberKafkaTemplate(ProducerFactory<String, Object> factory) {
    return new KafkaTemplate<>(factory);
  }

  @Bean(destroyMethod = "close")
  DnsClient dnsClient(ProberProperties props, MeterRegistry meters) throws IOException {
    DnsClient client =
        new DnsClient(new DnsClient.Settings(props.sockets(), props.ednsPayloadSize(), 2));
    counter(meters, "cairn.prober.queries", "DNS queries sent over UDP", client, DnsClient::sent);
    counter(meters, "cairn.prober.replies", "DNS replies accepted", client, DnsClient::answered);
    counter(
        meters,
        "cairn.prober.replies.malformed",
        "packets from a server with a query's ID that could not be parsed",
        client,
        DnsClient::malformed);
    counter(
        meters,
        "cairn.prober.replies.mismatched",
        "replies with a query's ID but another question",
        client,
        DnsClient::mismatched);
    counter(
        meters,
        "cairn.prober.replies.unmatched",
        "packets matching no query in flight (late or foreign)",
        client,
        DnsClient::unmatched);
    counter(
        meters,
        "cairn.prober.queries.timeouts",
        "queries without a reply",
        client,
        DnsClient::timeouts);
    counter(
        meters,
        "cairn.prober.queries.truncated",
        "truncated replies retried over TCP",
        client,
        DnsClient::truncated);
    counter(
        meters,
        "cairn.prober.queries.send.errors",
        "sends that failed locally",
        client,
        DnsClient::sendErrors);
    Gauge.builder("cairn.prober.queries.in.flight", client, DnsClient::inFlight).register(meters);
    return client;
  }

  private static void counter(
      MeterRegistry meters,
      String name,
      String description,
      DnsClient client,
      ToDoubleFunction<DnsClient> f) {
    FunctionCounter.builder(name, client, f).description(description).register(meters);
  }

  @Bean
  DnsLookup dnsLookup(DnsClient client, ProberProperties props) {
    return new DnsLookup(client, props.maxRecords());
  }

  @Bean
  TopologyInputs topologyInputs(KafkaProperties kafka, ProberProperties props) {
    Map<String, Object> consumer = kafka.buildConsumerProperties();
    return new TopologyInputs(
        String.join(",", kafka.getBootstrapServers()), consumer, props.topics());
  }

  @Bean
  Outbox outbox(MeterRegistry meters) {
    Outbox outbox = new Outbox();
    Gauge.builder("cairn.prober.publish.backlog", outbox, Outbox::size)
        .description("records waiting to be published")
        .register(meters);
    return outbox;
  }

  @Bean
  OutboxPublisher outboxPublisher(
      Outbox outbox, KafkaTemplate<String, Object> template, MeterRegistry meters) {
    return new OutboxPublisher(outbox, template, meters);
  }

  @Bean
  PeerDirectory peerDirectory(ProberProperties props, DnsLookup lookup, Clock clock) {
    ProberProperties.Delegation d = props.delegation();
    PeerDiscovery discovery =
        d.enabled()
            ? new PeerDiscovery(
                lookup,
                d.zones(),
                d.gluePrefix(),
                d.geoTags(),
                d.edgeServers(),
                d.peerPort(),
                props.geoTag(),
                props.queryTimeout(),
                props.queryAttempts())
            : null;
    return new PeerDirectory(props.staticPeers(), discovery, props.geoTag(), clock);
  }

  @Bean
  CircuitBreakerRegistry proberCircuitBreakers(MeterRegistry meters) {
    CircuitBreakerRegistry registry = CircuitBreakerRegistry.ofDefaults();
    TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(registry).bindTo(meters);
    return registry;
  }

  @Bean
  BulkheadRegistry proberBulkheads(MeterRegistry meters) {
    BulkheadRegistry registry = BulkheadRegistry.ofDefaults();
    TaggedBulkheadMetrics.ofBulkheadRegistry(registry).bindTo(meters);
    return registry;
  }

  /** The per-peer circuit breaker: failures are probes that timed out or failed. */
  static CircuitBreakerConfig circuitBreakerConfig(ProberProperties.CircuitBreaker cb) {
    return CircuitBreakerConfig.custom()
        .slidingWindow(
            cb.slidingWindowSize(),
            cb.minimumNumberOfCalls(),
            CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
        .failureRateThreshold(cb.failureRateThreshold())
        .permittedNumberOfCallsInHalfOpenState(cb.permittedCallsInHalfOpenState())
        .waitIntervalFunctionInOpenState(
            IntervalFunction.ofExponentialRandomBackoff(
                cb.waitInOpenState(),
                cb.backoffMultiplier(),
                cb.randomizationFactor(),
                cb.maxWaitInOpenState()))
        .writableStackTraceEnabled(false)
        .build();
  }

  /** The per-peer bulkhead: at most this many host probes in flight, never waiting for a slot. */
  static BulkheadConfig bulkheadConfig(int maxInFlight) {
    return BulkheadConfig.custom()
        .maxConcurrentCalls(maxInFlight)
        .maxWaitDuration(Duration.ZERO)
        .writableStackTraceEnabled(false)
        .build();
  }

  @Bean(destroyMethod = "close")
  ProbeScheduler probeScheduler(
      ProberProperties props,
      TopologyInputs inputs,
      PeerDirectory directory,
      DnsLookup lookup,
      Outbox outbox,
      CircuitBreakerRegistry proberCircuitBreakers,
      BulkheadRegistry proberBulkheads,
      MeterRegistry meters,
      Clock clock) {
    ProbeScheduler scheduler =
        new ProbeScheduler(
            new ProbeScheduler.Settings(
                props.interval(),
                props.queryTimeout(),
                props.queryAttempts(),
                props.peerRefreshInterval(),
                props.delegation().zones(),
                props.defaultSplitBrainThreshold(),
                circuitBreakerConfig(props.circuitBreaker()),
                bulkheadConfig(props.maxInFlightPerPeer()),
                props.livenessInterval(),
                props.sweepSpreadDuration()),
            inputs,
            directory,
            lookup,
            outbox,
            props.topics().name(Topics.PEER_ANSWERS),
            proberCircuitBreakers,
            proberBulkheads,
            new ProbeMetrics(meters),
            clock);
    Gauge.builder("cairn.prober.hosts", scheduler, s -> s.plan().hosts().size())
        .description("hosts probed at every peer")
        .register(meters);
    Gauge.builder("cairn.prober.hosts.not.probed", scheduler, s -> s.plan().findings().size())
        .description("Gslb hosts that cannot be probed (see health for why)")
        .register(meters);
    Gauge.builder("cairn.prober.peers", directory, d -> d.current().size())
        .description("peers known")
        .register(meters);
    return scheduler;
  }

  @Bean(destroyMethod = "close")
  HostnameResolver hostnameResolver(
      ProberProperties props,
      TopologyInputs inputs,
      DnsLookup lookup,
      Outbox outbox,
      MeterRegistry meters,
      Clock clock) {
    HostnameResolver resolver =
        new HostnameResolver(
            new HostnameResolver.Settings(
                props.resolveTargetHostnames(),
                props.resolveLoadBalancerHostnames(),
                props.defaultResolver(),
                props.resolution().policy(),
                props.queryTimeout(),
                props.queryAttempts(),
                Duration.ofSeconds(1)),
            inputs,
            lookup,
            outbox,
            props.topics().name(Topics.HOSTNAME_RESOLUTIONS),
            clock);
    Gauge.builder("cairn.prober.hostname.resolutions", resolver, r -> r.plan().keys().size())
        .description("(resolver, hostname) pairs resolved")
        .register(meters);
    return resolver;
  }

  @Bean
  ProberHealthIndicator proberHealthIndicator(
      TopologyInputs inputs,
      PeerDirectory directory,
      ProbeScheduler scheduler,
      HostnameResolver resolver,
      DnsClient client,
      Outbox outbox,
      OutboxPublisher publisher) {
    return new ProberHealthIndicator(
        inputs, directory, scheduler, resolver, client, outbox, publisher);
  }

  @Bean
  ProberThreadsHealthIndicator proberThreadsHealthIndicator(
      DnsClient client, OutboxPublisher publisher, TopologyInputs inputs) {
    return new ProberThreadsHealthIndicator(client, publisher, inputs);
  }

  @Bean
  ProberRuntime proberRuntime(
      TopologyInputs inputs,
      OutboxPublisher publisher,
      ProbeScheduler scheduler,
      HostnameResolver resolver) {
    return new ProberRuntime(inputs, publisher, scheduler, resolver);
  }
}
