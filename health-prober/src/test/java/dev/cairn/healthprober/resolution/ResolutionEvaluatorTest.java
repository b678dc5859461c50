package dev.cairn.healthprober.resolution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.healthprober.probe.ProbeOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResolutionEvaluatorTest {

  private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
  private static final ResolutionKey KEY = new ResolutionKey("1.1.1.1:53", "edge.example.com");
  private static final ResolutionPolicy POLICY =
      new ResolutionPolicy(Duration.ofSeconds(5), Duration.ofHours(1), Duration.ofSeconds(60));

  static ProbeOutcome ok(long ttl, String... ipv4) {
    return new ProbeOutcome(ProbeStatus.OK, List.of(ipv4), List.of(), ttl, "1.1.1.1:53", null, "");
  }

  static ProbeOutcome failed(ProbeStatus s) {
    return s.reachable()
        ? new ProbeOutcome(s, List.of(), List.of(), null, "1.1.1.1:53", null, "")
        : ProbeOutcome.unreachable(s, "1.1.1.1:53", null, "");
  }

  static ResolutionEvaluator.Result eval(ResolutionState prev, ProbeOutcome o, Instant now) {
    return ResolutionEvaluator.evaluate(KEY, prev, o, POLICY, now);
  }

  @Test
  void publishesAnAnswerThatExpiresWithItsTtl() {
    ResolutionEvaluator.Result r = eval(null, ok(120, "192.0.2.1"), T0);

    HostnameResolution p = r.publish();
    assertThat(p.key()).isEqualTo("1.1.1.1:53|edge.example.com");
    assertThat(p.status()).isEqualTo(ProbeStatus.OK);
    assertThat(p.ipv4()).containsExactly("192.0.2.1");
    assertThat(p.resolvedAt()).isEqualTo(T0);
    assertThat(p.expiresAt()).isEqualTo(T0.plusSeconds(120));
    assertThat(p.stale()).isFalse();
    assertThat(r.state().nextAttempt()).isEqualTo(T0.plusSeconds(120));
  }

  @Test
  void clampsTheTtlToFloorAndCeiling() {
    assertThat(eval(null, ok(0, "192.0.2.1"), T0).state().nextAttempt())
        .isEqualTo(T0.plusSeconds(5));
    assertThat(eval(null, ok(86_400, "192.0.2.1"), T0).state().nextAttempt())
        .isEqualTo(T0.plusSeconds(3600));
  }

  @Test
  void republishesAnUnchangedAnswerOnlyOnceItsLifetimeEnded() {
    ResolutionState s = eval(null, ok(60, "192.0.2.1"), T0).state();

    assertThat(eval(s, ok(60, "192.0.2.1"), T0.plusSeconds(30)).publish()).isNull();
    HostnameResolution again = eval(s, ok(60, "192.0.2.1"), T0.plusSeconds(60)).publish();
    assertThat(again.expiresAt()).isEqualTo(T0.plusSeconds(120));
  }

  @Test
  void keepsTheLastGoodAnswerOnFailureAndSaysItIsStale() {
    ResolutionState s = eval(null, ok(60, "192.0.2.1"), T0).state();

    ResolutionEvaluator.Result r = eval(s, failed(ProbeStatus.TIMEOUT), T0.plusSeconds(60));

    assertThat(r.publish().status()).isEqualTo(ProbeStatus.TIMEOUT);
    assertThat(r.publish().ipv4()).containsExactly("192.0.2.1");
    assertThat(r.publish().stale()).isTrue();
    assertThat(r.publish().resolvedAt()).isEqualTo(T0);
    assertThat(r.state().nextAttempt()).isEqualTo(T0.plusSeconds(65));

    ResolutionEvaluator.Result again =
        eval(r.state(), failed(ProbeStatus.TIMEOUT), T0.plusSeconds(65));
    assertThat(again.publish()).isNull();
    assertThat(again.state().nextAttempt()).isEqualTo(T0.plusSeconds(75));
  }

  @Test
  void backsOffUpToTheMaximum() {
    assertThat(POLICY.retryAfter(1)).isEqualTo(Duration.ofSeconds(5));
    assertThat(POLICY.retryAfter(4)).isEqualTo(Duration.ofSeconds(40));
    assertThat(POLICY.retryAfter(5)).isEqualTo(Duration.ofSeconds(60));
    assertThat(POLICY.retryAfter(1000)).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void aNameThatVanishesKeepsItsLastAddressesMarkedStale() {
    ResolutionState s = eval(null, ok(60, "192.0.2.1"), T0).state();

    HostnameResolution p = eval(s, failed(ProbeStatus.NXDOMAIN), T0.plusSeconds(60)).publish();

    assertThat(p.status()).isEqualTo(ProbeStatus.NXDOMAIN);
    assertThat(p.stale()).isTrue();
    assertThat(p.ipv4()).containsExactly("192.0.2.1");
  }

  @Test
  void aFailureWithoutAGoodAnswerIsNotStale() {
    HostnameResolution p = eval(null, failed(ProbeStatus.SERVFAIL), T0).publish();

    assertThat(p.stale()).isFalse();
    assertThat(p.ipv4()).isEmpty();
    assertThat(p.resolvedAt()).isNull();
  }

  @Test
  void recoveryClearsStaleness() {
    ResolutionState s = eval(null, ok(60, "192.0.2.1"), T0).state();
    s = eval(s, failed(ProbeStatus.TIMEOUT), T0.plusSeconds(60)).state();

    HostnameResolution p = eval(s, ok(60, "192.0.2.1"), T0.plusSeconds(65)).publish();

    assertThat(p.stale()).isFalse();
    assertThat(p.status()).isEqualTo(ProbeStatus.OK);
  }

  @Test
  void rejectsAnInconsistentPolicy() {
    assertThatThrownBy(
            () ->
                new ResolutionPolicy(
                    Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(60)))
        .hasMessageContaining("ceiling");
  }
}
