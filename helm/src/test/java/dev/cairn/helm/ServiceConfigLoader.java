package dev.cairn.helm;

import dev.cairn.healthprober.peer.ServerAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Loads a service's settings the way the service does at start: Spring Boot's config data
 * processing with {@code spring.config.name=<service>} (the packaged {@code <service>.yaml}), over
 * it the files of {@code spring.config.additional-location}, over those the given environment
 * variables, in place of the process's own. No bean runs.
 */
final class ServiceConfigLoader {

  private ServiceConfigLoader() {}

  /** An application with no beans: only Spring Boot's config loading runs. */
  @Configuration(proxyBeanMethods = false)
  static class NoBeans {}

  static ConfigurableEnvironment load(String service, Map<String, String> environmentVariables) {
    StandardEnvironment environment = new StandardEnvironment();
    environment
        .getPropertySources()
        .replace(
            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new LinkedHashMap<>(environmentVariables)));
    try (ConfigurableApplicationContext context =
        new SpringApplicationBuilder(NoBeans.class)
            .environment(environment)
            .web(WebApplicationType.NONE)
            .logStartupInfo(false)
            .properties("spring.config.name=" + service, "spring.main.banner-mode=off")
            .run()) {
      return context.getEnvironment();
    }
  }

  static Binder binder(ConfigurableEnvironment environment) {
    return Binder.get(environment);
  }

  /**
   * The prober binds its server addresses with a converter of its own (a
   * {@code @ConfigurationPropertiesBinding} bean): the same conversion, given to the binder.
   */
  static Binder proberBinder(ConfigurableEnvironment environment) {
    ApplicationConversionService conversion = new ApplicationConversionService();
    conversion.addConverter(
        String.class,
        ServerAddress.class,
        s -> ServerAddress.require("server address", s, ServerAddress.DNS_PORT));
    return new Binder(ConfigurationPropertySources.get(environment), null, conversion);
  }
}
