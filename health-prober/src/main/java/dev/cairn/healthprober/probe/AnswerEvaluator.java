package dev.cairn.healthprober.probe;

import dev.cairn.commonmodel.health.PeerAnswer;
import java.time.Duration;
import java.time.Instant;
import java.util.NavigableSet;
import java.util.Objects;

/**
 * Folds a probe outcome into the state of a (host, peer) and decides whether to publish.
 *
 * <p>Honesty rules:
 *
 * <ul>
 *   <li>A reachable outcome (OK, NXDOMAIN, NODATA) replaces the answer and sets {@code lastSuccess}
 *       to now; an empty answer is a real answer ("not healthy there").
 *   <li>An unreachable outcome (TIMEOUT, ERROR, SERVFAIL, REFUSED) keeps the last answer and {@code
 *       lastSuccess}, and starts {@code failingSince} if it is not running: the consumer sees the
 *       peer is unreachable and how old the answer it still holds is.
 * </ul>
 *
 * <p>Publishing rules: publish when there is no record yet, when the status, the targets or the TTL
 * change, and when a failing peer's last answer crosses a staleness threshold ({@code lastSuccess +
 * threshold}) of any Gslb using the host since the last record, so the consumer's view turns stale
 * visibly. Never merely because a probe ran. Pure.
 */
public final class AnswerEvaluator {

  private AnswerEvaluator() {}

  /**
   * The next state and, when due, the record to publish.
   *
   * @param host the host
   * @param geoTag the peer's geo tag
   * @param previous the state so far, {@code null} for a new (host, peer)
   * @param outcome the probe outcome
   * @param thresholds the split-brain thresholds of the Gslbs using the host
   * @param now the evaluation time
   */
  public static Evaluation evaluate(
      String host,
      String geoTag,
      AnswerState previous,
      ProbeOutcome outcome,
      NavigableSet<Duration> thresholds,
      Instant now) {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(now, "now");
    AnswerState next;
    if (outcome.status().reachable()) {
      // equal values are taken from the previous state: a steady answer then keeps no new objects
      next =
          new AnswerState(
              outcome.status(),
              previous == null ? outcome.ipv4() : same(outcome.ipv4(), previous.ipv4()),
              previous == null ? outcome.ipv6() : same(outcome.ipv6(), previous.ipv6()),
              previous == null
                  ? outcome.ttlSeconds()
                  : same(outcome.ttlSeconds(), previous.ttlSeconds()),
              previous == null ? outcome.server() : same(outcome.server(), previous.server()),
              now,
              null,
              previous == null ? null : previous.published());
    } else if (previous != null
        && previous.status() == outcome.status()
        && previous.failingSince() != null
        && Objects.equals(previous.server(), outcome.server())) {
      next = previous; // the same failure carries on: nothing but the clock moved
    } else {
      Instant failingSince =
          previous != null && previous.failingSince() != null
              ? previous.failingSince()
              : earliest(outcome.failureStartHint(), now);
      next =
          new AnswerState(
              outcome.status(),
              previous == null ? java.util.List.of() : previous.ipv4(),
              previous == null ? java.util.List.of() : previous.ipv6(),
              previous == null ? null : previous.ttlSeconds(),
              outcome.server(),
              previous == null ? null : previous.lastSuccess(),
              failingSince,
              previous == null ? null : previous.published());
    }
    String reason = publishReason(next, thresholds, now);
    if (reason == null) {
      return new Evaluation(next, null, null);
    }
    PeerAnswer record =
        new PeerAnswer(
            host,
            geoTag,
            next.server(),
            next.status(),
            next.ipv4(),
            next.ipv6(),
            next.ttlSeconds(),
            next.lastSuccess(),
            next.failingSince(),
            now);
    AnswerState published =
        new AnswerState(
            next.status(),
            next.ipv4(),
            next.ipv6(),
            next.ttlSeconds(),
            next.server(),
            next.lastSuccess(),
            next.failingSince(),
            record);
    return new Evaluation(published, record, reason);
  }

  /** Why the state must be published now, or {@code null}. */
  static String publishReason(AnswerState next, NavigableSet<Duration> thresholds, Instant now) {
    PeerAnswer last = next.published();
    if (last == null) {
      return "first";
    }
    if (last.status() != next.status()) {
      return "status " + last.status() + " -> " + next.status();
    }
    if (!last.ipv4().equals(next.ipv4()) || !last.ipv6().equals(next.ipv6())) {
      return "targets changed";
    }
    if (!Objects.equals(last.ttlSeconds(), next.ttlSeconds())) {
      return "ttl changed";
    }
    if (!Objects.equals(last.failingSince(), next.failingSince())) {
      return "failure run changed";
    }
    if (!next.status().reachable() && next.lastSuccess() != null && last.observedAt() != null) {
      for (Duration threshold : thresholds) {
        Instant staleAt = next.lastSuccess().plus(threshold);
        if (last.observedAt().isBefore(staleAt) && !now.isBefore(staleAt)) {
          return "last answer older than " + threshold.toSeconds() + "s";
        }
      }
    }
    return null;
  }

  /**
   * When evaluating the same unreachable outcome again could next publish: the first staleness
   * threshold the last answer crosses after the last record ({@code lastSuccess + threshold} later
   * than its {@code observedAt}). Until then, folding in that outcome again leaves the state as it
   * is and publishes nothing, so a peer whose circuit is open needs no work for the host before it.
   *
   * @param state a state returned by {@link #evaluate}
   * @param thresholds the split-brain thresholds of the Gslbs using the host
   * @return that instant, or {@code null} when only a different outcome can lead to a record (the
   *     state is reachable, the peer never answered, or every threshold was crossed)
   */
  public static Instant revisitAt(AnswerState state, NavigableSet<Duration> thresholds) {
    PeerAnswer last = state.published();
    if (state.status().reachable()
        || state.lastSuccess() == null
        || last == null
        || last.observedAt() == null) {
      return null;
    }
    for (Duration threshold : thresholds) { // ascending: the first one after the record is next
      Instant staleAt = state.lastSuccess().plus(threshold);
      if (last.observedAt().isBefore(staleAt)) {
        return staleAt;
      }
    }
    return null;
  }

  /** The older of two equal values, else the newer one. */
  private static <T> T same(T newer, T older) {
    return Objects.equals(newer, older) ? older : newer;
  }

  private static Instant earliest(Instant hint, Instant now) {
    return hint == null || hint.isAfter(now) ? now : hint;
  }

  /**
   * The result of {@link #evaluate}.
   *
   * @param state the new state (with {@code published} updated when a record is due)
   * @param publish the record to publish, {@code null} when nothing is due
   * @param reason why it is published, for logs; {@code null} when nothing is due
   */
  public record Evaluation(AnswerState state, PeerAnswer publish, String reason) {}
}
