package dev.cairn.healthprober.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class AnswerEvaluatorTest {

  private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
  private static final NavigableSet<Duration> THRESHOLDS =
      new TreeSet<>(List.of(Duration.ofSeconds(60), Duration.ofSeconds(300)));

  static ProbeOutcome ok(String... ipv4) {
    return new ProbeOutcome(
        ProbeStatus.OK, List.of(ipv4), List.of(), 30L, "192.0.2.53:53", null, "");
  }

  static ProbeOutcome status(ProbeStatus s) {
    return s.reachable()
        ? new ProbeOutcome(s, List.of(), List.of(), null, "192.0.2.53:53", null, "")
        : ProbeOutcome.unreachable(s, "192.0.2.53:53", null, "");
  }

  static AnswerEvaluator.Evaluation eval(AnswerState prev, ProbeOutcome o, Instant now) {
    return AnswerEvaluator.evaluate("app.example.com", "eu", prev, o, THRESHOLDS, now);
  }

  static Instant at(long seconds) {
    return T0.plusSeconds(seconds);
  }

  @Test
  void publishesTheFirstAnswer() {
    AnswerEvaluator.Evaluation e = eval(null, ok("192.0.2.1"), T0);

    PeerAnswer p = e.publish();
    assertThat(p.key()).isEqualTo("PeerAnswer/eu/app.example.com");
    assertThat(p.status()).isEqualTo(ProbeStatus.OK);
    assertThat(p.ipv4()).containsExactly("192.0.2.1");
    assertThat(p.ttlSeconds()).isEqualTo(30L);
    assertThat(p.lastSuccess()).isEqualTo(T0);
    assertThat(p.failingSince()).isNull();
    assertThat(p.observedAt()).isEqualTo(T0);
    assertThat(p.server()).isEqualTo("192.0.2.53:53");
  }

  @Test
  void aSteadyAnswerKeepsThePreviousValuesAndMovesOnlyTheSuccessTime() {
    AnswerState s = eval(null, ok("192.0.2.1", "192.0.2.2"), T0).state();

    AnswerState next = eval(s, ok("192.0.2.1", "192.0.2.2"), at(5)).state();

    assertThat(next.ipv4()).isSameAs(s.ipv4()); // no new objects kept for an unchanged answer
    assertThat(next.server()).isSameAs(s.server());
    assertThat(next.lastSuccess()).isEqualTo(at(5));
    assertThat(next.published()).isSameAs(s.published());
  }

  @Test
  void doesNotPublishTheSameAnswerAgain() {
    AnswerState s = eval(null, ok("192.0.2.1"), T0).state();

    AnswerEvaluator.Evaluation e = eval(s, ok("192.0.2.1"), at(5));

    assertThat(e.publish()).isNull();
    assertThat(e.state().lastSuccess()).isEqualTo(at(5));
  }

  @Test
  void publishesChangedTargets() {
    AnswerState s = eval(null, ok("192.0.2.1"), T0).state();

    assertThat(eval(s, ok("192.0.2.1", "192.0.2.2"), at(5)).publish().ipv4())
        .containsExactly("192.0.2.1", "192.0.2.2");
  }

  @Test
  void anEmptyAnswerReplacesTheTargetsAndIsReachable() {
    AnswerState s = eval(null, ok("192.0.2.1"), T0).state();

    PeerAnswer p = eval(s, status(ProbeStatus.NXDOMAIN), at(5)).publish();

    assertThat(p.status()).isEqualTo(ProbeStatus.NXDOMAIN);
    assertThat(p.ipv4()).isEmpty();
    assertThat(p.lastSuccess()).isEqualTo(at(5));
    assertThat(p.failingSince()).isNull();
  }

  @Test
  void anUnreachablePeerKeepsItsLastAnswerAndSaysSinceWhenItFails() {
    AnswerState s = eval(null, ok("192.0.2.1"), T0).state();
    s = eval(s, ok("192.0.2.1"), at(5)).state();

    PeerAnswer p = eval(s, status(ProbeStatus.TIMEOUT), at(10)).publish();

    assertThat(p.status()).isEqualTo(ProbeStatus.TIMEOUT);
    assertThat(p.ipv4()).containsExactly("192.0.2.1");
    assertThat(p.ttlSeconds()).isEqualTo(30L);
    assertThat(p.lastSuccess()).isEqualTo(at(5));
    assertThat(p.failingSince()).isEqualTo(at(10));
  }

  @Test
  void aKnownFailureStartIsUsed() {
    AnswerState s = eval(null, ok("192.0.2.1"), T0).state();
    ProbeOutcome open = ProbeOutcome.unreachable(ProbeStatus.TIMEOUT, "x", at(7), "circuit open");

    assertThat(eval(s, open, at(10)).publish().failingSince()).isEqualTo(at(7));
  }

  @Test
  void aFailureStartInTheFutureIsNotBelieved() {
    ProbeOutcome odd = ProbeOutcome.unreachable(ProbeStatus.TIMEOUT, "x", at(70), "");

    assertThat(eval(null, odd, at(10)).publish().failingSince()).isEqualTo(at(10));
  }

  @Test
  void aContinuingFailureIsNotRepublishedUntilAThresholdPasses() {
    AnswerState s = eval(null, ok("192.0.2.1"), T0).state();
    s = eval(s, status(ProbeStatus.TIMEOUT), at(5)).state();

    AnswerEvaluator.Evaluation before = eval(s, status(ProbeStatus.TIMEOUT), at(55));
    assertThat(before.publish()).isNull();

    AnswerEvaluator.Evaluation crossing = eval(before.state(), status(ProbeStatus.TIMEOUT), at(60));
    assertThat(crossing.publish()).isNotNull();
    assertThat(crossing.reason()).contains("older than 60s");
    assertThat(crossing.publish().observedAt()).isEqualTo(at(60));
    assertThat(crossing.publish().failingSince()).isEqualTo(at(5));

    AnswerEvaluator.Evaluation after = eval(crossing.state(), status(ProbeStatus.TIMEOUT), at(65));
    assertThat(after.publish()).isNull();

    AnswerEvaluator.Evaluation second = eval(after.state(), status(ProbeStatus.TIMEOUT), at(301));
    assertThat(second.reason()).contains("older than 300s");
  }

  @Test
  void theRevisitTimeIsTheNextThresholdCrossingAndNothingIsPublishedBeforeIt() {
    AnswerState s = eval(null, ok("192.0.2.1"), T0).state();
    assertThat(AnswerEvaluator.revisitAt(s, THRESHOLDS)).isNull(); // reachable

    s = eval(s, status(ProbeStatus.TIMEOUT), at(5)).state();
    assertThat(AnswerEvaluator.revisitAt(s, THRESHOLDS)).isEqualTo(at(60));
    AnswerEvaluator.Evaluation justBefore = eval(s, status(ProbeStatus.TIMEOUT), at(59));
    assertThat(justBefore.publish()).isNull();
    assertThat(justBefore.state()).isSameAs(s);

    // evaluated late (at 200): the 60 s crossing is published then, the next one is 300 s
    AnswerEvaluator.Evaluation late = eval(s, status(ProbeStatus.TIMEOUT), at(200));
    assertThat(late.reason()).contains("older than 60s");
    assertThat(AnswerEvaluator.revisitAt(late.state(), THRESHOLDS)).isEqualTo(at(300));

    AnswerEvaluator.Evaluation last = eval(late.state(), status(ProbeStatus.TIMEOUT), at(300));
    assertThat(last.reason()).contains("older than 300s");
    assertThat(AnswerEvaluator.revisitAt(last.state(), THRESHOLDS)).isNull();
  }

  @Test
  void aPeerThatNeverAnsweredHasNoRevisitTime() {
    AnswerState s = eval(null, status(ProbeStatus.TIMEOUT), T0).state();

    assertThat(AnswerEvaluator.revisitAt(s, THRESHOLDS)).isNull();
  }

  @Test
  void aPeerThatNeverAnsweredHasNoThresholdToCross() {
    AnswerState s = eval(null, status(ProbeStatus.TIMEOUT), T0).state();

    assertThat(eval(s, status(ProbeStatus.TIMEOUT), at(400)).publish()).isNull();
  }

  @Test
  void aChangeOfFailureKindIsPublishedAndKeepsTheRun() {
    AnswerState s = eval(null, ok("192.0.2.1"), T0).state();
    s = eval(s, status(ProbeStatus.TIMEOUT), at(5)).state();

    PeerAnswer p = eval(s, status(ProbeStatus.SERVFAIL), at(10)).publish();

    assertThat(p.status()).isEqualTo(ProbeStatus.SERVFAIL);
    assertThat(p.failingSince()).isEqualTo(at(5));
  }

  @Test
  void recoveryIsPublishedAndEndsTheRun() {
    AnswerState s = eval(null, ok("192.0.2.1"), T0).state();
    s = eval(s, status(ProbeStatus.TIMEOUT), at(5)).state();

    PeerAnswer p = eval(s, ok("192.0.2.1"), at(10)).publish();

    assertThat(p.status()).isEqualTo(ProbeStatus.OK);
    assertThat(p.failingSince()).isNull();
    assertThat(p.lastSuccess()).isEqualTo(at(10));
  }

  @Test
  void continuesFromARecordReadBackAfterARestart() {
    PeerAnswer before =
        new PeerAnswer(
            "app.example.com",
            "eu",
            "192.0.2.53:53",
            ProbeStatus.OK,
            List.of("192.0.2.1"),
            List.of(),
            30L,
            T0,
            null,
            T0);
    AnswerState seeded = AnswerState.of(before);

    assertThat(eval(seeded, ok("192.0.2.1"), at(100)).publish()).isNull();
    PeerAnswer failing = eval(seeded, status(ProbeStatus.TIMEOUT), at(100)).publish();
    assertThat(failing.lastSuccess()).isEqualTo(T0);
  }
}
