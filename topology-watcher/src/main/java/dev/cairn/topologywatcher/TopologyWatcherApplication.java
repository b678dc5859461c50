package dev.cairn.topologywatcher;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The topology-watcher: Cairn's only reader of the Kubernetes API for topology. It watches
 * HTTPRoutes, Gateways, Ingresses, Services, EndpointSlices, Nodes and Gslbs and publishes their
 * normalised state to the {@code cairn.topology.*} topics. Composition root only; beans are
 * declared in {@code config}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class TopologyWatcherApplication {

  /** The application with its own config file ({@code topology-watcher.yaml}). */
  public static SpringApplicationBuilder builder() {
    return new SpringApplicationBuilder(TopologyWatcherApplication.class)
        .properties("spring.config.name=topology-watcher");
  }

  public static void main(String[] args) {
    builder().run(args);
  }
}
