package dev.cairn.commonmodel;

import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * How a service names and creates the contract topics: a prefix for environment isolation (each
 * cluster of the two-cluster local stack has its own), and the partition and replica counts used
 * when a topic is missing. Every service binds this under {@code <service>.topics}.
 *
 * @param prefix prepended to every topic name, e.g. {@code eu.}; empty by default
 * @param partitions partitions of a topic that does not exist yet; default 1
 * @param replicationFactor replicas of a topic that does not exist yet; default 1
 */
public record TopicSettings(String prefix, Integer partitions, Short replicationFactor) {

  public TopicSettings {
    prefix = prefix == null ? "" : prefix;
    partitions = partitions == null ? 1 : partitions;
    replicationFactor = replicationFactor == null ? 1 : replicationFactor;
    if (partitions < 1) {
      throw new IllegalArgumentException("topics.partitions must be at least 1, got " + partitions);
    }
    if (replicationFactor < 1) {
      throw new IllegalArgumentException(
          "topics.replication-factor must be at least 1, got " + replicationFactor);
    }
    if (!prefix.isEmpty() && !prefix.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException(
          "topics.prefix may hold only letters, digits, '.', '_' and '-', got '" + prefix + "'");
    }
  }

  /** The defaults: no prefix, one partition, one replica. */
  public static TopicSettings defaults() {
    return new TopicSettings(null, null, null);
  }

  /** The full name of a topic under this prefix. */
  public String name(TopicSpec<?> topic) {
    return topic.name(prefix);
  }

  /** The admin-client declaration of a topic, with its cleanup policy. */
  public NewTopic newTopic(TopicSpec<?> topic) {
    return new NewTopic(name(topic), Optional.of(partitions), Optional.of(replicationFactor))
        .configs(Map.of("cleanup.policy", topic.cleanupPolicy()));
  }
}
