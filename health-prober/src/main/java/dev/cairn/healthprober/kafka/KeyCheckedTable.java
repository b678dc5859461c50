package dev.cairn.healthprober.kafka;

import dev.cairn.commonmodel.kafka.StateTopicReader;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table of one state topic as the prober uses it: the values of a {@link StateTopicReader}
 * whose record key is the key the value names itself ({@code ref().key()}, {@code
 * PeerAnswer.key()}, ...), the rule the strategy-engine follows too.
 *
 * <p>A record whose key does not match its value is skipped: logged once at WARN with the topic,
 * the record key and the value's key, and counted ({@link #mismatched()}). It changes nothing: the
 * last good value of that key, if any, stays, so a record that claims to be another object can
 * neither replace nor delete what the prober holds. A tombstone (no value to disagree) always
 * deletes the key. Called on the reader's thread; read from any thread.
 *
 * @param <V> the value type
 */
public final class KeyCheckedTable<V> implements StateTopicReader.Listener<V> {

  private static final Logger log = LoggerFactory.getLogger(KeyCheckedTable.class);

  private final String topic;
  private final Function<V, String> valueKey;
  private final Runnable onChange;
  private final Map<String, V> table = new ConcurrentHashMap<>();
  private final AtomicLong mismatched = new AtomicLong();

  /**
   * @param topic the full topic name (with its prefix), for the log
   * @param valueKey the key a value names itself
   * @param onChange run after every change of the table
   */
  public KeyCheckedTable(String topic, Function<V, String> valueKey, Runnable onChange) {
    this.topic = Objects.requireNonNull(topic, "topic");
    this.valueKey = Objects.requireNonNull(valueKey, "valueKey");
    this.onChange = Objects.requireNonNull(onChange, "onChange");
  }

  @Override
  public void onChange(String key, V oldValue, V newValue) {
    if (newValue == null) {
      if (table.remove(key) != null) {
        onChange.run();
      }
      return;
    }
    String expected = valueKey(newValue);
    if (!key.equals(expected)) {
      mismatched.incrementAndGet();
      log.atWarn()
          .addKeyValue("topic", topic)
          .addKeyValue("key", key)
          .addKeyValue("valueKey", expected)
          .log("Skipping a record whose key does not match its value");
      return;
    }
    if (!newValue.equals(table.put(key, newValue))) {
      onChange.run();
    }
  }

  /**
   * The key a value names, or a description of why it has none (e.g. a namespace or name that is
   * not a valid key part, refused by {@code ObjectRef}); such a value never matches its record key.
   */
  private String valueKey(V value) {
    try {
      return valueKey.apply(value);
    } catch (RuntimeException e) {
      return "<invalid: " + e.getMessage() + ">";
    }
  }

  /** An immutable copy of the table. */
  public Map<String, V> snapshot() {
    return Map.copyOf(table);
  }

  /** The number of keys with a value. */
  public int size() {
    return table.size();
  }

  /** Records skipped because their key did not match their value. */
  public long mismatched() {
    return mismatched.get();
  }
}
