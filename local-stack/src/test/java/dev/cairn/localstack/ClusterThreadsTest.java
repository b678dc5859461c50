package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ClusterThreadsTest {

  private final ClusterThreads.Group eu = new ClusterThreads.Group("eu");

  @Test
  void threadsThatALibraryStartsOnAClusterThreadCarryTheCluster() throws Exception {
    // As Kafka, Tomcat or fabric8 do: a pool made while the service starts, its threads later.
    ExecutorService library = eu.call("start", () -> Executors.newSingleThreadExecutor());
    try {
      AtomicReference<String> nested = new AtomicReference<>();
      String pooled =
          library
              .submit(
                  () -> {
                    Thread t = new Thread(() -> nested.set(ClusterThreads.current()), "kafka-x");
                    t.start();
                    t.join();
                    return ClusterThreads.current();
                  })
              .get(10, TimeUnit.SECONDS);

      assertThat(pooled).isEqualTo("eu");
      assertThat(nested.get()).isEqualTo("eu");
      assertThat(ClusterThreads.current()).isNull();
    } finally {
      library.shutdownNow();
    }
  }

  @Test
  void aLogLineNamesTheClusterOfItsThread() {
    LoggerContext context = new LoggerContext();
    LoggingEvent event =
        new LoggingEvent(
            ClusterThreadsTest.class.getName(),
            context.getLogger("dev.cairn.recordwriter.RecordReconciler"),
            Level.INFO,
            "created DNSEndpoint default/app (PUBLISH)",
            null,
            null);
    ClusterConverter converter = new ClusterConverter();

    assertThat(eu.call("log", () -> converter.convert(event))).isEqualTo("eu");
    assertThat(new ClusterThreads.Group("us").call("log", () -> converter.convert(event)))
        .isEqualTo("us");
    assertThat(converter.convert(event)).isEmpty();
  }

  @Test
  void aTaskThatFailsFailsTheCaller() {
    assertThatThrownBy(
            () ->
                eu.run(
                    "start",
                    () -> {
                      throw new IllegalStateException("eu/record-writer failed to start");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("eu/record-writer failed to start");
  }

  @Test
  void threadsAreNamedAfterTheirClusterAndRole() {
    assertThat(eu.call("start", () -> Thread.currentThread().getName())).matches("eu-start-\\d+");
    assertThat(eu.factory("start").newThread(() -> {}).getThreadGroup()).isSameAs(eu);
  }
}
