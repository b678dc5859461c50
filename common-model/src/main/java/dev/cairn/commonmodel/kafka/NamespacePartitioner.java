package dev.cairn.commonmodel.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.utils.Utils;

/**
 * Partitions state records by the namespace part of their key ({@code <kind>/<namespace>/<name>}),
 * so that a route and the Services it references (always in its namespace) land in the same
 * partition of their topics, and the engine can join them in one task. Cluster-scoped keys ({@code
 * Node/<name>}) and other keys are hashed whole, as Kafka's default partitioner does.
 */
public final class NamespacePartitioner implements Partitioner {

  @Override
  public int partition(
      String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
    int partitions = cluster.partitionsForTopic(topic).size();
    return partitionFor(key == null ? null : key.toString(), partitions);
  }

  /** The partition of a key among {@code partitions}; pure, for tests and custom producers. */
  public static int partitionFor(String key, int partitions) {
    if (partitions <= 1 || key == null) {
      return 0;
    }
    String[] parts = key.split("/", -1);
    String basis = parts.length == 3 ? parts[1] : key;
    return Utils.toPositive(Utils.murmur2(basis.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  @Override
  public void close() {}

  @Override
  public void configure(Map<String, ?> configs) {}
}
