package dev.cairn.dnsresponder.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.dnsresponder.answer.WeightedAnswer;
import dev.cairn.dnsresponder.zone.ZoneSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class ResponderPropertiesTest {

  private static ResponderProperties bind(Map<String, String> values) {
    return new Binder(new MapConfigurationPropertySource(values))
        .bindOrCreate("responder", ResponderProperties.class);
  }

  @Test
  void bindsTheDefaults() {
    ResponderProperties p = bind(Map.of("responder.zones[0].name", "cloud.example.com"));

    assertThat(p.listenAddress().getHostAddress()).isEqualTo("127.0.0.1");
    assertThat(p.port()).isEqualTo(5353);
    assertThat(p.labelSelector()).containsExactly("k8gb.io/dnstype=local");
    assertThat(p.debounce()).isEqualTo(Duration.ofMillis(50));
    assertThat(p.snapshotGrace()).isEqualTo(Duration.ofSeconds(15));
    assertThat(p.snapshotFile()).isNull();
    assertThat(p.ednsUdpSize()).isEqualTo(1232);
    assertThat(p.weightedAnswer()).isEqualTo(WeightedAnswer.ONE);
    assertThat(p.maxAnswerRecords()).isEqualTo(32);
    assertThat(p.rateLimit()).isZero();
    assertThat(p.geoip().field()).containsExactly("datacenter");
    assertThat(p.kubernetes().masterUrl()).isNull();
    ResponderProperties.Zone zone = p.zones().get(0);
    assertThat(zone.negativeTtl()).isEqualTo(Duration.ofSeconds(30));
    assertThat(zone.hostmaster()).isEqualTo("hostmaster");
  }

  @Test
  void bindsListsEnumsAndZonesAsTheCoreSeesThem() {
    ResponderProperties p =
        bind(
            Map.of(
                "responder.zones[0].name", "Cloud.Example.com.",
                "responder.zones[0].ns[0].name", "ns1.cloud.example.com",
                "responder.zones[0].ns[0].addresses", "192.0.2.53,2001:db8::53",
                "responder.zones[0].negative-ttl", "5m",
                "responder.weighted-answer", "all-ordered",
                "responder.geoip.field", "country.iso_code,continent.code",
                "responder.label-selector", "k8gb.io/dnstype=local,cairn.dev/serve=true"));

    assertThat(p.weightedAnswer()).isEqualTo(WeightedAnswer.ALL_ORDERED);
    assertThat(p.geoip().field()).containsExactly("country.iso_code", "continent.code");
    assertThat(p.labelSelector()).hasSize(2);
    ZoneSpec spec = ResponderConfiguration.zoneSpec(p.zones().get(0));
    assertThat(spec.name()).isEqualTo("cloud.example.com");
    assertThat(spec.hostmaster()).isEqualTo("hostmaster.cloud.example.com");
    assertThat(spec.negativeTtlSeconds()).isEqualTo(300);
    assertThat(spec.nameServers().get(0).addresses()).containsExactly("192.0.2.53", "2001:db8::53");
  }

  @Test
  void defaultsTheNameServerToNs1OfTheZone() {
    ResponderProperties p = bind(Map.of("responder.zones[0].name", "cloud.example.com"));

    assertThat(ResponderConfiguration.zoneSpec(p.zones().get(0)).nameServers())
        .containsExactly(new ZoneSpec.NameServer("ns1.cloud.example.com", List.of()));
  }

  @Test
  void refusesBadConfigurationNamingTheProperty() {
    assertThatThrownBy(() -> bind(Map.of("responder.port", "5353")))
        .isInstanceOf(BindException.class)
        .rootCause()
        .hasMessageContaining("responder.zones needs at least one zone");
    assertThatThrownBy(
            () ->
                bind(
                    Map.of(
                        "responder.zones[0].name", "bad zone",
                        "responder.zones[0].ns[0].name", "ns1.cloud.example.com",
                        "responder.zones[0].ns[0].addresses", "not-an-ip",
                        "responder.edns-udp-size", "100")))
        .rootCause()
        .hasMessageContaining("responder.zones[0].name 'bad zone'")
        .hasMessageContaining("responder.zones[0].ns[0].addresses 'not-an-ip'")
        .hasMessageContaining("responder.edns-udp-size");
  }
}
