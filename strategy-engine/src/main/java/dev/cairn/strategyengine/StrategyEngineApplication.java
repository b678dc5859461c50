package dev.cairn.strategyengine;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The strategy-engine: a Kafka Streams application that turns the watcher's topology (routes,
 * Services, endpoints, nodes, Gslbs) and the prober's peer answers and hostname resolutions into
 * target decisions and Gslb statuses for the record-writer.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class StrategyEngineApplication {

  /** The application with its own config file ({@code strategy-engine.yaml}). */
  public static SpringApplicationBuilder builder() {
    return new SpringApplicationBuilder(StrategyEngineApplication.class)
        .properties("spring.config.name=strategy-engine");
  }

  public static void main(String[] args) {
    builder().run(args);
  }
}
