package dev.cairn.commonmodel.codec;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads contract records from JSON after checking the {@link SchemaVersion#HEADER} header.
 *
 * <ul>
 *   <li>A header with a newer major version than {@link SchemaVersion#CURRENT} raises {@link
 *       SchemaVersionException}: the caller must stop reading that topic.
 *   <li>Bad JSON (the text {@code null} included: only a missing value is a tombstone), a header
 *       that is not a version, or a value that breaks a record invariant raises {@link
 *       MalformedRecordException}: the caller logs, counts and skips it.
 *   <li>A message without the header (written by hand with kcat, say) is read as the current
 *       version.
 * </ul>
 *
 * @param <T> the record type
 */
public final class CairnDeserializer<T> implements Deserializer<T> {

  private final JsonMapper mapper;
  private final Class<T> type;

  public CairnDeserializer(Class<T> type) {
    this(type, CairnJson.newMapper());
  }

  public CairnDeserializer(Class<T> type, JsonMapper mapper) {
    this.type = type;
    this.mapper = mapper;
  }

  @Override
  public T deserialize(String topic, byte[] data) {
    if (data == null) {
      return null;
    }
    T value;
    try {
      value = mapper.readValue(data, type);
    } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
      throw new MalformedRecordException(
          "topic " + topic + ": value is not a valid " + type.getSimpleName() + ": " + rootCause(e),
          e);
    }
    if (value == null) {
      // The JSON text "null" is not a tombstone (a record without value); reading it as one would
      // let a hand-written message delete state.
      throw new MalformedRecordException(
          "topic " + topic + ": value is not a valid " + type.getSimpleName() + ": JSON null",
          null);
    }
    return value;
  }

  @Override
  public T deserialize(String topic, Headers headers, byte[] data) {
    if (headers != null) {
      Header header = headers.lastHeader(SchemaVersion.HEADER);
      if (header != null) {
        SchemaVersion found;
        try {
          found = SchemaVersion.parse(header.value());
        } catch (IllegalArgumentException e) {
          throw new MalformedRecordException(
              "topic "
                  + topic
                  + ": "
                  + type.getSimpleName()
                  + " message has a bad header "
                  + SchemaVersion.HEADER
                  + ": "
                  + e.getMessage(),
              e);
        }
        if (!SchemaVersion.CURRENT.canRead(found)) {
          throw new SchemaVersionException(topic, found, SchemaVersion.CURRENT);
        }
      }
    }
    return deserialize(topic, data);
  }

  private static String rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String message = t.getMessage();
    if (message != null) {
      int newline = message.indexOf('\n');
      message = newline > 0 ? message.substring(0, newline) : message;
    }
    return t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }
}
