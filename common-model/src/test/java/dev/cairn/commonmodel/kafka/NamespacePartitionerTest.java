package dev.cairn.commonmodel.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NamespacePartitionerTest {

  private static final int PARTITIONS = 6;

  @ParameterizedTest
  @ValueSource(strings = {"shop", "default", "kube-system", "a", "team-42"})
  void putsEveryKindOfOneNamespaceInTheSamePartition(String namespace) {
    List<String> keys =
        List.of(
            "HTTPRoute/" + namespace + "/storefront",
            "Ingress/" + namespace + "/legacy",
            "Service/" + namespace + "/storefront",
            "Service/" + namespace + "/storefront-canary",
            "Gslb/" + namespace + "/storefront");

    Set<Integer> partitions = new HashSet<>();
    for (String key : keys) {
      partitions.add(NamespacePartitioner.partitionFor(key, PARTITIONS));
    }

    assertThat(partitions).hasSize(1);
  }

  @Test
  void spreadsNamespacesOverPartitions() {
    Set<Integer> used = new HashSet<>();
    for (int i = 0; i < 60; i++) {
      used.add(NamespacePartitioner.partitionFor("Service/ns-" + i + "/web", PARTITIONS));
    }

    assertThat(used).hasSize(PARTITIONS);
  }

  @Test
  void hashesClusterScopedKeysWholeLikeKafkasDefaultPartitioner() {
    Set<Integer> used = new HashSet<>();
    for (int i = 0; i < 60; i++) {
      String key = "Node/worker-" + i;
      int partition = NamespacePartitioner.partitionFor(key, PARTITIONS);

      assertThat(partition)
          .isEqualTo(
              BuiltInPartitioner.partitionForKey(key.getBytes(StandardCharsets.UTF_8), PARTITIONS));
      used.add(partition);
    }

    assertThat(used).hasSize(PARTITIONS);
  }

  @Test
  void hashesOtherKeysWhole() {
    String key = "192.0.2.53:53|lb.example.net";

    assertThat(NamespacePartitioner.partitionFor(key, PARTITIONS))
        .isEqualTo(
            BuiltInPartitioner.partitionForKey(key.getBytes(StandardCharsets.UTF_8), PARTITIONS));
  }

  @Test
  void usesPartitionZeroForOnePartitionOrNoKey() {
    assertThat(NamespacePartitioner.partitionFor("Service/shop/web", 1)).isZero();
    assertThat(NamespacePartitioner.partitionFor(null, PARTITIONS)).isZero();
  }

  @Test
  void staysWithinTheTopicsPartitions() {
    for (int partitions : new int[] {2, 3, 7, 12}) {
      for (int i = 0; i < 200; i++) {
        assertThat(NamespacePartitioner.partitionFor("Service/ns" + i + "/x", partitions))
            .isBetween(0, partitions - 1);
        assertThat(NamespacePartitioner.partitionFor("weird-key-" + i, partitions))
            .isBetween(0, partitions - 1);
      }
    }
  }

  @Test
  void asAProducerPartitionerUsesTheTopicsPartitionCount() {
    String topic = "cairn.topology.routes.v1";
    Node broker = new Node(0, "localhost", 9092);
    List<PartitionInfo> infos = new ArrayList<>();
    IntStream.range(0, PARTITIONS)
        .forEach(p -> infos.add(new PartitionInfo(topic, p, broker, null, null)));
    Cluster cluster = new Cluster("c", List.of(broker), infos, Set.of(), Set.of());

    try (NamespacePartitioner partitioner = new NamespacePartitioner()) {
      partitioner.configure(java.util.Map.of());
      String key = "HTTPRoute/shop/storefront";

      int partition =
          partitioner.partition(
              topic, key, key.getBytes(StandardCharsets.UTF_8), null, null, cluster);

      assertThat(partition)
          .isEqualTo(NamespacePartitioner.partitionFor("Service/shop/storefront", PARTITIONS));
    }
  }
}
