package dev.cairn.strategyengine.api;

/** The decision store cannot be queried now (Streams not RUNNING, or a rebalance moved it). */
final class StreamsUnavailableException extends RuntimeException {

  StreamsUnavailableException(String message) {
    super(message);
  }

  StreamsUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
