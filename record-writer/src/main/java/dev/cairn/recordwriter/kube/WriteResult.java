package dev.cairn.recordwriter.kube;

import java.util.Objects;

/**
 * What became of one planned write.
 *
 * @param status the result
 * @param detail a sentence for logs and the explain API
 */
public record WriteResult(Status status, String detail) {

  /** The result of a write. */
  public enum Status {
    /** Written. */
    DONE,
    /**
     * Refused with 409: the object changed since it was read, or the name is taken. The object has
     * been read again; plan again from it, never resend the same write.
     */
    CONFLICT,
    /** The object to update or delete no longer exists (a delete counts as done). */
    GONE,
    /** Not sent or refused as invalid (CRD schema, 422); retrying the same write cannot help. */
    INVALID,
    /** The API call failed (network, 5xx, forbidden); plan again later. */
    FAILED,
    /** Not sent: this instance may not write (not the leader, or shutting down). */
    SKIPPED
  }

  public WriteResult {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(detail, "detail");
  }

  /** The result as a metric tag: ok, conflict, not_found, invalid, error or skipped. */
  public String tag() {
    return switch (status) {
      case DONE -> "ok";
      case CONFLICT -> "conflict";
      case GONE -> "not_found";
      case INVALID -> "invalid";
      case FAILED -> "error";
      case SKIPPED -> "skipped";
    };
  }

  static WriteResult of(Status status, String detail) {
    return new WriteResult(status, detail);
  }
}
