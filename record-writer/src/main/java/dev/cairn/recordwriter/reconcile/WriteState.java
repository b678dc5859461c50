package dev.cairn.recordwriter.reconcile;

import dev.cairn.recordwriter.kube.WriteResult;
import java.time.Instant;

/**
 * What the last pass of a loop that writes objects of its own (embedded Ingresses, the Gslbs of
 * annotated Ingresses) concluded for one name, for the explain API and health.
 *
 * @param action the plan's action
 * @param detail why
 * @param lastWrite the result of the last write, {@code null} before one
 * @param at when it was planned
 * @param <A> the plan's actions
 */
public record WriteState<A extends Enum<A>>(
    A action, String detail, WriteResult lastWrite, Instant at) {

  /** True when the API server refused the last write (it is not tried again until a change). */
  public boolean refused() {
    return lastWrite != null && lastWrite.status() == WriteResult.Status.INVALID;
  }

  /** The same state with the result of a write. */
  WriteState<A> written(WriteResult result) {
    return new WriteState<>(action, detail, result, at);
  }
}
