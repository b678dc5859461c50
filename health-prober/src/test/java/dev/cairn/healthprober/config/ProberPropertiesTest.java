package dev.cairn.healthprober.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.healthprober.peer.ServerAddress;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.convert.ApplicationConversionService;

class ProberPropertiesTest {

  static ProberProperties bind(Map<String, String> properties) {
    ApplicationConversionService conversion = new ApplicationConversionService();
    conversion.addConverter(new ServerAddressConverter());
    Binder binder =
        new Binder(List.of(new MapConfigurationPropertySource(properties)), null, conversion);
    return binder.bindOrCreate("prober", Bindable.of(ProberProperties.class));
  }

  @Test
  void hasTheDocumentedDefaults() {
    ProberProperties p = bind(Map.of("prober.geo-tag", "eu"));

    assertThat(p.interval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(p.sweepSpread()).isEqualTo(0.5);
    assertThat(p.sweepSpreadDuration()).isEqualTo(Duration.ofMillis(2500));
    assertThat(p.queryTimeout()).isEqualTo(Duration.ofSeconds(1));
    assertThat(p.peerRefreshInterval()).isEqualTo(Duration.ofSeconds(60));
    assertThat(p.defaultResolver()).isEqualTo("1.1.1.1:53");
    assertThat(p.resolveTargetHostnames()).isFalse();
    assertThat(p.resolveLoadBalancerHostnames()).isTrue();
    assertThat(
            bind(Map.of("prober.geo-tag", "eu", "prober.resolve-load-balancer-hostnames", "false"))
                .resolveLoadBalancerHostnames())
        .isFalse();
    assertThat(p.delegation().gluePrefix()).isEqualTo("gslb-ns-");
    assertThat(p.delegation().enabled()).isFalse();
    assertThat(p.peers()).isEmpty();
    assertThat(p.topics().prefix()).isEmpty();
    assertThat(p.resolution().policy().ttlFloor()).isEqualTo(Duration.ofSeconds(5));
    assertThat(p.resolution().policy().ttlCeiling()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void bindsStaticPeersAndDelegationAsTheLocalStackSetsThem() {
    ProberProperties p =
        bind(
            Map.of(
                "prober.geo-tag", "eu",
                "prober.topics.prefix", "eu.",
                "prober.peers[0].geo-tag", "us",
                "prober.peers[0].servers[0]", "127.0.0.1:15353",
                "prober.peers[0].servers[1]", "[::1]:15353",
                "prober.delegation.zones[0].parent-zone", "example.com",
                "prober.delegation.zones[0].load-balanced-zone", "cloud.example.com",
                "prober.delegation.edge-servers[0]", "192.0.2.53",
                "prober.delegation.geo-tags[0]", "us"));

    assertThat(p.staticPeers())
        .singleElement()
        .satisfies(
            peer -> {
              assertThat(peer.geoTag()).isEqualTo("us");
              assertThat(peer.servers())
                  .containsExactly(
                      ServerAddress.require("t", "127.0.0.1:15353", 53),
                      ServerAddress.require("t", "[::1]:15353", 53));
            });
    assertThat(p.delegation().zones())
        .containsExactly(new DelegationZone("example.com", "cloud.example.com"));
    assertThat(p.delegation().edgeServers())
        .containsExactly(ServerAddress.require("t", "192.0.2.53", 53));
    assertThat(p.topics().prefix()).isEqualTo("eu.");
  }

  @Test
  void requiresTheOwnGeoTag() {
    assertThatThrownBy(() -> bind(Map.of("prober.interval", "1s")))
        .rootCause()
        .hasMessageContaining("prober.geo-tag is required");
  }

  @Test
  void rejectsAHostnameAsPeerServer() {
    assertThatThrownBy(
            () ->
                bind(
                    Map.of(
                        "prober.geo-tag", "eu",
                        "prober.peers[0].geo-tag", "us",
                        "prober.peers[0].servers[0]", "dns.us.example.com")))
        .rootCause()
        .hasMessageContaining("not an IP address literal");
  }

  @Test
  void rejectsZonesWithoutEdgeServersAndBadRanges() {
    assertThatThrownBy(
            () ->
                bind(
                    Map.of(
                        "prober.geo-tag", "eu",
                        "prober.delegation.zones[0].parent-zone", "example.com",
                        "prober.delegation.zones[0].load-balanced-zone", "cloud.example.com")))
        .rootCause()
        .hasMessageContaining("edge-servers is required");
    assertThatThrownBy(() -> bind(Map.of("prober.geo-tag", "eu", "prober.query-timeout", "0s")))
        .rootCause()
        .hasMessageContaining("prober.query-timeout must be a positive duration");
    assertThatThrownBy(
            () -> bind(Map.of("prober.geo-tag", "eu", "prober.max-in-flight-per-peer", "0")))
        .rootCause()
        .hasMessageContaining("prober.max-in-flight-per-peer");
    assertThatThrownBy(() -> bind(Map.of("prober.geo-tag", "eu", "prober.sweep-spread", "1.5")))
        .rootCause()
        .hasMessageContaining("prober.sweep-spread must be between 0 and 1")
        .hasMessageContaining("1.5");
    assertThat(
            bind(Map.of(
                    "prober.geo-tag", "eu", "prober.interval", "2s", "prober.sweep-spread", "1"))
                .sweepSpreadDuration())
        .isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void rejectsTheSameStaticPeerTwice() {
    assertThatThrownBy(
            () ->
                bind(
                    Map.of(
                        "prober.geo-tag", "eu",
                        "prober.peers[0].geo-tag", "us",
                        "prober.peers[0].servers[0]", "192.0.2.1",
                        "prober.peers[1].geo-tag", "us",
                        "prober.peers[1].servers[0]", "192.0.2.2")))
        .rootCause()
        .hasMessageContaining("twice");
  }

  @Test
  void leavesTheOwnGeoTagOutOfTheStaticPeers() {
    ProberProperties p =
        bind(
            Map.of(
                "prober.geo-tag", "eu",
                "prober.peers[0].geo-tag", "eu",
                "prober.peers[0].servers[0]", "192.0.2.1"));

    assertThat(p.staticPeers()).isEmpty();
  }

  @Test
  void buildsTheCircuitBreakerWithJitteredExponentialWaits() {
    CircuitBreakerConfig c =
        ProberConfiguration.circuitBreakerConfig(
            bind(Map.of("prober.geo-tag", "eu")).circuitBreaker());

    assertThat(c.getFailureRateThreshold()).isEqualTo(80f);
    assertThat(c.getPermittedNumberOfCallsInHalfOpenState()).isEqualTo(3);
    long first = c.getWaitIntervalFunctionInOpenState().apply(1);
    long third = c.getWaitIntervalFunctionInOpenState().apply(3);
    assertThat(first).isBetween(2_500L, 7_500L);
    assertThat(third).isBetween(10_000L, 30_000L);
  }
}
