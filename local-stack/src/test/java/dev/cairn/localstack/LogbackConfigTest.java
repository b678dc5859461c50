package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.joran.spi.JoranException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local stack's {@code logback.xml}, loaded as the application sets it up for each mode. */
class LogbackConfigTest {

  @TempDir Path dir;

  private final LoggerContext context = new LoggerContext();

  @AfterEach
  void stop() {
    context.stop();
  }

  private Logger root(Map<String, String> properties) throws JoranException {
    context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
    properties.forEach(context::putProperty);
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    configurator.doConfigure(LogbackConfigTest.class.getClassLoader().getResource("logback.xml"));
    return context.getLogger(Logger.ROOT_LOGGER_NAME);
  }

  private static List<String> appenders(Logger logger) {
    List<String> names = new ArrayList<>();
    for (var it = logger.iteratorForAppenders(); it.hasNext(); ) {
      Appender<?> a = it.next();
      names.add(a.getName());
    }
    return names;
  }

  @Test
  void byDefaultEverythingGoesToTheConsoleOnce() throws JoranException {
    assertThat(appenders(root(Map.of()))).containsExactly("CONSOLE");
  }

  @Test
  void theLiveViewOnATerminalLogsToTheFileOnly() throws JoranException {
    Logger root =
        root(
            Map.of(
                "cairn.log.appender",
                "FILE",
                "cairn.log.file",
                dir.resolve("stack.log").toString()));
    assertThat(appenders(root)).containsExactly("FILE");
  }

  @Test
  void aScenarioLogsToTheFileAndItsErrorsToTheConsole() throws JoranException, IOException {
    Path file = dir.resolve("stack.log");
    Logger root =
        root(
            Map.of(
                "cairn.log.appender", "FILE",
                "cairn.log.errors", "ERRORS",
                "cairn.log.file", file.toString()));
    assertThat(appenders(root)).containsExactly("FILE", "ERRORS");
    assertThat(root.getAppender("ERRORS").getCopyOfAttachedFiltersList())
        .singleElement()
        .isInstanceOf(ch.qos.logback.classic.filter.ThresholdFilter.class);

    ClusterThreads.Group eu = new ClusterThreads.Group("eu");
    eu.run(
        "log",
        () ->
            context
                .getLogger("dev.cairn.recordwriter.RecordReconciler")
                .info("created DNSEndpoint default/app (PUBLISH)"));
    context.getLogger("dev.cairn.localstack.LocalStack").info("stack line");
    context.stop();

    assertThat(Files.readAllLines(file))
        .anySatisfy(
            l -> assertThat(l).contains("INFO  eu RecordReconciler ").contains("default/app"))
        .anySatisfy(l -> assertThat(l).contains("INFO     LocalStack "));
  }
}
