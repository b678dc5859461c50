package dev.cairn.strategyengine.stream;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A store of what the engine last published or derived per key, kept as the Cairn JSON bytes it is
 * published with ({@link EngineJson}: map entries sorted, so equal values give equal bytes). A new
 * value is encoded once, compared with the stored bytes, and on change stored and forwarded as
 * those same bytes; the stored value is decoded only when its content is needed.
 *
 * <p>The bytes are also held in a hash map in memory, loaded from the store when the task starts
 * (after its stores are restored) and written through: every decision reads them, and a hash
 * look-up costs less than the store layer's (key encoding, metrics, a sorted map or RocksDB). The
 * store stays the durable copy and the one the explain API reads.
 *
 * @param <V> the value type
 */
final class EncodedStore<V> {

  private final KeyValueStore<String, byte[]> store;
  private final String name;
  private final Serializer<V> encoder;
  private final Deserializer<V> decoder;
  private final Map<String, byte[]> held = new HashMap<>();

  EncodedStore(KeyValueStore<String, byte[]> store, Class<V> type) {
    this.store = store;
    this.name = store.name();
    Serde<V> serde = EngineJson.serde(type);
    this.encoder = serde.serializer();
    this.decoder = serde.deserializer();
    try (KeyValueIterator<String, byte[]> all = store.all()) {
      while (all.hasNext()) {
        KeyValue<String, byte[]> entry = all.next();
        held.put(entry.key, entry.value);
      }
    }
  }

  /** The keys held, a read-only view. */
  Set<String> keys() {
    return Collections.unmodifiableSet(held.keySet());
  }

  /** The bytes {@code value} is stored and published as. */
  byte[] encode(V value) {
    return encoder.serialize(name, value);
  }

  /** The stored bytes, {@code null} when there are none. */
  byte[] bytes(String key) {
    return held.get(key);
  }

  /** The stored value decoded, {@code null} when there is none. */
  V get(String key) {
    return decoder.deserialize(name, held.get(key));
  }

  /** {@code encoded} decoded. */
  V decode(byte[] encoded) {
    return decoder.deserialize(name, encoded);
  }

  /** True when {@code encoded} equals what is stored under {@code key}. */
  boolean holds(String key, byte[] encoded) {
    return Arrays.equals(encoded, held.get(key));
  }

  /** Stores {@code encoded} unless it is stored already; returns true when it was not. */
  boolean putIfChanged(String key, byte[] encoded) {
    if (holds(key, encoded)) {
      return false;
    }
    put(key, encoded);
    return true;
  }

  /** Stores {@code encoded} (known to differ). */
  void put(String key, byte[] encoded) {
    held.put(key, encoded);
    store.put(key, encoded);
  }

  /** Deletes the key; only when present, as a delete writes a changelog tombstone. */
  void delete(String key) {
    if (held.remove(key) != null) {
      store.delete(key);
    }
  }
}
