package dev.cairn.topologywatcher.normalize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.validation.Problem;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeNormalizerTest {

  private static NodeState node(
      Map<String, String> labels,
      Map<String, String> annotations,
      List<NodeInput.Address> addresses) {
    return NodeNormalizer.normalize(
        new NodeInput(new Meta(null, "node-a", "uid", labels, annotations), addresses));
  }

  @Test
  void trimsZoneAndRegionAndLeavesOutHostnameAddresses() {
    NodeState node =
        node(
            Map.of(
                "topology.kubernetes.io/zone", " eu-1a ",
                "topology.kubernetes.io/region", "eu-1",
                "kubernetes.io/hostname", "node-a"),
            Map.of(),
            List.of(
                new NodeInput.Address("Hostname", "node-a"),
                new NodeInput.Address("InternalIP", " 10.0.0.5 "),
                new NodeInput.Address("InternalIP", "fd00::5"),
                new NodeInput.Address("ExternalDNS", "node-a.example.com")));

    assertThat(node.ref().key()).isEqualTo("Node/node-a");
    assertThat(node.zone()).isEqualTo("eu-1a");
    assertThat(node.region()).isEqualTo("eu-1");
    assertThat(node.ingress()).isFalse();
    assertThat(node.addresses())
        .containsExactly(
            new NodeAddress("InternalIP", "10.0.0.5"),
            new NodeAddress("InternalIP", "fd00::5"),
            new NodeAddress("ExternalDNS", "node-a.example.com"));
    assertThat(node.problems()).isEmpty();
  }

  @Test
  void treatsABlankZoneAsAbsent() {
    assertThat(node(Map.of("topology.kubernetes.io/zone", "  "), Map.of(), List.of()).zone())
        .isNull();
  }

  @ParameterizedTest(name = "node-role.kubernetes.io/ingress=''{0}'' -> {1}")
  @CsvSource({
    "'', true",
    "true, true",
    "yes, true",
    "false, false",
    "FALSE, false",
    "no, false",
    "0, false",
    "anything, true"
  })
  void readsTheIngressRoleLabelAsWritten(String value, boolean ingress) {
    assertThat(
            node(Map.of("node-role.kubernetes.io/ingress", value), Map.of(), List.of()).ingress())
        .isEqualTo(ingress);
  }

  @Test
  void acceptsTheOlderRoleLabel() {
    assertThat(node(Map.of("kubernetes.io/role", "ingress"), Map.of(), List.of()).ingress())
        .isTrue();
    assertThat(node(Map.of("kubernetes.io/role", "master"), Map.of(), List.of()).ingress())
        .isFalse();
    Map<String, String> both = new HashMap<>();
    both.put("node-role.kubernetes.io/ingress", "false");
    both.put("kubernetes.io/role", "ingress");
    assertThat(node(both, Map.of(), List.of()).ingress()).isTrue();
  }

  @Test
  void keepsTheRelevantAnnotationsAndNamesBadAddresses() {
    NodeState node =
        node(
            Map.of(),
            Map.of(
                "k3s.io/external-ip", "203.0.113.9,2001:db8::9",
                "k3s.io/external-dns", "node-a.example.com",
                "directdns.meisterlala.dev/target", "not an address",
                "k3s.io/node-args", "[]",
                "volumes.kubernetes.io/controller-managed-attach-detach", "true"),
            List.of(
                new NodeInput.Address("InternalIP", "10.0.0.5:80"),
                new NodeInput.Address("ExternalIP", ""),
                new NodeInput.Address(null, "10.0.0.6")));

    assertThat(node.annotations())
        .containsOnlyKeys(
            "k3s.io/external-ip", "k3s.io/external-dns", "directdns.meisterlala.dev/target");
    assertThat(node.addresses()).isEmpty();
    assertThat(node.problems())
        .extracting(Problem::field, Problem::value)
        .containsExactly(
            tuple("status.addresses[0].address", "10.0.0.5:80"),
            tuple("status.addresses[1].address", ""),
            tuple("status.addresses[2].type", null),
            tuple("metadata.annotations[directdns.meisterlala.dev/target]", "not an address"));
  }

  @Test
  void namesANonIpInTheK3sExternalIpAnnotation() {
    NodeState node = node(Map.of(), Map.of("k3s.io/external-ip", "203.0.113.9,node-a"), List.of());

    assertThat(node.annotations()).containsEntry("k3s.io/external-ip", "203.0.113.9,node-a");
    assertThat(node.problems())
        .containsExactly(
            new Problem(
                "metadata.annotations[k3s.io/external-ip]",
                "node-a",
                "item 2: not a strict IPv4 or IPv6 address literal"));
  }
}
