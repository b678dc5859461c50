package dev.cairn.commonmodel.codec;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes contract records as JSON and stamps the {@link SchemaVersion#HEADER} header. A {@code
 * null} value (a tombstone) is written as {@code null}.
 *
 * @param <T> the record type
 */
public final class CairnSerializer<T> implements Serializer<T> {

  private final JsonMapper mapper;

  public CairnSerializer() {
    this(CairnJson.newMapper());
  }

  public CairnSerializer(JsonMapper mapper) {
    this.mapper = mapper;
  }

  @Override
  public byte[] serialize(String topic, T data) {
    return data == null ? null : mapper.writeValueAsBytes(data);
  }

  @Override
  public byte[] serialize(String topic, Headers headers, T data) {
    if (headers != null) {
      headers.remove(SchemaVersion.HEADER);
      headers.add(SchemaVersion.HEADER, SchemaVersion.CURRENT.toHeader());
    }
    return serialize(topic, data);
  }
}
