package dev.cairn.commonmodel.codec;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The {@value #HEADER} Kafka header: when the Kubernetes event that caused a record was observed,
 * as epoch milliseconds in decimal ASCII (readable with {@code kcat -f '%h'}).
 *
 * <p>The topology-watcher stamps it on every state record it publishes (the earliest event not yet
 * published for that key), and the record-writer measures from it to the write at the API server
 * ({@code cairn.writer.event.to.write}) for decisions that carry it. The strategy-engine carries it
 * to its decisions and Gslb statuses: the earliest event time among the inputs coalesced into a
 * decision, or the time it decided one caused by time alone (docs/contracts.md). A record without
 * the header (older producers, the prober's answers, state re-published at start) simply has no
 * event time; readers must not require it.
 */
public final class EventTime {

  /** The header name. */
  public static final String HEADER = "cairn-event-time";

  private EventTime() {}

  /** Sets the header (replacing any earlier one). */
  public static void stamp(Headers headers, Instant eventTime) {
    headers.remove(HEADER);
    headers.add(
        HEADER, Long.toString(eventTime.toEpochMilli()).getBytes(StandardCharsets.US_ASCII));
  }

  /** The event time in the headers; empty when the header is absent or not a decimal number. */
  public static Optional<Instant> read(Headers headers) {
    if (headers == null) {
      return Optional.empty();
    }
    Header h = headers.lastHeader(HEADER);
    if (h == null || h.value() == null || h.value().length == 0 || h.value().length > 19) {
      return Optional.empty();
    }
    long millis = 0;
    for (byte b : h.value()) {
      if (b < '0' || b > '9') {
        return Optional.empty();
      }
      millis = millis * 10 + (b - '0');
    }
    return Optional.of(Instant.ofEpochMilli(millis));
  }
}
