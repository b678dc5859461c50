package dev.cairn.strategyengine.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/**
 * A setting under {@code engine.} that {@link StrategyEngineProperties} does not have (a misspelt
 * name) stops the start with an error naming it, instead of being ignored.
 */
class UnknownSettingTest {

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(StrategyEngineProperties.class)
  static class Settings {}

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withUserConfiguration(Settings.class);

  @Test
  void theSettingsAsWrittenStart() {
    runner
        .withPropertyValues("engine.commit-interval=2s")
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void aMisspeltSettingStopsTheStartNamingIt() {
    runner
        .withPropertyValues("engine.comit-interval=2s")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .hasRootCauseInstanceOf(UnboundConfigurationPropertiesException.class)
                    .rootCause()
                    .hasMessageContaining("engine.comit-interval"));
  }
}
