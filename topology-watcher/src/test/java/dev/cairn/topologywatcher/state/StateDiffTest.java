package dev.cairn.topologywatcher.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.topology.NodeState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StateDiffTest {

  private static NodeState node(String name, String zone) {
    return new NodeState(name, zone, null, false, List.of(), Map.of(), List.of());
  }

  @Test
  void publishesExactlyTheDifferencesIncludingTombstones() {
    Map<String, Object> published =
        Map.of(
            "Node/a", node("a", "z1"),
            "Node/b", node("b", "z1"),
            "Node/gone", node("gone", "z1"));
    Map<String, Object> desired =
        Map.of(
            "Node/a", node("a", "z1"),
            "Node/b", node("b", "z2"),
            "Node/new", node("new", "z1"));

    List<StateChange> changes = StateDiff.between(Topics.NODES, published, desired);

    assertThat(changes)
        .containsExactly(
            new StateChange(Topics.NODES, "Node/b", node("b", "z2")),
            new StateChange(Topics.NODES, "Node/gone", null),
            new StateChange(Topics.NODES, "Node/new", node("new", "z1")));
    assertThat(changes.get(1).isTombstone()).isTrue();
  }

  @Test
  void equalStateReadBackPublishesNothing() {
    Map<String, Object> state = Map.of("Node/a", node("a", "z1"));
    Map<String, Object> copy = Map.of("Node/a", node("a", "z1"));

    assertThat(StateDiff.between(Topics.NODES, state, copy)).isEmpty();
    assertThat(StateDiff.between(Topics.NODES, Map.of(), Map.of())).isEmpty();
  }
}
