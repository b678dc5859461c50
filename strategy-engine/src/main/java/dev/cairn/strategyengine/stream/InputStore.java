package dev.cairn.strategyengine.stream;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task's copy of an input topic: the values as they were received (their Cairn JSON bytes) in a
 * state store with a changelog, and the same values decoded in memory, where every read goes.
 *
 * <p>The store is what survives a restart; the memory copy is what the engine decides from. A value
 * is decoded once, when its record arrives (or when the task loads the store at start), and stored
 * as the bytes it came in, so neither a write nor a read encodes or decodes JSON. The memory copy
 * is loaded in full when the task starts: Kafka Streams initialises a task's processors after its
 * stores are restored, so the store is complete then.
 *
 * @param <V> the decoded value type
 */
final class InputStore<V> {

  private static final Logger log = LoggerFactory.getLogger(InputStore.class);

  private final KeyValueStore<String, byte[]> store;
  private final Deserializer<V> decoder;
  private final Map<String, V> values = new HashMap<>();

  /**
   * The keys by group, the key up to its last {@code /} ({@code <kind>/<namespace>} of {@code
   * <kind>/<namespace>/<name>}), for the stores read by group; {@code null} for the others.
   */
  private final Map<String, Set<String>> groups;

  /**
   * @param store the task's store of received bytes
   * @param decoder how its bytes are decoded (the topic's deserializer)
   */
  InputStore(KeyValueStore<String, byte[]> store, Deserializer<V> decoder) {
    this(store, decoder, false);
  }

  /**
   * @param grouped whether the values are also indexed by group ({@link #inGroup})
   */
  InputStore(KeyValueStore<String, byte[]> store, Deserializer<V> decoder, boolean grouped) {
    this.store = store;
    this.decoder = decoder;
    this.groups = grouped ? new HashMap<>() : null;
  }

  /** The group of a key: the key up to its last {@code /}, the whole key without one. */
  static String groupOf(String key) {
    int slash = key.lastIndexOf('/');
    return slash < 0 ? key : key.substring(0, slash);
  }

  /**
   * The values of a group ({@code <kind>/<namespace>}), any order; empty for a store not grouped.
   */
  List<V> inGroup(String group) {
    if (groups == null) {
      return List.of();
    }
    Set<String> keys = groups.get(group);
    if (keys == null) {
      return List.of();
    }
    List<V> found = new ArrayList<>(keys.size());
    for (String key : keys) {
      found.add(values.get(key));
    }
    return found;
  }

  private void addToGroup(String key) {
    if (groups != null) {
      groups.computeIfAbsent(groupOf(key), g -> new HashSet<>(4)).add(key);
    }
  }

  private void removeFromGroup(String key) {
    if (groups == null) {
      return;
    }
    String group = groupOf(key);
    Set<String> keys = groups.get(group);
    if (keys != null && keys.remove(key) && keys.isEmpty()) {
      groups.remove(group);
    }
  }

  /**
   * Decodes every stored value into memory. A value that cannot be decoded any more (it was
   * accepted when it arrived, so only a store written by another version can hold one) is left out
   * and reported; the next record for its key replaces it.
   */
  void load() {
    values.clear();
    if (groups != null) {
      groups.clear();
    }
    try (KeyValueIterator<String, byte[]> all = store.all()) {
      while (all.hasNext()) {
        KeyValue<String, byte[]> entry = all.next();
        try {
          V value = decoder.deserialize(store.name(), entry.value);
          if (value != null) {
            values.put(entry.key, value);
            addToGroup(entry.key);
          }
        } catch (RuntimeException e) {
          log.atError()
              .addKeyValue("store", store.name())
              .addKeyValue("key", entry.key)
              .addKeyValue("error", e.getMessage())
              .log("Skipping a stored input that no longer decodes");
        }
      }
    }
  }

  /** The value under {@code key}, {@code null} when there is none. */
  V get(String key) {
    return values.get(key);
  }

  /** The keys held, a read-only view. */
  Set<String> keys() {
    return Collections.unmodifiableSet(values.keySet());
  }

  /**
   * Stores a received value with the bytes it arrived as, or deletes the key for a tombstone
   * ({@code value == null}; only when present, as a delete writes a changelog tombstone; a stored
   * value that {@link #load} left out is present too).
   */
  void put(String key, V value, byte[] encoded) {
    if (value == null) {
      boolean held = values.remove(key) != null;
      if (held) {
        removeFromGroup(key);
      }
      if (held || store.get(key) != null) {
        store.delete(key);
      }
      return;
    }
    if (values.put(key, value) == null) {
      addToGroup(key);
    }
    store.put(key, encoded);
  }
}
