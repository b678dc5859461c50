package dev.cairn.strategyengine;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Records the topic of every record the engine's Streams producers send, per key, in send order
 * (set through {@code spring.kafka.streams.properties.producer.interceptor.classes}).
 */
public final class SendOrder implements ProducerInterceptor<Object, Object> {

  private static final List<String[]> SENT = new ArrayList<>();

  @Override
  public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
    Object key = record.key();
    String text =
        key instanceof byte[] bytes
            ? new String(bytes, StandardCharsets.UTF_8)
            : String.valueOf(key);
    synchronized (SENT) {
      SENT.add(new String[] {text, record.topic()});
    }
    return record;
  }

  /** The topics of the records sent with {@code key}, in send order. */
  public static List<String> topicsOf(String key) {
    synchronized (SENT) {
      return SENT.stream().filter(s -> s[0].equals(key)).map(s -> s[1]).toList();
    }
  }

  @Override
  public void onAcknowledgement(RecordMetadata metadata, Exception exception) {}

  @Override
  public void close() {}

  @Override
  public void configure(Map<String, ?> configs) {}
}
