package dev.cairn.dnsresponder.config;

import dev.cairn.commonmodel.codec.CairnJson;
import dev.cairn.dnsresponder.answer.GeoLocator;
import dev.cairn.dnsresponder.answer.QueryAnswerer;
import dev.cairn.dnsresponder.answer.TargetSelector;
import dev.cairn.dnsresponder.geo.MaxMindGeoLocator;
import dev.cairn.dnsresponder.kube.DnsEndpointSource;
import dev.cairn.dnsresponder.metrics.ResponderMetrics;
import dev.cairn.dnsresponder.server.DnsServer;
import dev.cairn.dnsresponder.server.QueryProcessor;
import dev.cairn.dnsresponder.server.ResponseRateLimiter;
import dev.cairn.dnsresponder.store.SnapshotFile;
import dev.cairn.dnsresponder.store.ZoneCache;
import dev.cairn.dnsresponder.zone.SnapshotBuilder;
import dev.cairn.dnsresponder.zone.ZoneSpec;
import dev.cairn.dnsresponder.zone.Zones;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.jackson.Jackson2JdkTypesModule;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the responder: the Kubernetes source, the zone cache, the answer logic, the listener. */
@Configuration(proxyBeanMethods = false)
class ResponderConfiguration {

  /** The most client prefixes response rate limiting tracks before forgetting idle ones. */
  private static final int RATE_LIMIT_TABLE = 100_000;

  @Bean
  Clock responderClock() {
    return Clock.systemUTC();
  }

  @Bean(destroyMethod = "close")
  KubernetesClient responderKubernetesClient(ResponderProperties properties) {
    if (properties.kubernetes().masterUrl() == null) {
      return new KubernetesClientBuilder().withKubernetesSerialization(serialization()).build();
    }
    // Credentials and namespace come from fabric8's auto-configuration; the property only
    // replaces the server URL.
    Config config = Config.autoConfigure(null);
    config.setMasterUrl(properties.kubernetes().masterUrl().toString());
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withKubernetesSerialization(serialization())
        .build();
  }

  /** fabric8's serialization on Cairn's JSON factory (property names not canonicalized). */
  private static KubernetesSerialization serialization() {
    return new KubernetesSerialization(
        CairnJson.kubernetesMapperBuilder().addModule(new Jackson2JdkTypesModule()).build(), true);
  }

  @Bean
  Zones responderZones(ResponderProperties properties) {
    List<ZoneSpec> specs = new ArrayList<>();
    for (ResponderProperties.Zone zone : properties.zones()) {
      specs.add(zoneSpec(zone));
    }
    return new Zones(specs);
  }

  /** A configured zone as the core sees it: names normalised, relative names made absolute. */
  static ZoneSpec zoneSpec(ResponderProperties.Zone zone) {
    String name = absolute(zone.name(), "");
    List<ZoneSpec.NameServer> servers = new ArrayList<>();
    for (ResponderProperties.NameServer ns : zone.ns()) {
      servers.add(new ZoneSpec.NameServer(absolute(ns.name(), ""), ns.addresses()));
    }
    if (servers.isEmpty()) {
      servers.add(new ZoneSpec.NameServer("ns1." + name, List.of()));
    }
    String hostmaster =
        zone.hostmaster().contains(".")
            ? absolute(zone.hostmaster(), "")
            : zone.hostmaster() + "." + name;
    return new ZoneSpec(
        name,
        servers,
        hostmaster,
        zone.refresh().toSeconds(),
        zone.retry().toSeconds(),
        zone.expire().toSeconds(),
        zone.negativeTtl().toSeconds(),
        zone.nsTtl().toSeconds());
  }

  private static String absolute(String name, String suffix) {
    String n = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    return (suffix.isEmpty() ? n : n + "." + suffix).toLowerCase(java.util.Locale.ROOT);
  }

  @Bean
  ResponderMetrics responderMetrics(MeterRegistry registry) {
    return new ResponderMetrics(registry);
  }

  @Bean
  DnsEndpointSource dnsEndpointSource(KubernetesClient client, ResponderProperties properties) {
    return new DnsEndpointSource(client, properties.labelSelector());
  }

  @Bean(initMethod = "start", destroyMethod = "close")
  ZoneCache zoneCache(
      Zones zones,
      DnsEndpointSource source,
      ResponderProperties properties,
      Clock clock,
      ResponderMetrics metrics) {
    return new ZoneCache(
        zones,
        new SnapshotBuilder.Limits(properties.defaultTtl().toSeconds(), properties.maxRecords()),
        source,
        properties.snapshotFile() == null ? null : new SnapshotFile(properties.snapshotFile()),
        new ZoneCache.Settings(
            properties.debounce(),
            properties.snapshotGrace(),
            properties.snapshotWriteInterval(),
            properties.snapshotMaxAge(),
            properties.clusterId()),
        clock,
        metrics);
  }

  @Bean
  GeoLocator geoLocator(ResponderProperties properties) {
    if (properties.geoip().database() == null) {
      return GeoLocator.NONE;
    }
    return new MaxMindGeoLocator(
        properties.geoip().database(), properties.geoip().reloadInterval());
  }

  @Bean
  QueryAnswerer queryAnswerer(GeoLocator geo, ResponderProperties properties) {
    // Thread-safe: every call draws from the calling thread's generator.
    RandomGenerator random = () -> ThreadLocalRandom.current().nextLong();
    TargetSelector selector =
        new TargetSelector(
            random,
            geo,
            properties.geoip().field(),
            properties.weightedAnswer(),
            properties.maxAnswerRecords());
    return new QueryAnswerer(selector, properties.ednsUdpSize(), properties.maxAnswerRecords());
  }

  @Bean(initMethod = "start", destroyMethod = "close")
  DnsServer dnsServer(
      ZoneCache cache,
      QueryAnswerer answerer,
      ResponderMetrics metrics,
      ResponderProperties properties) {
    ResponseRateLimiter limiter =
        properties.rateLimit() > 0
            ? new ResponseRateLimiter(
                properties.rateLimit(), properties.rateLimitSlip(), RATE_LIMIT_TABLE)
            : null;
    QueryProcessor processor = new QueryProcessor(cache::view, answerer, limiter, metrics);
    return new DnsServer(
        new DnsServer.Settings(
            properties.listenAddress(),
            properties.port(),
            properties.workers(),
            properties.tcpIdleTimeout(),
            properties.tcpMaxConnections()),
        processor);
  }
}
