package dev.cairn.recordwriter;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The record-writer: turns the strategy-engine's target decisions into DNSEndpoint objects (plan,
 * then apply), owning what it writes, keeping records through a grace period, and writing only
 * while it holds the leader lease. Cairn's only writer to the Kubernetes API.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class RecordWriterApplication {

  /**
   * A builder reading {@code record-writer.yaml}, so every service can run in one JVM without an
   * {@code application.yaml} shadowing the others.
   */
  public static SpringApplicationBuilder builder() {
    return new SpringApplicationBuilder(RecordWriterApplication.class)
        .properties("spring.config.name=record-writer");
  }

  public static void main(String[] args) {
    builder().run(args);
  }
}
