package dev.cairn.topologywatcher.state;

import dev.cairn.commonmodel.TopicSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The exact differences between what a topic holds and what it should hold: an upsert for every key
 * whose value is missing or different, a tombstone for every key that should no longer exist,
 * nothing for equal values. Records compare by value, so equal state read back from Kafka produces
 * no change.
 */
public final class StateDiff {

  private StateDiff() {}

  /**
   * The changes that turn {@code published} into {@code desired}, in key order.
   *
   * @param topic the topic both tables belong to
   * @param published the current table of the topic (key to value)
   * @param desired the table it should be
   */
  public static List<StateChange> between(
      TopicSpec<?> topic, Map<String, ?> published, Map<String, ?> desired) {
    TreeSet<String> keys = new TreeSet<>(published.keySet());
    keys.addAll(desired.keySet());
    List<StateChange> changes = new ArrayList<>();
    for (String key : keys) {
      Object want = desired.get(key);
      if (differs(published.get(key), want)) {
        changes.add(new StateChange(topic, key, want));
      }
    }
    return changes;
  }

  /** True when a key holding {@code published} must be republished to hold {@code desired}. */
  public static boolean differs(Object published, Object desired) {
    return !Objects.equals(published, desired);
  }
}
