package dev.cairn.strategyengine.stream;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A store of what the engine last published or derived per key, kept as the Cairn JSON bytes it is
 * published with ({@link EngineJson}: map entries sorted, so equal values give equal bytes). A new
 * value is encoded once and, on change, stored and forwarded as those same bytes.
 *
 * <p>Memory holds the last values decoded, not their bytes (the store is the durable copy and the
 * one the explain API reads): every decision compares its outcome with the last one as an object
 * ({@link #holds(String, Object)}: equal values give equal bytes), so an unchanged outcome is not
 * even encoded, and a hash look-up costs less than the store layer's (key encoding, metrics, a
 * sorted map or RocksDB). When the task starts (after its stores are restored) only the keys are
 * loaded; a stored value is decoded from the store on its first comparison. Keeping the bytes in
 * memory as well doubled the engine's heap for these values, and with it the garbage collector's
 * copying during a replay.
 *
 * @param <V> the value type
 */
final class EncodedStore<V> {

  private final KeyValueStore<String, byte[]> store;
  private final String name;
  private final Serializer<V> encoder;
  private final Deserializer<V> decoder;

  /** Every stored key, with its value decoded, or {@code null} until first read after a start. */
  private final Map<String, V> values = new HashMap<>();

  EncodedStore(KeyValueStore<String, byte[]> store, Class<V> type) {
    this.store = store;
    this.name = store.name();
    Serde<V> serde = EngineJson.serde(type);
    this.encoder = serde.serializer();
    this.decoder = serde.deserializer();
    try (KeyValueIterator<String, byte[]> all = store.all()) {
      while (all.hasNext()) {
        values.put(all.next().key, null);
      }
    }
  }

  /** The keys held, a read-only view. */
  Set<String> keys() {
    return Collections.unmodifiableSet(values.keySet());
  }

  /** The bytes {@code value} is stored and published as. */
  byte[] encode(V value) {
    return encoder.serialize(name, value);
  }

  /** True when a value is stored under {@code key}. */
  boolean contains(String key) {
    return values.containsKey(key);
  }

  /**
   * The stored value decoded, {@code null} when there is none; decoded from the store on its first
   * read after a start, then kept.
   *
   * @throws RuntimeException when the stored bytes do not decode (a store written by another
   *     version)
   */
  V get(String key) {
    V value = values.get(key);
    if (value == null && values.containsKey(key)) {
      value = decoder.deserialize(name, store.get(key));
      if (value != null) {
        values.put(key, value);
      }
    }
    return value;
  }

  /**
   * True when {@code value} equals the value stored under {@code key}. Equal values encode to equal
   * bytes, so a true answer means storing it would change nothing.
   */
  boolean holds(String key, V value) {
    V last;
    try {
      last = get(key);
    } catch (RuntimeException e) {
      // Stored by a version whose encoding this one cannot read: not the same, so the new value is
      // published and replaces it.
      return false;
    }
    return last != null && last.equals(value);
  }

  /**
   * The bytes of {@code value} when they differ from those stored under {@code key}, not yet stored
   * (publish them, then {@link #put} them: the output goes to the broker ahead of the store's
   * changelog record); {@code null} when nothing changed.
   */
  byte[] changed(String key, V value) {
    if (holds(key, value)) {
      return null;
    }
    byte[] encoded = encode(value);
    if (values.containsKey(key) && Arrays.equals(encoded, store.get(key))) {
      values.put(key, value); // unequal values, equal bytes: nothing to publish
      return null;
    }
    return encoded;
  }

  /** Stores {@code value} as {@code encoded} (its bytes, known to differ from the stored ones). */
  void put(String key, V value, byte[] encoded) {
    values.put(key, value);
    store.put(key, encoded);
  }

  /** Deletes the key; only when present, as a delete writes a changelog tombstone. */
  void delete(String key) {
    if (values.containsKey(key)) {
      values.remove(key);
      store.delete(key);
    }
  }
}
