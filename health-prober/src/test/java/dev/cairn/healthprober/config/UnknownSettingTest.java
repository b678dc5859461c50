package dev.cairn.healthprober.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/**
 * A setting under {@code prober.} that {@link ProberProperties} does not have (a misspelt name)
 * stops the start with an error naming it, instead of being ignored.
 */
class UnknownSettingTest {

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(ProberProperties.class)
  static class Settings {}

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withUserConfiguration(Settings.class)
          .withPropertyValues("prober.geo-tag=eu");

  @Test
  void theSettingsAsWrittenStart() {
    runner
        .withPropertyValues("prober.query-timeout=2s")
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void aMisspeltSettingStopsTheStartNamingIt() {
    runner
        .withPropertyValues("prober.query-timout=2s")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .hasRootCauseInstanceOf(UnboundConfigurationPropertiesException.class)
                    .rootCause()
                    .hasMessageContaining("prober.query-timout"));
  }
}
