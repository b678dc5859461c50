package dev.cairn.strategyengine.stream;

import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Sends every record to every partition (KIP-837 multicast), so that each stream task receives
 * every change of a cluster-wide input (nodes, sync markers, hostname resolutions).
 */
final class BroadcastPartitioner<K, V> implements StreamPartitioner<K, V> {

  @Override
  public Optional<Set<Integer>> partitions(String topic, K key, V value, int numPartitions) {
    return Optional.of(
        IntStream.range(0, numPartitions).boxed().collect(Collectors.toUnmodifiableSet()));
  }
}
