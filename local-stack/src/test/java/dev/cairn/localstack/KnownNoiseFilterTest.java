package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.FilterReply;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KnownNoiseFilterTest {

  private final LoggerContext context = new LoggerContext();
  private final KnownNoiseFilter filter = new KnownNoiseFilter();

  private FilterReply decide(String logger, Level level, String message) {
    return filter.decide(
        new LoggingEvent(
            KnownNoiseFilterTest.class.getName(),
            context.getLogger(logger),
            level,
            message,
            null,
            null));
  }

  /** The warnings a start and stop of the embedded stack printed (2026-11-30), word for word. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "org.apache.kafka.clients.NetworkClient|[Consumer clientId=cairn-strategy-engine-eu-04fa-StreamThread-1-consumer, groupId=cairn-strategy-engine-eu] The metadata response from the cluster reported a recoverable issue with correlation id 12 : {cairn-strategy-engine-eu-sync-broadcast-repartition=UNKNOWN_TOPIC_OR_PARTITION, cairn-strategy-engine-eu-nodes-broadcast-repartition=UNKNOWN_TOPIC_OR_PARTITION}",
        "org.apache.kafka.clients.NetworkClient|[NodeToControllerChannelManager id=0 name=registration] Attempting to close NetworkClient that has already been closed.",
        "org.apache.kafka.streams.processor.internals.StateDirectory|Using an OS temp directory in the state.dir property can cause failures with writing the checkpoint file due to the fact that this directory can be cleared by the OS. Resolved state.dir: [/tmp/cairn-local-stack1/eu/streams]",
        "org.apache.kafka.controller.QuorumController|[QuorumController id=0] Performing controller activation. The metadata log appears to be empty.",
        "org.apache.kafka.clients.consumer.internals.OffsetFetcherUtils|[Consumer clientId=x-global-consumer, groupId=null] Not updating high watermark for partition eu.cairn.health.peer-answers.v1-0 as it is no longer assigned",
        "io.fabric8.kubernetes.client.utils.internal.VersionUsageUtils|The client is using resource type 'dnsendpoints' with unstable version 'v1alpha1'",
        "io.fabric8.kubernetes.client.utils.internal.VersionUsageUtils|The client is using resource type 'gslbs' with unstable version 'v1beta1'",
      })
  void leavesOutTheKnownStartAndStopWarnings(String logger, String message) {
    assertThat(decide(logger, Level.WARN, message)).isEqualTo(FilterReply.DENY);
  }

  /** Kafka's storage formatter prints this to standard output (2026-12-02); StdoutToLog logs it. */
  @Test
  void leavesOutTheBrokersStorageFormattingLine() {
    assertThat(
            decide(
                StdoutToLog.LOGGER_NAME,
                Level.INFO,
                "Formatting metadata directory /tmp/kafka-16493314578368007913/combined_0_0 with"
                    + " metadata.version 4.2-IV1."))
        .isEqualTo(FilterReply.DENY);
    assertThat(decide(StdoutToLog.LOGGER_NAME, Level.INFO, "something else the broker printed"))
        .isEqualTo(FilterReply.NEUTRAL);
  }

  @Test
  void theBrokersStorageFormattingLineIsLoggedNotPrinted() {
    List<String> logged = new ArrayList<>();
    java.io.PrintStream before = System.out;

    String result =
        StdoutToLog.capture(
            logged::add,
            () -> {
              System.out.printf(
                  "Formatting %s %s with %s %s.%n",
                  "metadata directory", "/tmp/kafka-1/combined_0_0", "metadata.version", "4.2-IV1");
              System.out.print("a last line without a line break");
              return "started";
            });

    assertThat(result).isEqualTo("started");
    assertThat(System.out).isSameAs(before);
    assertThat(logged)
        .containsExactly(
            "Formatting metadata directory /tmp/kafka-1/combined_0_0 with metadata.version 4.2-IV1.",
            "a last line without a line break");
    assertThat(decide(StdoutToLog.LOGGER_NAME, Level.INFO, logged.get(0)))
        .isEqualTo(FilterReply.DENY);
  }

  @Test
  void standardOutputIsRestoredWhenTheStepFails() {
    java.io.PrintStream before = System.out;
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                StdoutToLog.capture(
                    line -> {},
                    () -> {
                      throw new IllegalStateException("broker failed");
                    }))
        .hasMessage("broker failed");
    assertThat(System.out).isSameAs(before);
  }

  @Test
  void keepsAMissingTopicOfCairnsOwn() {
    String message =
        "The metadata response from the cluster reported a recoverable issue with correlation id 7"
            + " : {cairn-strategy-engine-eu-sync-broadcast-repartition=UNKNOWN_TOPIC_OR_PARTITION,"
            + " eu.cairn.decision.targets.v1=UNKNOWN_TOPIC_OR_PARTITION}";
    assertThat(decide("org.apache.kafka.clients.NetworkClient", Level.WARN, message))
        .isEqualTo(FilterReply.NEUTRAL);
  }

  @Test
  void keepsAnInternalTopicWithAnotherError() {
    String message =
        "The metadata response from the cluster reported a recoverable issue with correlation id 7"
            + " : {cairn-strategy-engine-eu-sync-broadcast-repartition=TOPIC_AUTHORIZATION_FAILED}";
    assertThat(decide("org.apache.kafka.clients.NetworkClient", Level.WARN, message))
        .isEqualTo(FilterReply.NEUTRAL);
  }

  @Test
  void keepsTheSameLoggersOtherWarnings() {
    assertThat(
            decide(
                "org.apache.kafka.clients.NetworkClient",
                Level.WARN,
                "[Producer clientId=p] Connection to node -1 (localhost/127.0.0.1:9092) could not be"
                    + " established. Node may not be available."))
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(
            decide(
                "io.fabric8.kubernetes.client.utils.internal.VersionUsageUtils",
                Level.WARN,
                "The client is using resource type 'widgets' with unstable version 'v1alpha1'"))
        .isEqualTo(FilterReply.NEUTRAL);
  }

  @Test
  void keepsErrorsAndOtherLoggers() {
    assertThat(
            decide(
                "org.apache.kafka.streams.processor.internals.StateDirectory",
                Level.ERROR,
                "Using an OS temp directory in the state.dir property"))
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(
            decide(
                "dev.cairn.healthprober.probe.ProbeScheduler",
                Level.WARN,
                "Using an OS temp directory in the state.dir property"))
        .isEqualTo(FilterReply.NEUTRAL);
  }
}
