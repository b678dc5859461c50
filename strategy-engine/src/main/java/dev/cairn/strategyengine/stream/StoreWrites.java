package dev.cairn.strategyengine.stream;

import org.apache.kafka.streams.state.KeyValueStore;

/** How an input's state store follows its compacted topic. */
final class StoreWrites {

  private StoreWrites() {}

  /** Stores {@code value} under {@code key}, or deletes the key for a tombstone ({@code null}). */
  static <V> void putOrDelete(KeyValueStore<String, V> store, String key, V value) {
    if (value == null) {
      store.delete(key);
    } else {
      store.put(key, value);
    }
  }
}
