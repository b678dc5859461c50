package dev.cairn.helm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.dnsresponder.config.ResponderProperties;
import dev.cairn.healthprober.config.ProberProperties;
import dev.cairn.recordwriter.config.WriterProperties;
import dev.cairn.strategyengine.config.StrategyEngineProperties;
import dev.cairn.topologywatcher.config.WatcherProperties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/**
 * Each service's properties record as Spring Boot binds it at start: a setting under its prefix
 * that the record does not have (a misspelt name) stops the start with an error naming it, and the
 * same setting spelt right starts.
 */
class UnknownSettingTest {

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties({
    WatcherProperties.class,
    ProberProperties.class,
    StrategyEngineProperties.class,
    WriterProperties.class,
    ResponderProperties.class
  })
  static class Settings {}

  /** What every record needs to bind at all: the prober's geo tag and the responder's zone. */
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withUserConfiguration(Settings.class)
          .withPropertyValues("prober.geo-tag=eu", "responder.zones[0].name=cloud.example.com");

  @ParameterizedTest(name = "{1} is refused, {0} starts")
  @CsvSource({
    "watcher.resync-period=5m,   watcher.resync-perod=5m",
    "prober.query-timeout=2s,    prober.query-timout=2s",
    "engine.commit-interval=2s,  engine.comit-interval=2s",
    "writer.grace-period=2m,     writer.grace-perod=2m",
    "responder.default-ttl=60s,  responder.defualt-ttl=60s",
  })
  void aMisspeltSettingStopsTheStartNamingIt(String good, String misspelt) {
    runner.withPropertyValues(good).run(context -> assertThat(context).hasNotFailed());
    runner
        .withPropertyValues(misspelt)
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .hasRootCauseInstanceOf(UnboundConfigurationPropertiesException.class)
                    .rootCause()
                    .hasMessageContaining(misspelt.substring(0, misspelt.indexOf('='))));
  }
}
