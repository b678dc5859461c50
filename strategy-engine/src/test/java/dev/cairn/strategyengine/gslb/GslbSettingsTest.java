package dev.cairn.strategyengine.gslb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class GslbSettingsTest {

  @Test
  void normalisesZonesAndCanonicalisesExposedIps() {
    GslbSettings settings =
        new GslbSettings(
            " eu ",
            List.of("Cloud.Example.com.", "cloud.example.com"),
            List.of("2001:DB8:0::1", " 203.0.113.1 ", "203.0.113.1"),
            30,
            1,
            3600,
            Duration.ofMinutes(5));

    assertThat(settings.geoTag()).isEqualTo("eu");
    assertThat(settings.zones()).containsExactly("cloud.example.com");
    assertThat(settings.exposedIps()).containsExactly("2001:db8::1", "203.0.113.1");
  }

  @Test
  void aBlankGeoTagMeansUnset() {
    assertThat(GslbSettings.defaults("  ").geoTag()).isNull();
  }

  @Test
  void zonesMatchOnLabelsNotOnSubstrings() {
    GslbSettings settings = GslbSettings.defaults("eu").withZones(List.of("cloud.example.com"));

    assertThat(settings.inZones("cloud.example.com")).isTrue();
    assertThat(settings.inZones("a.b.cloud.example.com")).isTrue();
    assertThat(settings.inZones("evilcloud.example.com")).isFalse();
    assertThat(settings.inZones("cloud.example.com.evil.net")).isFalse();
    assertThat(GslbSettings.defaults("eu").inZones("anything.example.org")).isTrue();
  }

  @Test
  void refusesBadValuesNamingTheProperty() {
    assertThatThrownBy(() -> GslbSettings.defaults("eu_west"))
        .hasMessageContaining("engine.gslb.geo-tag");
    assertThatThrownBy(() -> GslbSettings.defaults("eu").withZones(List.of("bad_zone")))
        .hasMessageContaining("engine.gslb.zones");
    assertThatThrownBy(
            () ->
                new GslbSettings(
                    "eu", List.of(), List.of("10.0.0.256"), 30, 1, 3600, Duration.ofMinutes(5)))
        .hasMessageContaining("engine.gslb.exposed-ips");
    assertThatThrownBy(
            () -> new GslbSettings("eu", List.of(), List.of(), 30, 60, 3600, Duration.ofMinutes(5)))
        .hasMessageContaining("engine.gslb.default-ttl");
    assertThatThrownBy(
            () -> new GslbSettings("eu", List.of(), List.of(), 30, 100, 10, Duration.ofMinutes(5)))
        .hasMessageContaining("exceeds ttl-max");
    assertThatThrownBy(
            () -> new GslbSettings("eu", List.of(), List.of(), 30, 1, 3600, Duration.ZERO))
        .hasMessageContaining("engine.gslb.split-brain-threshold");
  }
}
