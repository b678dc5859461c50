package dev.cairn.strategyengine.gslb;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** k8gb.md §4's table: counts of healthy, unhealthy and missing Services → host health. */
class HealthPolicyTest {

  @ParameterizedTest(name = "{0} healthy={1} unhealthy={2} notFound={3} → {4}")
  @CsvSource({
    "ANY, 0, 0, 0, NOT_FOUND",
    "ALL, 0, 0, 0, NOT_FOUND",
    "ANY, 1, 5, 5, HEALTHY",
    "ANY, 0, 1, 5, UNHEALTHY",
    "ANY, 0, 0, 2, NOT_FOUND",
    "ALL, 3, 0, 0, HEALTHY",
    "ALL, 3, 1, 0, UNHEALTHY",
    "ALL, 3, 1, 1, NOT_FOUND",
  })
  void combinesServiceHealthAsK8gbDoes(
      HealthPolicy policy, int healthy, int unhealthy, int notFound, HostHealth expected) {
    assertThat(policy.combine(healthy, unhealthy, notFound)).isEqualTo(expected);
  }
}
