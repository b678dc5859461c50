package dev.cairn.dnsresponder.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/**
 * A setting under {@code responder.} that {@link ResponderProperties} does not have (a misspelt
 * name) stops the start with an error naming it, instead of being ignored.
 */
class UnknownSettingTest {

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(ResponderProperties.class)
  static class Settings {}

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withUserConfiguration(Settings.class)
          .withPropertyValues("responder.zones[0].name=cloud.example.com");

  @Test
  void theSettingsAsWrittenStart() {
    runner
        .withPropertyValues("responder.default-ttl=60s")
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void aMisspeltSettingStopsTheStartNamingIt() {
    runner
        .withPropertyValues("responder.defualt-ttl=60s")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .hasRootCauseInstanceOf(UnboundConfigurationPropertiesException.class)
                    .rootCause()
                    .hasMessageContaining("responder.defualt-ttl"));
  }
}
