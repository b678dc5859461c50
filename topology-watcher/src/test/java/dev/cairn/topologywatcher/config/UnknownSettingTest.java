package dev.cairn.topologywatcher.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/**
 * A setting under {@code watcher.} that {@link WatcherProperties} does not have (a misspelt name)
 * stops the start with an error naming it, instead of being ignored.
 */
class UnknownSettingTest {

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(WatcherProperties.class)
  static class Settings {}

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withUserConfiguration(Settings.class);

  @Test
  void theSettingsAsWrittenStart() {
    runner
        .withPropertyValues("watcher.resync-period=5m")
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void aMisspeltSettingStopsTheStartNamingIt() {
    runner
        .withPropertyValues("watcher.resync-perod=5m")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .hasRootCauseInstanceOf(UnboundConfigurationPropertiesException.class)
                    .rootCause()
                    .hasMessageContaining("watcher.resync-perod"));
  }
}
