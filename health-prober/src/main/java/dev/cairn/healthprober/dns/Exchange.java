package dev.cairn.healthprober.dns;

import dev.cairn.healthprober.peer.ServerAddress;

/**
 * The end of one query sent to one server: a reply that matched, or why there is none.
 *
 * @param server the server asked
 * @param reply the reply, {@code null} on failure
 * @param failure why there is no reply, {@code null} when there is one
 * @param detail a short explanation of a failure, empty otherwise
 * @param rttNanos the time from sending to the reply (or the failure)
 * @param tcp true when the reply came over TCP after a truncated UDP reply
 */
record Exchange(
    ServerAddress server,
    WireReply reply,
    Failure failure,
    String detail,
    long rttNanos,
    boolean tcp) {

  /** Why a query has no reply. */
  enum Failure {
    /** Nothing arrived in time. */
    TIMEOUT,
    /** Only packets that could not be parsed arrived from the server with the query's ID. */
    MALFORMED,
    /** Only replies with the query's ID but another question arrived. */
    MISMATCHED,
    /** Sending failed, or the TCP retry failed. */
    TRANSPORT
  }

  static Exchange answered(ServerAddress server, WireReply reply, long rttNanos, boolean tcp) {
    return new Exchange(server, reply, null, "", rttNanos, tcp);
  }

  static Exchange failed(ServerAddress server, Failure failure, String detail, long rttNanos) {
    return new Exchange(server, null, failure, detail, rttNanos, false);
  }
}
