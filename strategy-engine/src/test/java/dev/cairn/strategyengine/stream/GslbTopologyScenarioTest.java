package dev.cairn.strategyengine.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.strategyengine.gslb.GslbOutcome;
import dev.cairn.strategyengine.gslb.GslbReport;
import dev.cairn.strategyengine.gslb.GslbScenario;
import dev.cairn.strategyengine.stream.EngineTopology.StoreType;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every Gslb scenario file through the wired topology: at every step of its timeline the
 * decision, status and report the engine holds must be the decider's, whichever order the inputs
 * arrive in. Time passes by advancing the driver's wall clock, so split-brain expiries are found by
 * the punctuator, not by an input change.
 */
class GslbTopologyScenarioTest {

  static List<GslbScenario> scenarios() {
    return GslbScenario.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void holdsTheDecidersOutcomeAtEveryStepWhenTheGslbArrivesLast(GslbScenario scenario) {
    try (EngineDriver driver = driver(scenario)) {
      driver.synced();
      scenario.nodes().forEach(driver::node);
      scenario.services().forEach(driver::service);
      scenario.endpoints().forEach(driver::endpoints);
      scenario.routes().forEach(driver::route);
      scenario.peers().forEach(driver::peerAnswer);
      scenario.resolutions().forEach(driver::resolution);
      driver.gslb(scenario.gslb());
      runTimeline(scenario, driver, true);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void reachesTheSameOutcomeWhenTheGslbArrivesFirst(GslbScenario scenario) {
    try (EngineDriver driver = driver(scenario)) {
      driver.synced();
      driver.gslb(scenario.gslb());
      scenario.peers().forEach(driver::peerAnswer);
      scenario.routes().forEach(driver::route);
      scenario.endpoints().forEach(driver::endpoints);
      scenario.services().forEach(driver::service);
      scenario.nodes().forEach(driver::node);
      scenario.resolutions().forEach(driver::resolution);
      runTimeline(scenario, driver, false);
    }
  }

  private static EngineDriver driver(GslbScenario scenario) {
    return new EngineDriver(
        scenario.placement(), scenario.settings(), scenario.start(), StoreType.IN_MEMORY);
  }

  private static void runTimeline(GslbScenario scenario, EngineDriver driver, boolean gslbLast) {
    String key = scenario.gslb().ref().key();
    long elapsed = 0;
    for (int step = 0; step < scenario.steps().size(); step++) {
      GslbScenario.Step current = scenario.steps().get(step);
      if (current.after() > elapsed) {
        driver.advanceWallClock(Duration.ofSeconds(current.after() - elapsed));
        elapsed = current.after();
      }
      current.peers().forEach(driver::peerAnswer);
      current.endpoints().forEach(driver::endpoints);
      GslbOutcome expected = scenario.decide(step);
      String at = scenario + " step " + step;
      TargetDecision held = driver.storedDecision(key);
      GslbStatus status = driver.storedStatus(key);
      GslbReport report = driver.storedReport(key);
      assertThat(report).as(at + " report").isEqualTo(expected.report());
      if (expected.decided()) {
        assertThat(held).as(at + " decision").isEqualTo(expected.decision());
        assertThat(status).as(at + " status").isEqualTo(expected.status());
        scenario.assertMatches(step, expected);
      } else {
        assertThat(status.problems())
            .as(at + " status problems")
            .isEqualTo(expected.status().problems());
        if (gslbLast && step == 0) {
          assertThat(held).as(at + " no decision for an undecided Gslb").isNull();
          assertThat(status).as(at + " status").isEqualTo(expected.status());
        }
      }
      TargetDecision emitted = driver.latest().get(key);
      if (emitted != null) {
        assertThat(emitted).as(at + " last decision emitted").isEqualTo(held);
      }
      GslbStatus emittedStatus = driver.latestStatuses().get(key);
      if (emittedStatus != null) {
        assertThat(emittedStatus).as(at + " last status emitted").isEqualTo(status);
      }
    }
  }
}
