package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Streams' production handler for the engine's outputs: a record too large for Kafka is
 * logged with its topic and key, counted and dropped, so one oversized output cannot stop the
 * engine; every other send failure fails it as before. The decisions and statuses are checked
 * against {@code engine.max-output-size} before they are sent ({@link Emission#refusal}); this
 * catches what is larger than the broker or topic accepts even so (a topic's {@code
 * max.message.bytes} set lower than the engine's limit).
 *
 * <p>Streams creates the handler itself; the shared {@link InputErrors} arrives through the
 * configuration entry {@value InputErrorHandler#INPUT_ERRORS_CONFIG}.
 */
public final class OutputErrorHandler implements ProductionExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(OutputErrorHandler.class);

  private InputErrors errors = new InputErrors(EngineMetrics.NONE);

  @Override
  public void configure(Map<String, ?> configs) {
    if (configs.get(InputErrorHandler.INPUT_ERRORS_CONFIG) instanceof InputErrors configured) {
      errors = configured;
    }
  }

  @Override
  public ProductionExceptionHandlerResponse handle(
      ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
    if (!(exception instanceof RecordTooLargeException)) {
      return ProductionExceptionHandlerResponse.FAIL;
    }
    String output = record.topic().endsWith(Topics.GSLB_STATUS.name()) ? "status" : "decision";
    errors.outputTooLarge(output);
    log.atError()
        .addKeyValue("topic", record.topic())
        .addKeyValue("key", keyText(record.key()))
        .addKeyValue("bytes", record.value() == null ? 0 : record.value().length)
        .addKeyValue("error", exception.getMessage())
        .log(
            "Dropping an output Kafka refuses as too large; the previous one stays on the topic."
                + " Lower engine.max-output-size below the topic's max.message.bytes");
    return ProductionExceptionHandlerResponse.CONTINUE;
  }

  /** A record key as text for a log line, cut at 300 characters. */
  static String keyText(byte[] key) {
    if (key == null) {
      return "<none>";
    }
    String text = new String(key, StandardCharsets.UTF_8);
    return text.length() > 300 ? text.substring(0, 300) + "…" : text;
  }
}
