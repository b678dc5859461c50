package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.codec.SchemaVersionException;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Streams' deserialization handler for the engine's inputs: a malformed record is logged with
 * its topic, partition and offset, counted and skipped; a record of a newer schema version fails
 * the engine (nothing past it is read, the health says why) so that an upgrade resumes from the
 * same place.
 *
 * <p>Streams creates the handler itself; the shared {@link InputErrors} arrives through the
 * configuration entry {@value #INPUT_ERRORS_CONFIG}.
 */
public final class InputErrorHandler implements DeserializationExceptionHandler {

  /** The Streams configuration entry holding the {@link InputErrors} instance. */
  public static final String INPUT_ERRORS_CONFIG = "cairn.engine.input-errors";

  private static final Logger log = LoggerFactory.getLogger(InputErrorHandler.class);

  private InputErrors errors = new InputErrors(EngineMetrics.NONE);

  @Override
  public void configure(Map<String, ?> configs) {
    if (configs.get(INPUT_ERRORS_CONFIG) instanceof InputErrors configured) {
      errors = configured;
    }
  }

  @Override
  public DeserializationHandlerResponse handle(
      ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
    SchemaVersionException schema = schemaVersion(exception);
    if (schema != null) {
      String reason =
          schema.getMessage()
              + " (partition "
              + context.partition()
              + ", offset "
              + context.offset()
              + ")";
      errors.stopped(reason);
      log.atError()
          .addKeyValue("topic", context.topic())
          .addKeyValue("partition", context.partition())
          .addKeyValue("offset", context.offset())
          .addKeyValue("found", schema.found())
          .log("Stopping the engine: a record has a newer schema version than it understands");
      return DeserializationHandlerResponse.FAIL;
    }
    errors.malformed(context.topic());
    log.atWarn()
        .addKeyValue("topic", context.topic())
        .addKeyValue("partition", context.partition())
        .addKeyValue("offset", context.offset())
        .addKeyValue("key", OutputErrorHandler.keyText(record.key()))
        .addKeyValue("error", exception.getMessage())
        .log("Skipping a malformed record");
    return DeserializationHandlerResponse.CONTINUE;
  }

  private static SchemaVersionException schemaVersion(Throwable exception) {
    for (Throwable t = exception; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SchemaVersionException found) {
        return found;
      }
    }
    return null;
  }
}
