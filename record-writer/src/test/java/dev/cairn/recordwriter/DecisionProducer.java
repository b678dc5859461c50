package dev.cairn.recordwriter;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.decision.TargetDecision;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;

/** Publishes decisions (and tombstones) the way the strategy-engine does. */
final class DecisionProducer implements AutoCloseable {

  private final KafkaProducer<String, TargetDecision> producer;
  private final String topic;

  DecisionProducer(String bootstrapServers, String prefix) {
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
    this.topic = Topics.DECISIONS.name(prefix);
    TopicSettings settings = new TopicSettings(prefix, 1, (short) 1);
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      if (!admin.listTopics().names().get().contains(topic)) {
        admin.createTopics(List.of(settings.newTopic(Topics.DECISIONS))).all().get();
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

  String topic() {
    return topic;
  }

  void send(TargetDecision decision) {
    send(decision.source().key(), decision);
  }

  void tombstone(String sourceKey) {
    send(sourceKey, null);
  }

  void send(String key, TargetDecision value) {
    try {
      producer.send(new ProducerRecord<>(topic, key, value)).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("sending " + key, e);
    }
  }

  /** Sends without waiting; {@link #flush()} waits for everything sent. */
  void sendAsync(TargetDecision decision) {
    producer.send(new ProducerRecord<>(topic, decision.source().key(), decision));
  }

  void flush() {
    producer.flush();
  }

  @Override
  public void close() {
    producer.close();
  }
}
