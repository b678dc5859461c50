package dev.cairn.commonmodel.codec;

import org.apache.kafka.common.errors.SerializationException;

/**
 * A message was written with a newer major version of the contract than this service knows. The
 * consumer stops reading the topic (nothing is committed past it) and reports this in its health,
 * so that upgrading the service resumes from the same place.
 */
public final class SchemaVersionException extends SerializationException {

  private final String topic;
  private final SchemaVersion found;

  public SchemaVersionException(String topic, SchemaVersion found, SchemaVersion supported) {
    super(
        "topic "
            + topic
            + " has a message of schema version "
            + found
            + ", newer than the supported "
            + supported
            + "; stopped reading it until this service is upgraded");
    this.topic = topic;
    this.found = found;
  }

  /** The topic that carried the message. */
  public String topic() {
    return topic;
  }

  /** The version found in the header. */
  public SchemaVersion found() {
    return found;
  }
}
