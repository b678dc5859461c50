package dev.cairn.strategyengine.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.validation.IpLiteral.Family;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeDirectoryTest {

  @Test
  void indexesIngressNodesByZoneAndForgetsReplacedEntries() {
    NodeDirectory directory =
        NodeDirectory.of(
            List.of(node("b", "z1", true), node("a", "z1", true), node("w", "z1", false)));

    assertThat(directory.ingressNodesInZone("z1"))
        .extracting(NodeState::name)
        .containsExactly("a", "b");

    directory.put(node("a", "z2", true));
    directory.put(node("b", "z1", false));

    assertThat(directory.ingressNodesInZone("z1")).isEmpty();
    assertThat(directory.ingressNodesInZone("z2")).extracting(NodeState::name).containsExactly("a");
    assertThat(directory.ingressNodes()).extracting(NodeState::name).containsExactly("a");

    directory.remove("a");

    assertThat(directory.ingressNodes()).isEmpty();
    assertThat(directory.node("w")).isPresent();
    assertThat(directory.size()).isEqualTo(2);
  }

  @Test
  void cachedTargetsFollowTheNodeAndTheFamilies() {
    NodeDirectory directory = NodeDirectory.of(List.of(node("a", "z1", true)));
    NodeState a = directory.node("a").orElseThrow();

    assertThat(directory.targets(a, EnumSet.of(Family.IPV4)).targets())
        .containsExactly(new Target("10.0.0.1", RecordType.A));
    assertThat(directory.targets(a, EnumSet.of(Family.IPV6)).targets())
        .containsExactly(new Target("fd00::1", RecordType.AAAA));

    NodeState moved =
        new NodeState(
            "a",
            "z1",
            null,
            true,
            List.of(new NodeAddress("InternalIP", "10.0.0.9")),
            Map.of(),
            List.of());
    directory.put(moved);

    assertThat(directory.targets(moved, EnumSet.of(Family.IPV4)).targets())
        .containsExactly(new Target("10.0.0.9", RecordType.A));
  }

  private static NodeState node(String name, String zone, boolean ingress) {
    return new NodeState(
        name,
        zone,
        null,
        ingress,
        List.of(
            new NodeAddress("InternalIP", "10.0.0.1"), new NodeAddress("InternalIP", "fd00::1")),
        Map.of(),
        List.of());
  }
}
