package dev.cairn.topologywatcher.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.util.unit.DataSize;

/** The watcher's producer settings: Spring Boot's {@code spring.kafka.*} and Cairn's defaults. */
class ProducerSettingsTest {

  private static Object batchSize(KafkaProperties kafka) {
    DefaultKafkaProducerFactory<String, Object> factory =
        (DefaultKafkaProducerFactory<String, Object>)
            new WatcherConfiguration().topologyProducerFactory(kafka);
    return factory.getConfigurationProperties().get(ProducerConfig.BATCH_SIZE_CONFIG);
  }

  @Test
  void batchesUpTo256KbUnlessSpringKafkaSaysOtherwise() {
    KafkaProperties kafka = new KafkaProperties();
    assertThat(batchSize(kafka)).isEqualTo(262_144);
    kafka.getProducer().setBatchSize(DataSize.ofKilobytes(16));
    assertThat(batchSize(kafka)).isEqualTo(16_384);
  }
}
