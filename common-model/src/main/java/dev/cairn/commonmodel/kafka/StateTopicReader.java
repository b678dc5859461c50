package dev.cairn.commonmodel.kafka;

import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.codec.EventTime;
import dev.cairn.commonmodel.codec.MalformedRecordException;
import dev.cairn.commonmodel.codec.SchemaVersionException;
import dev.cairn.commonmodel.runtime.CriticalThread;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a compacted state topic from the beginning into memory and keeps following it: the current
 * value of every key, like a table. It uses no consumer group (every partition is assigned and read
 * from offset 0 on each start), so a restart always rebuilds the full view.
 *
 * <p>It knows when it has {@linkplain #caughtUp() caught up}: every partition has been read up to
 * the end offset seen at start. Consumers that delete things (the record-writer's garbage
 * collection) must wait for that, or they would act on a partial view.
 *
 * <p>Bad input never stops it: a malformed value is logged with its topic, partition and offset,
 * counted and skipped. A value of a newer major schema version stops the reader (nothing past it is
 * applied) and {@link #blockedReason()} says why, for the service's health.
 *
 * @param <V> the value type
 */
public final class StateTopicReader<V> implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(StateTopicReader.class);

  /** Called on the reader's thread for every change of the table. */
  public interface Listener<V> {
    /**
     * A key was added, changed ({@code oldValue != null}) or deleted ({@code newValue == null}).
     */
    void onChange(String key, V oldValue, V newValue);

    /**
     * As {@link #onChange(String, Object, Object)}, with the record's {@link
     * dev.cairn.commonmodel.codec.EventTime} header ({@code null} when absent). The default ignores
     * it.
     */
    default void onChange(String key, V oldValue, V newValue, java.time.Instant eventTime) {
      onChange(key, oldValue, newValue);
    }

    /** The initial read reached the end offsets seen at start; called once. */
    default void onCaughtUp() {}
  }

  private final Map<String, Object> consumerConfig;
  private final String topic;
  private final CairnDeserializer<V> deserializer;
  private final Listener<V> listener;
  private final Map<String, V> table = new ConcurrentHashMap<>();
  private final AtomicLong malformed = new AtomicLong();
  private final AtomicLong applied = new AtomicLong();
  private final AtomicReference<String> blockedReason = new AtomicReference<>();
  private final AtomicReference<String> failure = new AtomicReference<>();
  private final CountDownLatch caughtUp = new CountDownLatch(1);
  private final CriticalThread thread;
  private volatile KafkaConsumer<byte[], byte[]> consumer;
  private volatile boolean running = true;

  /**
   * Creates a reader; call {@link #start()} to begin.
   *
   * @param bootstrapServers the Kafka bootstrap servers
   * @param extraConfig further consumer settings (security and the like), may be empty
   * @param topic the full topic name
   * @param valueType the value record type
   * @param listener told about every change, may be {@code null}
   */
  public StateTopicReader(
      String bootstrapServers,
      Map<String, Object> extraConfig,
      String topic,
      Class<V> valueType,
      Listener<V> listener) {
    Map<String, Object> config = new HashMap<>(extraConfig == null ? Map.of() : extraConfig);
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "cairn-reader-" + topic);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    this.consumerConfig = config;
    this.topic = Objects.requireNonNull(topic, "topic");
    this.deserializer = new CairnDeserializer<>(valueType);
    this.listener = listener == null ? (k, o, n) -> {} : listener;
    this.thread =
        new CriticalThread(
            "cairn-reader-" + topic,
            this::run,
            log,
            "the state topic " + topic + " is no longer read");
  }

  /** Starts reading on a daemon thread. */
  public StateTopicReader<V> start() {
    thread.start();
    return this;
  }

  /** The current value of a key, or {@code null}. */
  public V get(String key) {
    return table.get(key);
  }

  /** An immutable copy of the whole table. */
  public Map<String, V> snapshot() {
    return Map.copyOf(table);
  }

  /** The number of keys with a value. */
  public int size() {
    return table.size();
  }

  /** True once the initial read has reached the end offsets seen at start. */
  public boolean caughtUp() {
    return caughtUp.getCount() == 0;
  }

  /** Waits for {@link #caughtUp()}; true if it happened within the timeout. */
  public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
    return caughtUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Values skipped because they could not be decoded. */
  public long malformedCount() {
    return malformed.get();
  }

  /** Records applied to the table (values and tombstones). */
  public long appliedCount() {
    return applied.get();
  }

  /**
   * Why the reader stopped (a newer schema version, or a {@link #failure()}), or {@code null} while
   * it is reading.
   */
  public String blockedReason() {
    String reason = blockedReason.get();
    return reason != null ? reason : failure();
  }

  /**
   * Why the reader ended on an unexpected failure (an exception of the consumer, an error), which a
   * restart of the process may cure, or {@code null}. A stop on a newer schema version is not a
   * failure: a restart would meet the same record ({@link #blockedReason()} only).
   */
  public String failure() {
    String error = thread.failure();
    return error != null ? "reader of " + topic + " stopped: " + error : failure.get();
  }

  /** The topic this reader follows. */
  public String topic() {
    return topic;
  }

  private void run() {
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(
            consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer = c;
      List<TopicPartition> partitions = awaitPartitions(c);
      if (partitions == null) {
        return;
      }
      c.assign(partitions);
      c.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = c.endOffsets(partitions);
      while (running) {
        if (caughtUp.getCount() > 0 && reached(c, end)) {
          caughtUp.countDown();
          log.atInfo()
              .addKeyValue("topic", topic)
              .addKeyValue("keys", table.size())
              .log("caught up with the state topic");
          listener.onCaughtUp();
        }
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          if (!apply(r)) {
            return;
          }
        }
      }
    } catch (WakeupException e) {
      if (running) {
        throw e;
      }
    } catch (RuntimeException e) {
      blockedReason.set("reader of " + topic + " failed: " + e);
      failure.set("reader of " + topic + " failed: " + e);
      log.atError().addKeyValue("topic", topic).setCause(e).log("state topic reader failed");
    }
  }

  private List<TopicPartition> awaitPartitions(KafkaConsumer<byte[], byte[]> c) {
    while (running) {
      try {
        List<PartitionInfo> infos = c.partitionsFor(topic, Duration.ofSeconds(10));
        if (infos != null && !infos.isEmpty()) {
          return infos.stream().map(i -> new TopicPartition(i.topic(), i.partition())).toList();
        }
        log.atInfo().addKeyValue("topic", topic).log("waiting for the topic to exist");
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        // The broker is not reachable yet: keep trying, a reader never gives up on its topic.
        log.atWarn().addKeyValue("topic", topic).log("broker not reachable yet; retrying");
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    return null;
  }

  private static boolean reached(KafkaConsumer<?, ?> c, Map<TopicPartition, Long> end) {
    for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
      if (c.position(e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** Applies one record; false when the reader must stop. */
  private boolean apply(ConsumerRecord<byte[], byte[]> r) {
    if (r.key() == null) {
      malformed.incrementAndGet();
      log.atWarn()
          .addKeyValue("topic", r.topic())
          .addKeyValue("partition", r.partition())
          .addKeyValue("offset", r.offset())
          .log("skipped a record without a key");
      return true;
    }
    String key = new String(r.key(), StandardCharsets.UTF_8);
    V value;
    try {
      value = deserializer.deserialize(r.topic(), r.headers(), r.value());
    } catch (SchemaVersionException e) {
      blockedReason.set(e.getMessage());
      log.atError()
          .addKeyValue("topic", r.topic())
          .addKeyValue("partition", r.partition())
          .addKeyValue("offset", r.offset())
          .addKeyValue("found", e.found())
          .log(e.getMessage());
      return false;
    } catch (MalformedRecordException e) {
      malformed.incrementAndGet();
      log.atWarn()
          .addKeyValue("topic", r.topic())
          .addKeyValue("partition", r.partition())
          .addKeyValue("offset", r.offset())
          .addKeyValue("key", key)
          .log("skipped a malformed record: {}", e.getMessage());
      return true;
    }
    V old = value == null ? table.remove(key) : table.put(key, value);
    applied.incrementAndGet();
    if (!Objects.equals(old, value)) {
      try {
        listener.onChange(key, old, value, EventTime.read(r.headers()).orElse(null));
      } catch (RuntimeException e) {
        log.atError()
            .addKeyValue("topic", r.topic())
            .addKeyValue("key", key)
            .setCause(e)
            .log("listener failed on a change; continuing");
      }
    }
    return true;
  }

  @Override
  public void close() {
    running = false;
    KafkaConsumer<byte[], byte[]> c = consumer;
    if (c != null) {
      c.wakeup();
    }
    try {
      thread.thread().join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
