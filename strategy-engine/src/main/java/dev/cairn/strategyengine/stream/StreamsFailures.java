package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.codec.SchemaVersionException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens when a stream thread dies: the engine shuts its Kafka Streams client down (a
 * replacement thread would meet the same record again) and remembers why, for the health. A
 * schema-version stop is expected to last until the engine is upgraded; any other failure is
 * reported to {@code onFatal} so the application can mark itself broken and be restarted.
 */
public final class StreamsFailures implements StreamsUncaughtExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(StreamsFailures.class);

  private final InputErrors inputErrors;
  private final Runnable onFatal;
  private final AtomicReference<String> failure = new AtomicReference<>();

  /**
   * @param inputErrors where schema-version stops are recorded
   * @param onFatal called once for a failure that a restart may cure
   */
  public StreamsFailures(InputErrors inputErrors, Runnable onFatal) {
    this.inputErrors = inputErrors;
    this.onFatal = onFatal;
  }

  @Override
  public StreamThreadExceptionResponse handle(Throwable exception) {
    if (isSchemaStop(exception)) {
      inputErrors.stopped(rootMessage(exception));
      log.atError()
          .addKeyValue("reason", inputErrors.stopReason().orElse(""))
          .log("Kafka Streams stopped on a record of a newer schema version; upgrade the engine");
    } else if (failure.compareAndSet(null, rootMessage(exception))) {
      log.atError().setCause(exception).log("Kafka Streams failed; shutting the client down");
      onFatal.run();
    }
    return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
  }

  /** Why Kafka Streams failed, other than a schema-version stop. */
  public Optional<String> failure() {
    return Optional.ofNullable(failure.get());
  }

  private boolean isSchemaStop(Throwable exception) {
    for (Throwable t = exception; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SchemaVersionException) {
        return true;
      }
    }
    return inputErrors.stopReason().isPresent();
  }

  private static String rootMessage(Throwable exception) {
    Throwable t = exception;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }
}
