package dev.cairn.helm;

import static dev.cairn.helm.RenderedChart.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.dnsresponder.config.ResponderProperties;
import dev.cairn.healthprober.config.ProberProperties;
import dev.cairn.recordwriter.config.WriterProperties;
import dev.cairn.strategyengine.config.StrategyEngineProperties;
import dev.cairn.topologywatcher.config.WatcherProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Each service's rendered {@code <service>.yaml}, loaded the way the pod loads it (the packaged
 * file of the service, then {@code /etc/cairn/} through {@code spring.config.additional-location},
 * as the Deployment's environment says) and bound by the service's own properties record, whose
 * constructor checks every value. So a property the chart misspells, or a value a service would
 * refuse at start, fails here.
 */
class RenderedSettingsTest {

  @TempDir Path etcCairn;

  private ConfigurableEnvironment load(RenderedChart chart, String service) throws IOException {
    Files.writeString(etcCairn.resolve(service + ".yaml"), chart.settingsText(service));
    return ServiceConfigLoader.load(
        service, Map.of("SPRING_CONFIG_ADDITIONALLOCATION", "optional:file:" + etcCairn + "/"));
  }

  private static Binder proberBinder(ConfigurableEnvironment env) {
    return ServiceConfigLoader.proberBinder(env);
  }

  private static Map<String, Object> globals() {
    Map<String, Object> values = RenderedChart.minimalValues();
    values.put("global.dnsZones[0].parentZone", "example.com");
    values.put("global.dnsZones[0].dnsZoneNegTTL", 300);
    values.put("global.dnsZones[1].loadBalancedZone", "cloud.example.org");
    values.put("global.dnsZones[1].parentZone", "example.org");
    values.put("global.peers[0].geoTag", "us");
    values.put("global.peers[0].servers[0]", "198.51.100.53");
    values.put("global.peers[0].servers[1]", "[2001:db8::53]:5353");
    values.put("global.edgeDNSServers[0]", "192.0.2.53");
    values.put("global.dnsResolver", "10.0.0.2");
    values.put("global.extGslbsClusterGeoTags[0]", "us");
    values.put("global.clusterExposedIPs[0]", "203.0.113.10");
    values.put("global.clusterExposedIPs[1]", "2001:db8::10");
    values.put("global.topics.prefix", "eu.");
    values.put("global.topics.partitions", 3);
    values.put("global.topics.replicationFactor", 3);
    values.put("global.kafka.bootstrapServers", "kafka:9092");
    return values;
  }

  @Test
  void theWatcherReadsWhatTheChartWrites() throws IOException {
    ConfigurableEnvironment env = load(render(globals()), "topology-watcher");

    WatcherProperties p =
        ServiceConfigLoader.binder(env).bind("watcher", WatcherProperties.class).get();
    assertThat(p.clusterName()).isEqualTo("eu");
    assertThat(p.topics().prefix()).isEqualTo("eu.");
    assertThat(p.topics().partitions()).isEqualTo(3);
    assertThat(p.topics().replicationFactor()).isEqualTo((short) 3);
    assertThat(env.getProperty("spring.kafka.bootstrap-servers")).isEqualTo("kafka:9092");
    assertThat(env.getProperty("spring.application.name"))
        .as("the packaged file is still read")
        .isEqualTo("topology-watcher");
    assertThat(env.getProperty("server.port")).isEqualTo("8080");
  }

  @Test
  void theProberReadsTheGeoTagPeersAndDelegation() throws IOException {
    ConfigurableEnvironment env = load(render(globals()), "health-prober");

    ProberProperties p = proberBinder(env).bind("prober", ProberProperties.class).get();
    assertThat(p.geoTag()).isEqualTo("eu");
    assertThat(p.peers()).hasSize(1);
    assertThat(p.peers().get(0).geoTag()).isEqualTo("us");
    assertThat(p.peers().get(0).servers()).hasSize(2);
    assertThat(p.delegation().zones())
        .extracting(z -> z.parentZone() + " " + z.loadBalancedZone())
        .containsExactly("example.com cloud.example.com", "example.org cloud.example.org");
    assertThat(p.delegation().edgeServers()).hasSize(1);
    assertThat(p.delegation().geoTags()).containsExactly("us");
    assertThat(p.delegation().gluePrefix()).isEqualTo("gslb-ns-");
    assertThat(p.defaultResolver()).isEqualTo("10.0.0.2");
    assertThat(p.topics().prefix()).isEqualTo("eu.");
    assertThat(env.getProperty("spring.application.name")).isEqualTo("health-prober");
  }

  @Test
  void theEngineReadsTheGeoTagZonesAndExposedIps() throws IOException {
    ConfigurableEnvironment env = load(render(globals()), "strategy-engine");

    StrategyEngineProperties p =
        ServiceConfigLoader.binder(env).bind("engine", StrategyEngineProperties.class).get();
    assertThat(p.gslb().geoTag()).isEqualTo("eu");
    assertThat(p.gslb().zones()).containsExactly("cloud.example.com", "cloud.example.org");
    assertThat(p.gslb().exposedIps()).containsExactly("203.0.113.10", "2001:db8::10");
    assertThat(p.applicationId()).isEqualTo("eu.cairn-strategy-engine");
    assertThat(p.placementSettings().dnsResolver())
        .as("the key the prober publishes its answers under: 10.0.0.2 at port 53")
        .isEqualTo("10.0.0.2:53");
    assertThat(p.stateDir()).isEqualTo(Path.of("/var/lib/cairn/strategy-engine"));
    assertThat(p.topics().prefix()).isEqualTo("eu.");
  }

  @Test
  void theWriterReadsItsTopicsAndTheUsersOwnSettings() throws IOException {
    Map<String, Object> values = globals();
    values.put("record-writer.config.writer.grace-period", "2m");
    values.put("record-writer.config.writer.rate-limit.writes-per-second", 200);
    ConfigurableEnvironment env = load(render(values), "record-writer");

    WriterProperties p =
        ServiceConfigLoader.binder(env).bind("writer", WriterProperties.class).get();
    assertThat(p.topics().prefix()).isEqualTo("eu.");
    assertThat(p.gracePeriod()).isEqualTo(Duration.ofMinutes(2));
    assertThat(p.rateLimit().writesPerSecond()).isEqualTo(200);
    assertThat(env.getProperty("spring.application.name")).isEqualTo("record-writer");
  }

  @Test
  void theWriterPublishesTheDelegationWithTheResponderServiceAsItsGlue() throws IOException {
    Map<String, Object> values = globals();
    values.remove("global.clusterExposedIPs[0]");
    values.remove("global.clusterExposedIPs[1]");
    values.put("global.publishDelegation", true);
    values.put("global.nsRecordTTL", 60);
    values.put("global.extGslbsClusterGeoTags[1]", "ap");
    ConfigurableEnvironment env = load(render(values), "record-writer");

    WriterProperties.Delegation d =
        ServiceConfigLoader.binder(env).bind("writer", WriterProperties.class).get().delegation();
    assertThat(d.enabled()).isTrue();
    assertThat(d.geoTag()).isEqualTo("eu");
    assertThat(d.peerGeoTags()).containsExactly("us", "ap");
    assertThat(d.zones())
        .extracting(z -> z.parentZone() + " " + z.loadBalancedZone())
        .containsExactly("example.com cloud.example.com", "example.org cloud.example.org");
    assertThat(d.addresses()).isEmpty();
    assertThat(d.service()).isEqualTo("cairn-system/cairn-dns-responder-dns");
    assertThat(d.ttl()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void theSplitBrainThresholdAndHostnameResolutionReachTheProberAndTheEngineAlike()
      throws IOException {
    Map<String, Object> values = globals();
    values.put("global.splitBrainThresholdSeconds", 120);
    values.put("global.resolveTargetHostnames", true);
    RenderedChart chart = render(values);

    ProberProperties prober =
        proberBinder(load(chart, "health-prober")).bind("prober", ProberProperties.class).get();
    StrategyEngineProperties engine =
        ServiceConfigLoader.binder(load(chart, "strategy-engine"))
            .bind("engine", StrategyEngineProperties.class)
            .get();
    assertThat(prober.defaultSplitBrainThreshold()).isEqualTo(Duration.ofSeconds(120));
    assertThat(engine.gslb().splitBrainThreshold()).isEqualTo(Duration.ofSeconds(120));
    assertThat(prober.resolveTargetHostnames()).isTrue();
    assertThat(engine.resolveTargetHostnames()).isTrue();

    RenderedChart defaults = render(globals());
    assertThat(
            proberBinder(load(defaults, "health-prober"))
                .bind("prober", ProberProperties.class)
                .get()
                .defaultSplitBrainThreshold())
        .isEqualTo(Duration.ofSeconds(300));
  }

  /**
   * Seconds of a million or more from a values file: Helm reads YAML numbers as floats, which a
   * plain {@code %v} printed as {@code 1e+06}, a duration no service reads.
   */
  @Test
  void largeSecondsFromAValuesFileStayWholeNumbers() throws IOException {
    Path values = etcCairn.resolve("values.yaml");
    Files.writeString(
        values,
        """
        global:
          clusterGeoTag: eu
          dnsZones:
            - {loadBalancedZone: cloud.example.com, parentZone: example.com, dnsZoneNegTTL: 1000000}
          publishDelegation: true
          nsRecordTTL: 2000000
          splitBrainThresholdSeconds: 3000000
        """);
    RenderedChart chart = RenderedChart.render(values);

    assertThat(
            ServiceConfigLoader.binder(load(chart, "record-writer"))
                .bind("writer", WriterProperties.class)
                .get()
                .delegation()
                .ttl())
        .isEqualTo(Duration.ofSeconds(2_000_000));
    assertThat(
            ServiceConfigLoader.binder(load(chart, "dns-responder"))
                .bind("responder", ResponderProperties.class)
                .get()
                .zones()
                .get(0)
                .negativeTtl())
        .isEqualTo(Duration.ofSeconds(1_000_000));
    assertThat(
            ServiceConfigLoader.binder(load(chart, "strategy-engine"))
                .bind("engine", StrategyEngineProperties.class)
                .get()
                .gslb()
                .splitBrainThreshold())
        .isEqualTo(Duration.ofSeconds(3_000_000));
  }

  @Test
  void theDelegationsGlueIsTheClustersExposedIpsWhenSet() throws IOException {
    Map<String, Object> values = globals();
    values.put("global.publishDelegation", true);
    ConfigurableEnvironment env = load(render(values), "record-writer");

    WriterProperties.Delegation d =
        ServiceConfigLoader.binder(env).bind("writer", WriterProperties.class).get().delegation();
    assertThat(d.addresses()).containsExactly("203.0.113.10", "2001:db8::10");
    assertThat(d.service()).isNull();
  }

  @Test
  void theResponderServesEveryZoneOnAllAddresses() throws IOException {
    ConfigurableEnvironment env = load(render(globals()), "dns-responder");

    ResponderProperties p =
        ServiceConfigLoader.binder(env).bind("responder", ResponderProperties.class).get();
    assertThat(p.listenAddress().getHostAddress()).isEqualTo("0.0.0.0");
    assertThat(p.port()).isEqualTo(5353);
    assertThat(p.clusterId()).isEqualTo("eu");
    assertThat(p.zones())
        .extracting(z -> z.name() + " " + z.negativeTtl())
        .containsExactly("cloud.example.com PT5M", "cloud.example.org PT30S");
    assertThat(p.snapshotFile()).isEqualTo(Path.of("/var/lib/cairn/dns-responder/snapshot.json"));
    assertThat(env.getProperty("spring.kafka.bootstrap-servers")).isNull();
  }

  @Test
  void theResponderNamesTheSameNameServersTheParentDelegatesTo() throws IOException {
    Map<String, Object> values = globals();
    values.put("global.dnsZones[0].loadBalancedZone", "k8gb-test.gslb.cloud.example.com");
    values.put("global.dnsZones[0].parentZone", "cloud.example.com");
    values.put("global.extGslbsClusterGeoTags[1]", "ap");
    ConfigurableEnvironment env = load(render(values), "dns-responder");

    ResponderProperties p =
        ServiceConfigLoader.binder(env).bind("responder", ResponderProperties.class).get();
    DelegationZone zone =
        new DelegationZone("cloud.example.com", "k8gb-test.gslb.cloud.example.com");
    assertThat(p.zones().get(0).ns())
        .extracting(ns -> ns.name())
        .as("the chart's names are DelegationZone's, as the prober and the writer compute them")
        .containsExactly(
            zone.nsName("gslb-ns-", "ap"),
            zone.nsName("gslb-ns-", "eu"),
            zone.nsName("gslb-ns-", "us"))
        .contains("gslb-ns-us-k8gb-test-gslb.cloud.example.com");
  }

  /**
   * A zone written as DNS writes it, fully qualified and in any case (the schema takes both): the
   * responder's apex name servers are still the names the parent delegates to, as the prober and
   * the writer compute them (DelegationZone normalises both zones).
   */
  @Test
  void aFullyQualifiedZoneGivesTheResponderTheSameNameServers() throws IOException {
    Map<String, Object> values = globals();
    values.put("global.dnsZones[0].loadBalancedZone", "Cloud.Example.com.");
    values.put("global.dnsZones[0].parentZone", "example.com");
    ConfigurableEnvironment env = load(render(values), "dns-responder");

    ResponderProperties p =
        ServiceConfigLoader.binder(env).bind("responder", ResponderProperties.class).get();
    DelegationZone zone = new DelegationZone("example.com", "Cloud.Example.com.");
    assertThat(p.zones().get(0).ns())
        .extracting(ns -> ns.name())
        .containsExactly(zone.nsName("gslb-ns-", "eu"), zone.nsName("gslb-ns-", "us"))
        .contains("gslb-ns-eu-cloud.example.com");
  }

  @Test
  void theLogFormatReachesEveryServiceAndTextKeepsTheFieldsOfEachLine() throws IOException {
    Map<String, Object> values = RenderedChart.minimalValues();
    values.put("global.logFormat", "ecs");
    RenderedChart json = render(values);
    RenderedChart text = render();

    for (String service : RenderedChart.SERVICES) {
      assertThat(load(json, service).getProperty("logging.structured.format.console"))
          .as(service)
          .isEqualTo("ecs");
      ConfigurableEnvironment plain = load(text, service);
      assertThat(plain.getProperty("logging.structured.format.console")).as(service).isNull();
      assertThat(plain.getProperty("logging.pattern.console")).as(service).contains("%m %kvp");
    }
  }

  @Test
  void aMisspeltSettingInAServicesConfigStopsTheServiceNamingIt() {
    Map<String, Object> values = RenderedChart.minimalValues();
    values.put("record-writer.config.writer.grace-perod", "2m");
    RenderedChart chart = render(values);

    assertThatThrownBy(
            () ->
                ServiceConfigLoader.binder(load(chart, "record-writer"))
                    .bind("writer", WriterProperties.class))
        .hasRootCauseInstanceOf(UnboundConfigurationPropertiesException.class)
        .rootCause()
        .hasMessageContaining("writer.grace-perod");
  }

  @Test
  void theDefaultsOfOneClusterBindInEveryService() throws IOException {
    RenderedChart chart = render();

    Binder watcher = ServiceConfigLoader.binder(load(chart, "topology-watcher"));
    assertThat(watcher.bind("watcher", WatcherProperties.class).get().topics().prefix()).isEmpty();
    assertThat(
            proberBinder(load(chart, "health-prober"))
                .bind("prober", ProberProperties.class)
                .get()
                .peers())
        .isEmpty();
    assertThat(
            ServiceConfigLoader.binder(load(chart, "strategy-engine"))
                .bind("engine", StrategyEngineProperties.class)
                .get()
                .applicationId())
        .isEqualTo("cairn-strategy-engine");
    assertThat(
            ServiceConfigLoader.binder(load(chart, "record-writer"))
                .bind("writer", WriterProperties.class)
                .get()
                .embeddedIngress()
                .enabled())
        .isTrue();
    assertThat(
            ServiceConfigLoader.binder(load(chart, "dns-responder"))
                .bind("responder", ResponderProperties.class)
                .get()
                .zones())
        .hasSize(1);
  }
}
