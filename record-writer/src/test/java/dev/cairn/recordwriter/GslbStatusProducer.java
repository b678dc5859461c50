package dev.cairn.recordwriter;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.decision.GslbStatus;
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

/** Publishes Gslb statuses (and tombstones) the way the strategy-engine does. */
final class GslbStatusProducer implements AutoCloseable {

  private final KafkaProducer<String, GslbStatus> producer;
  private final String topic;

  GslbStatusProducer(String bootstrapServers, String prefix) {
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
    this.topic = Topics.GSLB_STATUS.name(prefix);
    TopicSettings settings = new TopicSettings(prefix, 1, (short) 1);
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      if (!admin.listTopics().names().get().contains(topic)) {
        admin.createTopics(List.of(settings.newTopic(Topics.GSLB_STATUS))).all().get();
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

  void send(GslbStatus status) {
    send(status.ref().key(), status);
  }

  void tombstone(String key) {
    send(key, null);
  }

  void send(String key, GslbStatus value) {
    try {
      producer.send(new ProducerRecord<>(topic, key, value)).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("sending " + key, e);
    }
  }

  @Override
  public void close() {
    producer.close();
  }
}
