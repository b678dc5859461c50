package dev.cairn.strategyengine.placement;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DnsEndpointNameTest {

  @ParameterizedTest
  @CsvSource({
    "default, app, httproute-app-954f4d3c",
    "matrix, matrix, httproute-matrix-5e0da85b",
    "default, web, httproute-web-5887b110"
  })
  void matchesDirectDnsNames(String namespace, String name, String expected) {
    assertThat(DnsEndpointName.forRoute(namespace, name)).isEqualTo(expected);
  }

  @Test
  void cutsLongNamesTo44Characters() {
    assertThat(DnsEndpointName.forRoute("default", "a".repeat(60)))
        .isEqualTo("httproute-" + "a".repeat(44) + "-bb6fff13")
        .hasSize(63);
  }

  @Test
  void dropsADotAtTheEndOfTheCut() {
    String name = "a".repeat(43) + "." + "b".repeat(10);

    assertThat(DnsEndpointName.forRoute("default", name))
        .isEqualTo("httproute-" + "a".repeat(43) + "-3664cd19")
        .doesNotContain(".-");
  }

  @Test
  void fallsBackToTheHashForNamesKubernetesWouldRefuse() {
    assertThat(DnsEndpointName.forRoute("default", "Bad_Name")).matches("httproute-[0-9a-f]{8}");
  }
}
