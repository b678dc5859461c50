package dev.cairn.strategyengine.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Runs every placement scenario file against the pure decider. */
class PlacementScenarioTest {

  static List<Scenario> scenarios() {
    return Scenario.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void decidesWhatTheScenarioExpects(Scenario scenario) {
    scenario.assertMatches(scenario.place().decision());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void decidesTheSameTwice(Scenario scenario) {
    assertThat(scenario.place()).isEqualTo(scenario.place());
  }

  @Test
  void coversEveryRuleWithAtLeastSixtyScenarios() {
    assertThat(scenarios()).hasSizeGreaterThanOrEqualTo(60);
  }
}
