package dev.cairn.recordwriter;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/** One embedded KRaft broker for every integration test in the JVM, started on first use. */
final class EmbeddedBroker {

  private static EmbeddedKafkaKraftBroker broker;

  private EmbeddedBroker() {}

  static synchronized String bootstrapServers() {
    if (broker == null) {
      broker = new EmbeddedKafkaKraftBroker(1, 1);
      broker.afterPropertiesSet();
      Runtime.getRuntime().addShutdownHook(new Thread(broker::destroy, "embedded-broker-stop"));
    }
    return broker.getBrokersAsString();
  }
}
