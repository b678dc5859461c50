package dev.cairn.helm;

import dev.cairn.healthprober.peer.ServerAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.ConversionService;
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

  /**
   * Binds as the services bind their properties records ({@code ignoreUnknownFields = false}): a
   * setting under the prefix that the record does not have, from a file or the command line, fails
   * the bind, naming it (the environment and system properties are not checked, as in Spring Boot).
   */
  private static final BindHandler AS_THE_SERVICES =
      new NoUnboundElementsBindHandler(BindHandler.DEFAULT, new UnboundElementsSourceFilter());

  static Binder binder(ConfigurableEnvironment environment) {
    return binder(environment, ApplicationConversionService.getSharedInstance());
  }

  private static Binder binder(ConfigurableEnvironment environment, ConversionService conversion) {
    return new Binder(
        ConfigurationPropertySources.get(environment),
        new PropertySourcesPlaceholdersResolver(environment),
        conversion,
        null,
        AS_THE_SERVICES);
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
    return binder(environment, conversion);
  }
}
