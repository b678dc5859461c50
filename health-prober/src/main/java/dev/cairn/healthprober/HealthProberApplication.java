package dev.cairn.healthprober;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The health-prober: probes every peer cluster's DNS for {@code localtargets-<host>} of every Gslb
 * host and publishes what it hears ({@code cairn.health.peer-answers.v1}), and resolves node
 * hostname targets for routes that ask for it ({@code cairn.health.hostname-resolutions.v1}).
 * Configuration: prefix {@code prober}, file {@code health-prober.yaml}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class HealthProberApplication {

  /** The application, reading {@code health-prober.yaml} so that it can share a JVM. */
  public static SpringApplicationBuilder builder() {
    return new SpringApplicationBuilder(HealthProberApplication.class)
        .properties("spring.config.name=health-prober");
  }

  public static void main(String[] args) {
    builder().run(args);
  }
}
