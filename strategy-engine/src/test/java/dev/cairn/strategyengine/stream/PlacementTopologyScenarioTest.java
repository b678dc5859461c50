package dev.cairn.strategyengine.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.strategyengine.placement.Scenario;
import dev.cairn.strategyengine.stream.EngineTopology.StoreType;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every placement scenario file through the wired topology: the decision on the output topic
 * must be the decider's, whichever order the inputs arrive in.
 */
class PlacementTopologyScenarioTest {

  static List<Scenario> scenarios() {
    return Scenario.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void emitsTheDecidersDecisionWhenTheRouteArrivesLast(Scenario scenario) {
    try (EngineDriver driver =
        new EngineDriver(scenario.settings(), scenario.now(), StoreType.IN_MEMORY)) {
      driver.synced();
      scenario.nodes().forEach(driver::node);
      scenario.endpoints().values().forEach(driver::endpoints);
      scenario.resolutions().forEach(driver::resolution);
      driver.route(scenario.route());

      TargetDecision decision = driver.latest().get(scenario.route().ref().key());
      assertThat(decision).isEqualTo(scenario.place().decision());
      scenario.assertMatches(decision);
      assertThat(driver.storedDecision(scenario.route().ref().key())).isEqualTo(decision);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void reachesTheSameDecisionWhenTheRouteArrivesFirst(Scenario scenario) {
    try (EngineDriver driver =
        new EngineDriver(scenario.settings(), scenario.now(), StoreType.IN_MEMORY)) {
      driver.synced();
      driver.route(scenario.route());
      scenario.resolutions().forEach(driver::resolution);
      scenario.endpoints().values().forEach(driver::endpoints);
      scenario.nodes().forEach(driver::node);

      TargetDecision expected = scenario.place().decision();
      assertThat(driver.storedDecision(scenario.route().ref().key())).isEqualTo(expected);
    }
  }
}
