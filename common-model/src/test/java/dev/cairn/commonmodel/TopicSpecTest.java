package dev.cairn.commonmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.topology.NodeState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TopicSpecTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "cairn.topology.routes.v1",
        "cairn.health.peer-answers.v1",
        "cairn.decision.targets.v2",
        "cairn.health.hostname-resolutions.v12"
      })
  void acceptsCairnDomainEntityMajor(String name) {
    assertThat(spec(name).name()).isEqualTo(name);
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @ValueSource(
      strings = {
        "",
        "routes",
        "cairn.topology.routes",
        "cairn.topology.routes.v",
        "cairn.topology.routes.1",
        "cairn.topology.routes.v1.extra",
        "cairn.topology.v1",
        "other.topology.routes.v1",
        "Cairn.topology.routes.v1",
        "cairn.Topology.routes.v1",
        "cairn.topology.Routes.v1",
        "cairn.topology.routes.V1",
        "cairn..routes.v1",
        "cairn.topology_x.routes.v1",
        "cairn.topology.routes.v1 ",
        " cairn.topology.routes.v1",
        "eu.cairn.topology.routes.v1",
        "cairn.topology.route5.v1"
      })
  void rejectsOtherNames(String name) {
    assertThatThrownBy(() -> spec(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + name + "'");
  }

  @Test
  void needsANameAndAValueType() {
    assertThatThrownBy(() -> new TopicSpec<>(null, NodeState.class, "p", "k", true))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new TopicSpec<>("cairn.topology.nodes.v1", null, "p", "k", true))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void prefixesTheNameForAnEnvironment() {
    TopicSpec<NodeState> nodes = spec("cairn.topology.nodes.v1");

    assertThat(nodes.name("eu.")).isEqualTo("eu.cairn.topology.nodes.v1");
    assertThat(nodes.name("")).isEqualTo("cairn.topology.nodes.v1");
    assertThat(nodes.name(null)).isEqualTo("cairn.topology.nodes.v1");
  }

  @Test
  void cleanupPolicyFollowsCompaction() {
    assertThat(new TopicSpec<>("cairn.a.b.v1", NodeState.class, "p", "k", true).cleanupPolicy())
        .isEqualTo("compact");
    assertThat(new TopicSpec<>("cairn.a.b.v1", NodeState.class, "p", "k", false).cleanupPolicy())
        .isEqualTo("delete");
  }

  private static TopicSpec<NodeState> spec(String name) {
    return new TopicSpec<>(name, NodeState.class, "topology-watcher", "Node/<name>", true);
  }
}
