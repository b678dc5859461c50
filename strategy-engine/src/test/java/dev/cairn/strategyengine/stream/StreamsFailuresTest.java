package dev.cairn.strategyengine.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.codec.SchemaVersion;
import dev.cairn.commonmodel.codec.SchemaVersionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

class StreamsFailuresTest {

  private final InputErrors inputErrors = new InputErrors(EngineMetrics.NONE);
  private final AtomicInteger fatal = new AtomicInteger();
  private final StreamsFailures failures = new StreamsFailures(inputErrors, fatal::incrementAndGet);

  @Test
  void aSchemaStopShutsDownWithoutAskingForARestart() {
    StreamsException e =
        new StreamsException(
            new SchemaVersionException("t", new SchemaVersion(2, 0), SchemaVersion.CURRENT));

    assertThat(failures.handle(e)).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    assertThat(inputErrors.stopReason()).isPresent();
    assertThat(failures.failure()).isEmpty();
    assertThat(fatal).hasValue(0);
  }

  @Test
  void anyOtherFailureShutsDownAndIsReportedOnce() {
    failures.handle(new StreamsException(new IllegalStateException("disk full")));
    failures.handle(new StreamsException(new IllegalStateException("again")));

    assertThat(failures.failure()).hasValueSatisfying(f -> assertThat(f).contains("disk full"));
    assertThat(fatal).hasValue(1);
  }
}
