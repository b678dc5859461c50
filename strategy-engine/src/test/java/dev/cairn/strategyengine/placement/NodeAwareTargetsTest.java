package dev.cairn.strategyengine.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.topology.RouteState;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PlacementDecider#nodeAwareTargets} is {@link PlacementDecider#place} without the route's
 * own DNSEndpoint and with the route's enabled switch ignored: checked over every placement
 * scenario.
 */
class NodeAwareTargetsTest {

  static List<Scenario> scenarios() {
    return Scenario.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void choosesWhatThePlacementOfTheRouteWithoutItsSwitchPublishes(Scenario scenario) {
    RouteState route = withoutEnabledSwitch(scenario.route());
    Placement placement =
        PlacementDecider.place(
            route,
            scenario.endpoints(),
            NodeDirectory.of(scenario.nodes()),
            ResolutionLookup.of(scenario.resolutions()),
            scenario.settings(),
            scenario.now());

    NodeAwareTargets targets =
        PlacementDecider.nodeAwareTargets(
            scenario.route(),
            scenario.endpoints()::get,
            NodeDirectory.of(scenario.nodes()),
            ResolutionLookup.of(scenario.resolutions()),
            scenario.settings(),
            scenario.now());

    TargetDecision decision = placement.decision();
    assertThat(targets.summary()).isEqualTo(decision.explanation().summary());
    assertThat(targets.zones()).isEqualTo(decision.explanation().zones());
    assertThat(targets.candidateNodes()).isEqualTo(decision.explanation().candidateNodes());
    assertThat(targets.dependencies()).isEqualTo(placement.dependencies());
    assertThat(targets.targets().stream().map(Target::value).toList())
        .isEqualTo(decision.explanation().chosenTargets());
    Set<Target> published = new LinkedHashSet<>();
    for (DnsRecord record : decision.records()) {
      record
          .targets()
          .forEach(t -> published.add(new Target(t, RecordType.valueOf(record.recordType()))));
    }
    assertThat(targets.targets()).containsExactlyElementsOf(published);
    assertThat(targets.targets().isEmpty())
        .isEqualTo(decision.disposition() != Disposition.PUBLISH);
  }

  private static RouteState withoutEnabledSwitch(RouteState route) {
    Map<String, String> annotations = new TreeMap<>(route.annotations());
    annotations.remove(AnnotationKeys.ENABLED);
    return RouteCopies.withAnnotations(route, annotations);
  }
}
