package dev.cairn.commonmodel;

import java.util.Objects;

/**
 * One Kafka topic of the contract: its name, value type and how it is used.
 *
 * @param name the topic name without prefix, {@code cairn.<domain>.<entity>.v<major>}
 * @param valueType the record type of the values (keys are always UTF-8 strings)
 * @param producer the only service that writes it
 * @param key how keys are formed
 * @param compacted true for state topics (cleanup.policy=compact), false for delete
 * @param <V> the value type
 */
public record TopicSpec<V>(
    String name, Class<V> valueType, String producer, String key, boolean compacted) {

  public TopicSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(valueType, "valueType");
    if (!name.matches("cairn\\.[a-z-]+\\.[a-z-]+\\.v[0-9]+")) {
      throw new IllegalArgumentException(
          "topic name '" + name + "' is not cairn.<domain>.<entity>.v<major>");
    }
  }

  /**
   * The name with an environment prefix, e.g. {@code eu.} in the two-cluster local stack; an empty
   * prefix gives the plain name.
   */
  public String name(String prefix) {
    return prefix == null || prefix.isEmpty() ? name : prefix + name;
  }

  /** The {@code cleanup.policy} topic setting. */
  public String cleanupPolicy() {
    return compacted ? "compact" : "delete";
  }
}
