package dev.cairn.recordwriter;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes values (and tombstones) to one state topic the way the strategy-engine does, creating
 * the topic first when it is missing.
 */
final class StateProducer<V> implements AutoCloseable {

  private final KafkaProducer<String, V> producer;
  private final String topic;
  private final Function<V, String> keyOf;

  private StateProducer(
      String bootstrapServers, String prefix, TopicSpec<V> spec, Function<V, String> keyOf) {
    this.keyOf = keyOf;
    this.producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.LINGER_MS_CONFIG,
                0,
                ProducerConfig.ACKS_CONFIG,
                "all"),
            new StringSerializer(),
            new CairnSerializer<>());
    this.topic = spec.name(prefix);
    TopicSettings settings = new TopicSettings(prefix, 1, (short) 1);
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      if (!admin.listTopics().names().get().contains(topic)) {
        admin.createTopics(List.of(settings.newTopic(spec))).all().get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException("creating " + topic, e);
      }
    }
  }

  /** Decisions, keyed by their source. */
  static StateProducer<TargetDecision> decisions(String bootstrapServers, String prefix) {
    return new StateProducer<>(bootstrapServers, prefix, Topics.DECISIONS, d -> d.source().key());
  }

  /** Desired Gslb statuses, keyed by their Gslb. */
  static StateProducer<GslbStatus> gslbStatuses(String bootstrapServers, String prefix) {
    return new StateProducer<>(bootstrapServers, prefix, Topics.GSLB_STATUS, s -> s.ref().key());
  }

  String topic() {
    return topic;
  }

  void send(V value) {
    send(keyOf.apply(value), value);
  }

  void tombstone(String key) {
    send(key, null);
  }

  void send(String key, V value) {
    try {
      producer.send(new ProducerRecord<>(topic, key, value)).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("sending " + key, e);
    }
  }

  /** Sends with a {@code cairn-event-time} header, as the engine forwards it. */
  void send(V value, java.time.Instant eventTime) {
    ProducerRecord<String, V> record = new ProducerRecord<>(topic, keyOf.apply(value), value);
    dev.cairn.commonmodel.codec.EventTime.stamp(record.headers(), eventTime);
    try {
      producer.send(record).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("sending " + record.key(), e);
    }
  }

  /** Sends without waiting; {@link #flush()} waits for everything sent. */
  void sendAsync(V value) {
    producer.send(new ProducerRecord<>(topic, keyOf.apply(value), value));
  }

  void flush() {
    producer.flush();
  }

  @Override
  public void close() {
    producer.close();
  }
}
