package dev.cairn.strategyengine.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The reverse index store (keys from {@link DependencyIndex}): who depends on an input, kept up to
 * date as dependents are recomputed.
 */
final class ReverseIndex {

  private static final StringSerializer KEYS = new StringSerializer();

  private final KeyValueStore<String, String> store;

  ReverseIndex(KeyValueStore<String, String> store) {
    this.store = store;
  }

  /** The dependents under {@code prefix} (one input), in key order. */
  List<String> dependents(String prefix) {
    List<String> keys = new ArrayList<>();
    try (KeyValueIterator<String, String> found = store.prefixScan(prefix, KEYS)) {
      found.forEachRemaining(entry -> keys.add(entry.value));
    }
    return keys;
  }

  /** Replaces a dependent's index keys: removes those no longer wanted, adds the new ones. */
  void replace(String dependentKey, Set<String> oldKeys, Set<String> newKeys) {
    for (String stale : oldKeys) {
      if (!newKeys.contains(stale)) {
        store.delete(stale);
      }
    }
    for (String fresh : newKeys) {
      if (!oldKeys.contains(fresh)) {
        store.put(fresh, dependentKey);
      }
    }
  }
}
