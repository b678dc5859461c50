package dev.cairn.commonmodel.codec;

import org.apache.kafka.common.errors.SerializationException;

/** A message could not be decoded as the topic's value type (bad JSON or a broken invariant). */
public final class MalformedRecordException extends SerializationException {

  public MalformedRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
