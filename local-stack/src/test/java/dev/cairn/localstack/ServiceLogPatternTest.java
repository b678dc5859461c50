package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.event.KeyValuePair;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.logging.logback.ExtendedWhitespaceThrowableProxyConverter;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * The console line of each service as deployed (its packaged {@code <service>.yaml}; the local
 * stack logs through its own {@code logback.xml}): the fields a log line carries ({@code
 * addKeyValue}: the key, topic, peer, ...) are printed after the message, where Spring Boot's
 * default pattern drops them.
 */
class ServiceLogPatternTest {

  private static String pattern(String service) throws IOException {
    List<PropertySource<?>> sources =
        new YamlPropertySourceLoader().load(service, new ClassPathResource(service + ".yaml"));
    return (String) sources.get(0).getProperty("logging.pattern.console");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "topology-watcher",
        "health-prober",
        "strategy-engine",
        "record-writer",
        "dns-responder"
      })
  void theConsoleLineCarriesTheFieldsOfTheLogLine(String service) throws IOException {
    String pattern = pattern(service);
    assertThat(pattern).as(service + ".yaml logging.pattern.console").isNotNull();
    assertThat(pattern).isEqualTo(pattern("topology-watcher"));

    LoggerContext context = new LoggerContext();
    PatternLayout layout = new PatternLayout();
    layout.setContext(context);
    // Spring Boot registers its converters before it applies the pattern.
    layout.getInstanceConverterMap().put("wEx", ExtendedWhitespaceThrowableProxyConverter::new);
    layout.setPattern(pattern);
    layout.start();
    LoggingEvent event =
        new LoggingEvent(
            ServiceLogPatternTest.class.getName(),
            context.getLogger("dev.cairn.strategyengine.stream.InputErrorHandler"),
            Level.WARN,
            "Skipping a malformed record",
            null,
            null);
    event.addKeyValuePair(new KeyValuePair("topic", "cairn.topology.gslbs.v1"));
    event.addKeyValuePair(new KeyValuePair("key", "Gslb/shop/pay"));

    assertThat(layout.doLayout(event))
        .contains(" WARN ")
        .contains("InputErrorHandler")
        .contains(
            "Skipping a malformed record topic=\"cairn.topology.gslbs.v1\" key=\"Gslb/shop/pay\"");
    context.stop();
  }
}
