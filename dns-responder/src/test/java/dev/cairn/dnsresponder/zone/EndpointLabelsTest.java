package dev.cairn.dnsresponder.zone;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class EndpointLabelsTest {

  private static EndpointLabels parse(Map<String, String> labels) {
    return EndpointLabels.parse("spec.endpoints[0]", new TreeMap<>(labels));
  }

  @Test
  void parsesWeightLabelsFromTheRightSoTagsMayContainHyphens() {
    EndpointLabels labels =
        parse(Map.of("weight-us-east-1-0-80", "192.0.2.1", "weight-eu-1-20", "192.0.2.2"));

    assertThat(labels.weights())
        .containsOnly(Map.entry("192.0.2.1", 80), Map.entry("192.0.2.2", 20));
    assertThat(labels.tags())
        .containsOnly(Map.entry("192.0.2.1", "us-east-1"), Map.entry("192.0.2.2", "eu"));
    assertThat(labels.problems()).isEmpty();
  }

  @Test
  void readsTheGeoStrategyInAnyCase() {
    assertThat(parse(Map.of("strategy", "GeoIP")).geoip()).isTrue();
    assertThat(parse(Map.of("strategy", "roundRobin")).geoip()).isFalse();
    assertThat(parse(Map.of()).geoip()).isFalse();
  }

  @Test
  void geoLabelsTagAddressesAndWinOverWeightTags() {
    EndpointLabels labels =
        parse(
            Map.of(
                "geo-eu-0",
                "192.0.2.1",
                "weight-europe-0-50",
                "192.0.2.1",
                "geo-us-0",
                "2001:DB8::1"));

    assertThat(labels.tags())
        .containsOnly(Map.entry("192.0.2.1", "eu"), Map.entry("2001:db8::1", "us"));
    assertThat(labels.weights()).containsOnly(Map.entry("192.0.2.1", 50));
  }

  @Test
  void reportsEveryMalformedLabelAndIgnoresIt() {
    EndpointLabels labels =
        parse(
            Map.of(
                "weight-eu-80", "192.0.2.1",
                "weight-eu-0-x", "192.0.2.2",
                "weight-eu-0-10", "not-an-ip",
                "weight-us-0--1", "192.0.2.3",
                "geo-eu", "192.0.2.4"));

    assertThat(labels.weights()).isEmpty();
    assertThat(labels.problems())
        .extracting(p -> p.field())
        .containsExactlyInAnyOrder(
            "spec.endpoints[0].labels[weight-eu-80]",
            "spec.endpoints[0].labels[weight-eu-0-x]",
            "spec.endpoints[0].labels[weight-eu-0-10]",
            "spec.endpoints[0].labels[weight-us-0--1]",
            "spec.endpoints[0].labels[geo-eu]");
  }

  @Test
  void aTagKeepsItsFirstWeight() {
    EndpointLabels labels =
        parse(Map.of("weight-eu-0-80", "192.0.2.1", "weight-eu-1-30", "192.0.2.2"));

    assertThat(labels.weights())
        .containsOnly(Map.entry("192.0.2.1", 80), Map.entry("192.0.2.2", 80));
    assertThat(labels.problems()).hasSize(1);
  }
}
