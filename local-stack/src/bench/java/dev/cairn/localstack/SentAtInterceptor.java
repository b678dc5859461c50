package dev.cairn.localstack;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;

/**
 * Benchmark instrumentation for the engine's Kafka Streams producers (performance.md S8: "Kafka
 * headers with produce timestamps"): stamps every record with the wall-clock microseconds of its
 * {@code send} in the {@value #HEADER} header. Kafka Streams gives an output record the timestamp
 * of the input that caused it, so a decision's CreateTime says when the watcher or prober sent that
 * input, not when the engine sent the decision; this header makes the engine-to-writer hop
 * measurable on its own. Never part of the product: the bench sets it through {@code
 * spring.kafka.streams.properties.producer.interceptor.classes}.
 */
public final class SentAtInterceptor implements ProducerInterceptor<Object, Object> {

  /** The header: 8 bytes, big-endian wall-clock epoch microseconds of the producer's send. */
  public static final String HEADER = "cairn-bench-sent-at";

  @Override
  public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
    record
        .headers()
        .add(HEADER, ByteBuffer.allocate(8).putLong(WallClock.micros(System.nanoTime())).array());
    return record;
  }

  /** The stamped send time (epoch µs), {@code -1} when the record has no such header. */
  static long read(Iterable<Header> headers) {
    long sent = -1;
    for (Header header : headers) {
      if (header.key().equals(HEADER) && header.value() != null && header.value().length == 8) {
        sent = ByteBuffer.wrap(header.value()).getLong();
      }
    }
    return sent;
  }

  /**
   * When each record was acknowledged to its producer (epoch µs), by {@code topic/partition/offset},
   * changelogs left out, while {@link #recordAcknowledgements} is on: where a hop's time went, send
   * to append and acknowledgement or the acknowledged record to its consumer.
   */
  private static final Map<String, Long> ACKED = new ConcurrentHashMap<>();

  private static volatile boolean recording;

  /** Starts or stops noting acknowledgements (off: the map does not grow with the whole run). */
  static void recordAcknowledgements(boolean on) {
    recording = on;
  }

  /** Drops every acknowledgement noted. */
  static void forgetAcknowledgements() {
    recording = false;
    ACKED.clear();
  }

  @Override
  public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
    if (recording
        && exception == null
        && metadata != null
        && metadata.hasOffset()
        && !metadata.topic().endsWith("-changelog")) {
      ACKED.put(
          metadata.topic() + "/" + metadata.partition() + "/" + metadata.offset(),
          WallClock.micros(System.nanoTime()));
    }
  }

  /** The acknowledgement time of a record (epoch µs), {@code -1} when not known. */
  static long ackedMicros(String topic, int partition, long offset) {
    return ACKED.getOrDefault(topic + "/" + partition + "/" + offset, -1L);
  }

  @Override
  public void close() {}

  @Override
  public void configure(Map<String, ?> configs) {}
}
