package dev.cairn.strategyengine.gslb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Runs every Gslb scenario file against the pure decider, step by step. */
class GslbScenarioTest {

  static List<GslbScenario> scenarios() {
    return GslbScenario.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void decidesWhatTheScenarioExpects(GslbScenario scenario) {
    for (int step = 0; step < scenario.steps().size(); step++) {
      scenario.assertMatches(step, scenario.decide(step));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void decidesTheSameTwice(GslbScenario scenario) {
    for (int step = 0; step < scenario.steps().size(); step++) {
      assertThat(scenario.decide(step)).isEqualTo(scenario.decide(step));
    }
  }

  @Test
  void coversTheStrategiesWithAtLeastFiftyScenarios() {
    assertThat(scenarios()).hasSizeGreaterThanOrEqualTo(50);
  }
}
