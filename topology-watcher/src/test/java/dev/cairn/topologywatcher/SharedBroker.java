package dev.cairn.topologywatcher;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One embedded KRaft broker for every integration test of the module (starting one takes seconds);
 * tests isolate themselves with a topic prefix each.
 */
final class SharedBroker {

  private static EmbeddedKafkaKraftBroker broker;

  private SharedBroker() {}

  static synchronized String bootstrapServers() {
    if (broker == null) {
      broker = new EmbeddedKafkaKraftBroker(1, 1);
      broker.afterPropertiesSet();
      Runtime.getRuntime().addShutdownHook(new Thread(broker::destroy));
    }
    return broker.getBrokersAsString();
  }
}
