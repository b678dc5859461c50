package dev.cairn.commonmodel.codec;

import dev.cairn.commonmodel.TopicSpec;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The Serde of a contract record, for Kafka Streams and for plain clients.
 *
 * @param <T> the record type
 */
public final class CairnSerde<T> implements Serde<T> {

  private final CairnSerializer<T> serializer;
  private final CairnDeserializer<T> deserializer;

  public CairnSerde(Class<T> type) {
    this.serializer = new CairnSerializer<>();
    this.deserializer = new CairnDeserializer<>(type);
  }

  /** The Serde of a topic's value type. */
  public static <T> CairnSerde<T> of(TopicSpec<T> topic) {
    return new CairnSerde<>(topic.valueType());
  }

  @Override
  public Serializer<T> serializer() {
    return serializer;
  }

  @Override
  public Deserializer<T> deserializer() {
    return deserializer;
  }
}
