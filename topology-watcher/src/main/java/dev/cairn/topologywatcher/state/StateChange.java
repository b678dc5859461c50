package dev.cairn.topologywatcher.state;

import dev.cairn.commonmodel.TopicSpec;
import java.util.Objects;

/**
 * One record to publish: the new value of a key, or a tombstone.
 *
 * @param topic the topic
 * @param key the key
 * @param value the new value, {@code null} for a tombstone
 */
public record StateChange(TopicSpec<?> topic, String key, Object value) {

  public StateChange {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(key, "key");
  }

  /** True when the key is deleted. */
  public boolean isTombstone() {
    return value == null;
  }
}
