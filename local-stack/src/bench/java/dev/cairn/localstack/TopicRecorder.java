package dev.cairn.localstack;

import dev.cairn.commonmodel.codec.EventTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A consumer on the same broker as the services that records, for every record of some topics, its
 * key, its timestamp (CreateTime: when the producer's {@code send} was called) and when this
 * consumer received it, so per-hop delivery latency can be computed. It reads from the end of each
 * partition at start (no group, no commits), with the consumer defaults the services use: {@code
 * fetch.min.bytes=1}, so the broker answers a waiting fetch as soon as a record is appended.
 */
final class TopicRecorder implements AutoCloseable {

  /**
   * One record as received.
   *
   * @param key the record key
   * @param createTimeMillis the record timestamp (epoch ms), {@code -1} if it is not a CreateTime
   * @param receivedMicros wall-clock epoch µs when the poll that returned it came back
   * @param receivedNanos {@link System#nanoTime()} at the same moment
   * @param value the value bytes, kept only for the topics asked for ({@code null} otherwise or for
   *     a tombstone)
   * @param eventTimeMillis the {@code cairn-event-time} header (epoch ms), {@code -1} without one
   * @param sentMicros the {@link SentAtInterceptor} header (epoch µs of the producer's send), {@code
   *     -1} without one
   * @param partition the record's partition
   * @param offset the record's offset
   */
  record Received(
      String key,
      long createTimeMillis,
      long receivedMicros,
      long receivedNanos,
      byte[] value,
      long eventTimeMillis,
      long sentMicros,
      int partition,
      long offset) {

    /** Delivery latency: receipt minus record timestamp, in ms (timestamp resolution 1 ms). */
    double latencyMillis() {
      return receivedMicros / 1000.0 - createTimeMillis;
    }

    /** Delivery latency from the stamped send time, in ms; {@code NaN} without the header. */
    double sentLatencyMillis() {
      return sentMicros < 0 ? Double.NaN : (receivedMicros - sentMicros) / 1000.0;
    }

    /**
     * When the producer had the broker's acknowledgement of this record (epoch µs, from {@link
     * SentAtInterceptor}), {@code -1} when unknown.
     */
    long ackedMicros(String topic) {
      return SentAtInterceptor.ackedMicros(topic, partition, offset);
    }
  }

  private final Set<String> keepValues;
  private final Map<String, List<Received>> received = new ConcurrentHashMap<>();
  private final List<Reader> readers = new ArrayList<>();
  private volatile boolean running = true;

  /**
   * Starts recording with one consumer for all the topics.
   *
   * @param bootstrapServers the broker
   * @param topics the topics to record
   * @param keepValues the topics whose values are kept
   */
  TopicRecorder(String bootstrapServers, List<String> topics, Set<String> keepValues) {
    this(bootstrapServers, topics, keepValues, false);
  }

  /**
   * Starts recording.
   *
   * @param bootstrapServers the broker
   * @param topics the topics to record
   * @param keepValues the topics whose values are kept
   * @param consumerPerTopic one consumer (and thread) per topic, as each service reads only its
   *     own topics, instead of one consumer whose fetches cover every topic
   */
  TopicRecorder(
      String bootstrapServers,
      List<String> topics,
      Set<String> keepValues,
      boolean consumerPerTopic) {
    this.keepValues = Set.copyOf(keepValues);
    for (String topic : topics) {
      received.put(topic, new ArrayList<>());
    }
    if (consumerPerTopic) {
      for (String topic : topics) {
        readers.add(new Reader(bootstrapServers, List.of(topic), "topic-recorder-" + topic));
      }
    } else {
      readers.add(new Reader(bootstrapServers, topics, "topic-recorder"));
    }
    readers.forEach(r -> r.thread.start());
  }

  /** One consumer, assigned every partition of its topics from their ends, and its thread. */
  private final class Reader {
    private final KafkaConsumer<String, byte[]> consumer;
    private final Thread thread;

    Reader(String bootstrapServers, List<String> topics, String name) {
      this.consumer =
          new KafkaConsumer<>(
              Map.of(
                  ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                  bootstrapServers,
                  ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                  false,
                  ConsumerConfig.CLIENT_ID_CONFIG,
                  "cairn-bench-recorder"),
              new StringDeserializer(),
              new ByteArrayDeserializer());
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : topics) {
        consumer
            .partitionsFor(topic, Duration.ofSeconds(30))
            .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
      }
      consumer.assign(partitions);
      consumer.seekToEnd(partitions);
      partitions.forEach(consumer::position);
      this.thread = new Thread(this::run, name);
      this.thread.setDaemon(true);
    }

    private void run() {
      try {
        while (running) {
          ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofSeconds(1));
          if (records.isEmpty()) {
            continue;
          }
          long nanos = System.nanoTime();
          long micros = WallClock.micros(nanos);
          for (ConsumerRecord<String, byte[]> r : records) {
            long ts = r.timestampType() == TimestampType.CREATE_TIME ? r.timestamp() : -1;
            byte[] value = keepValues.contains(r.topic()) ? r.value() : null;
            List<Received> list = received.get(r.topic());
            synchronized (list) {
              long eventTime = EventTime.read(r.headers()).map(Instant::toEpochMilli).orElse(-1L);
              long sent = SentAtInterceptor.read(r.headers());
              list.add(
                  new Received(
                      r.key(), ts, micros, nanos, value, eventTime, sent, r.partition(), r.offset()));
            }
          }
        }
      } catch (WakeupException e) {
        // closing
      } finally {
        consumer.close(Duration.ofSeconds(5));
      }
    }
  }

  /** What was received on a topic so far, in arrival order. */
  List<Received> received(String topic) {
    List<Received> list = received.get(topic);
    synchronized (list) {
      return List.copyOf(list);
    }
  }

  @Override
  public void close() {
    running = false;
    readers.forEach(r -> r.consumer.wakeup());
    for (Reader r : readers) {
      try {
        r.thread.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
