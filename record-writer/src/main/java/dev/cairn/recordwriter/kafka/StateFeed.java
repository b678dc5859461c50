package dev.cairn.recordwriter.kafka;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.kafka.StateTopicReader;
import java.time.Instant;
import java.util.Map;

/**
 * Follows one compacted state topic of the contract ({@code Topics.DECISIONS}, {@code
 * Topics.GSLB_STATUS}) with a {@link StateTopicReader} and passes every change, and the moment the
 * initial read reaches the end, to its consumer (a reconciler).
 *
 * @param <V> the topic's value type
 */
public final class StateFeed<V> implements StateTopicReader.Listener<V> {

  /**
   * Told every change.
   *
   * @param <V> the value type
   */
  @FunctionalInterface
  public interface Changes<V> {
    /**
     * A key changed.
     *
     * @param key the topic key
     * @param value the new value, {@code null} for a tombstone
     * @param eventTime the record's {@code cairn-event-time} header, {@code null} when absent
     */
    void changed(String key, V value, Instant eventTime);
  }

  private final Changes<V> onChange;
  private final Runnable onCaughtUp;
  private final StateTopicReader<V> reader;

  /**
   * A feed; {@link #start()} starts reading.
   *
   * @param bootstrapServers the Kafka bootstrap servers
   * @param consumerConfig further consumer settings (security and the like)
   * @param topics the topic naming (prefix) in use
   * @param topic the topic followed; its value type is the feed's
   * @param onChange told every change on the reader's thread: the key, the new value ({@code null}
   *     for a tombstone) and the record's event time if it has one
   * @param onCaughtUp told once when the initial read reaches the end
   */
  public StateFeed(
      String bootstrapServers,
      Map<String, Object> consumerConfig,
      TopicSettings topics,
      TopicSpec<V> topic,
      Changes<V> onChange,
      Runnable onCaughtUp) {
    this.onChange = onChange;
    this.onCaughtUp = onCaughtUp;
    this.reader =
        new StateTopicReader<>(
            bootstrapServers, consumerConfig, topics.name(topic), topic.valueType(), this);
  }

  @Override
  public void onChange(String key, V oldValue, V newValue) {
    onChange.changed(key, newValue, null);
  }

  @Override
  public void onChange(String key, V oldValue, V newValue, Instant eventTime) {
    onChange.changed(key, newValue, eventTime);
  }

  @Override
  public void onCaughtUp() {
    onCaughtUp.run();
  }

  /** Starts reading on the reader's own thread. */
  public void start() {
    reader.start();
  }

  /** Stops reading. */
  public void close() {
    reader.close();
  }

  /** The current value under a topic key, or {@code null}. */
  public V get(String key) {
    return reader.get(key);
  }

  /** True once the topic has been read to the end offsets seen at start. */
  public boolean caughtUp() {
    return reader.caughtUp();
  }

  /** Why the reader stopped (a newer schema version), or {@code null}. */
  public String blockedReason() {
    return reader.blockedReason();
  }

  /**
   * Why the reader ended on an unexpected failure, or {@code null} ({@link
   * StateTopicReader#failure()}).
   */
  public String failure() {
    return reader.failure();
  }

  /** The number of keys with a value. */
  public int size() {
    return reader.size();
  }

  /** Records skipped as malformed. */
  public long malformedCount() {
    return reader.malformedCount();
  }

  /** The topic followed, prefix included. */
  public String topic() {
    return reader.topic();
  }
}
