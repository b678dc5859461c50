package dev.cairn.healthprober.resolution;

import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.healthprober.probe.ProbeOutcome;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Folds a lookup into the state of a (resolver, hostname) and decides whether to publish.
 *
 * <ul>
 *   <li>An answer with addresses is the new good answer; it is used for its TTL clamped to the
 *       policy's floor and ceiling, then looked up again.
 *   <li>Anything else (NXDOMAIN, NODATA, or no usable answer) keeps the last good answer and marks
 *       it {@code stale}, as k8s-direct-dns keeps its cache, but says so; attempts back off.
 *   <li>Publish when the status, the addresses or staleness change, or when a fresh good answer
 *       replaces a published one whose lifetime ended (so {@code expiresAt} stays truthful).
 * </ul>
 *
 * Pure.
 */
public final class ResolutionEvaluator {

  private ResolutionEvaluator() {}

  /**
   * The next state and, when due, the record to publish.
   *
   * @param key the resolver and hostname
   * @param previous the state so far, {@code null} when new
   * @param outcome the lookup outcome (A and AAAA combined)
   * @param policy TTL clamping and retry
   * @param now the evaluation time
   */
  public static Result evaluate(
      ResolutionKey key,
      ResolutionState previous,
      ProbeOutcome outcome,
      ResolutionPolicy policy,
      Instant now) {
    Objects.requireNonNull(outcome, "outcome");
    HostnameResolution published = previous == null ? null : previous.published();
    ResolutionState next;
    boolean good =
        outcome.status() == ProbeStatus.OK
            && !(outcome.ipv4().isEmpty() && outcome.ipv6().isEmpty());
    if (good) {
      Instant expires = now.plus(policy.lifetime(outcome.ttlSeconds()));
      next =
          new ResolutionState(
              ProbeStatus.OK,
              outcome.ipv4(),
              outcome.ipv6(),
              now,
              expires,
              false,
              0,
              expires,
              published);
    } else {
      int failures = previous == null ? 1 : previous.failures() + 1;
      boolean hasGood = previous != null && previous.resolvedAt() != null;
      next =
          new ResolutionState(
              outcome.status(),
              hasGood ? previous.ipv4() : List.of(),
              hasGood ? previous.ipv6() : List.of(),
              hasGood ? previous.resolvedAt() : null,
              hasGood ? previous.expiresAt() : null,
              hasGood,
              failures,
              now.plus(policy.retryAfter(failures)),
              published);
    }
    if (!due(next, published, now)) {
      return new Result(next, null);
    }
    HostnameResolution record =
        new HostnameResolution(
            key.hostname(),
            key.server(),
            next.status(),
            next.ipv4(),
            next.ipv6(),
            next.resolvedAt(),
            next.expiresAt(),
            next.stale());
    return new Result(
        new ResolutionState(
            next.status(),
            next.ipv4(),
            next.ipv6(),
            next.resolvedAt(),
            next.expiresAt(),
            next.stale(),
            next.failures(),
            next.nextAttempt(),
            record),
        record);
  }

  private static boolean due(ResolutionState next, HostnameResolution last, Instant now) {
    if (last == null) {
      return true;
    }
    if (last.status() != next.status()
        || last.stale() != next.stale()
        || !last.ipv4().equals(next.ipv4())
        || !last.ipv6().equals(next.ipv6())) {
      return true;
    }
    return next.status() == ProbeStatus.OK
        && (last.expiresAt() == null || !last.expiresAt().isAfter(now));
  }

  /**
   * The result of {@link #evaluate}.
   *
   * @param state the new state
   * @param publish the record to publish, {@code null} when nothing is due
   */
  public record Result(ResolutionState state, HostnameResolution publish) {}
}
