package dev.cairn.strategyengine.stream;

/**
 * What a reconciler needs from the task it runs in: the watcher's sync state, the hold store for
 * deletions that must wait for the sync, the output and the task's clock.
 */
interface Emission {

  /** True when the watcher's view is complete (every sync marker SYNCED). */
  boolean synced();

  /**
   * Holds back a key's NO_TARGETS, WITHDRAW or tombstone until the view is synced, with the event
   * time of what caused it.
   */
  void hold(String key, String outcome);

  /** Forgets a key's held outcome. */
  void release(String key);

  /**
   * Sends an output of the key being decided downstream, with the timestamp and {@code
   * cairn-event-time} of what caused the decision.
   */
  void forward(String key, EngineOutput output);

  /** The timestamp and {@code cairn-event-time} an output forwarded now would carry. */
  Stamp stamp();

  /**
   * Why an encoded output cannot be sent (without its size), or null when it can: one over the
   * record limit ({@code engine.max-output-size}) would fail the producer and stop the engine. A
   * refused output is counted and logged with its key and size; the caller neither forwards nor
   * stores it, so the previous output stays.
   *
   * @param output {@code decision} or {@code status}
   */
  String refusal(String key, String output, byte[] encoded);

  /**
   * Sends an output downstream with the timestamp and event time of an earlier {@link #stamp()}.
   */
  void forward(String key, EngineOutput output, Stamp stamp);

  /**
   * What an output carries of its causes.
   *
   * @param timestamp the record timestamp
   * @param eventTime the {@code cairn-event-time} in epoch milliseconds, or {@link Long#MAX_VALUE}
   *     for none
   */
  record Stamp(long timestamp, long eventTime) {}

  /** The task's wall-clock time in epoch milliseconds (mockable in TopologyTestDriver). */
  long now();
}
