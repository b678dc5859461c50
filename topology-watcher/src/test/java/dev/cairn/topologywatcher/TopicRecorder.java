package dev.cairn.topologywatcher;

import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.topology.SyncMarker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Records every message of the six topology topics (under one prefix) from the beginning, in the
 * order consumed, decoded with the contract deserializer. Tombstones have a {@code null} value.
 */
final class TopicRecorder implements AutoCloseable {

  /** One consumed message; {@code topic} is the contract topic. */
  record Message(TopicSpec<?> topic, String key, Object value) {}

  static final List<TopicSpec<?>> TOPICS =
      List.of(
          Topics.ROUTES,
          Topics.SERVICES,
          Topics.ENDPOINTS,
          Topics.NODES,
          Topics.GSLBS,
          Topics.SYNC);

  private final List<Message> messages = new CopyOnWriteArrayList<>();
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Map<String, TopicSpec<?>> byName = new HashMap<>();
  private final Map<String, CairnDeserializer<?>> deserializers = new HashMap<>();
  private final Thread thread;
  private volatile boolean running = true;

  TopicRecorder(String bootstrapServers, String prefix) {
    Map<String, Object> config = new HashMap<>();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    consumer =
        new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    for (TopicSpec<?> topic : TOPICS) {
      byName.put(topic.name(prefix), topic);
      deserializers.put(topic.name(prefix), new CairnDeserializer<>(topic.valueType()));
    }
    thread = new Thread(this::run, "topic-recorder-" + prefix);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    try {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String name : byName.keySet()) {
        List<PartitionInfo> infos = List.of();
        while (running && infos.isEmpty()) {
          infos = consumer.partitionsFor(name, Duration.ofSeconds(5));
          if (infos == null) {
            infos = List.of();
          }
        }
        infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      while (running) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
          String key = new String(r.key(), StandardCharsets.UTF_8);
          Object value =
              deserializers.get(r.topic()).deserialize(r.topic(), r.headers(), r.value());
          messages.add(new Message(byName.get(r.topic()), key, value));
        }
      }
    } catch (WakeupException e) {
      // closing
    } finally {
      consumer.close();
    }
  }

  /** Every message so far. */
  List<Message> all() {
    return List.copyOf(messages);
  }

  /** The messages of one topic so far. */
  List<Message> of(TopicSpec<?> topic) {
    return messages.stream().filter(m -> m.topic().equals(topic)).toList();
  }

  /** The messages of one key so far. */
  List<Message> of(TopicSpec<?> topic, String key) {
    return of(topic).stream().filter(m -> m.key().equals(key)).toList();
  }

  /** The state messages (not sync markers) so far. */
  List<Message> state() {
    return messages.stream().filter(m -> !m.topic().equals(Topics.SYNC)).toList();
  }

  /** The latest value of a key, {@code null} when absent or deleted. */
  Object latest(TopicSpec<?> topic, String key) {
    List<Message> list = of(topic, key);
    return list.isEmpty() ? null : list.get(list.size() - 1).value();
  }

  /** The sync markers so far. */
  List<SyncMarker> markers() {
    return of(Topics.SYNC).stream().map(m -> (SyncMarker) m.value()).toList();
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
