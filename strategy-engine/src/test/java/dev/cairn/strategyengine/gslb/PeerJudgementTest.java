package dev.cairn.strategyengine.gslb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PeerJudgementTest {

  private static final Instant LAST = Instant.parse("2026-11-29T12:00:00Z");
  private static final Duration THRESHOLD = Duration.ofSeconds(300);

  @ParameterizedTest
  @EnumSource(
      value = ProbeStatus.class,
      names = {"TIMEOUT", "REFUSED", "ERROR", "SERVFAIL"})
  void anUnreachablePeerIsTrustedUpToButExcludingTheThreshold(ProbeStatus status) {
    PeerAnswer answer = answer(status, LAST, "198.51.100.20");

    PeerJudgement before = PeerJudgement.judge(answer, "eu", THRESHOLD, LAST.plusSeconds(299));
    PeerJudgement at = PeerJudgement.judge(answer, "eu", THRESHOLD, LAST.plusSeconds(300));

    assertThat(before.verdict()).isEqualTo(PeerVerdict.TRUSTED);
    assertThat(before.targets().ipv4()).containsExactly("198.51.100.20");
    assertThat(before.trustedUntil()).isEqualTo(LAST.plusSeconds(300));
    assertThat(at.verdict()).isEqualTo(PeerVerdict.EXPIRED);
    assertThat(at.targets().isEmpty()).isTrue();
    assertThat(at.trustedUntil()).isNull();
  }

  @ParameterizedTest
  @EnumSource(
      value = ProbeStatus.class,
      names = {"NXDOMAIN", "NODATA"})
  void anEmptyReachableAnswerCountsAtOnceHoweverRecent(ProbeStatus status) {
    PeerJudgement judged = PeerJudgement.judge(answer(status, LAST), "eu", THRESHOLD, LAST);

    assertThat(judged.verdict()).isEqualTo(PeerVerdict.EMPTY);
    assertThat(judged.verdict().serving()).isFalse();
  }

  @Test
  void anOkAnswerWithoutAUsableTargetIsEmptyAndTheBadTargetIsListed() {
    PeerJudgement judged =
        PeerJudgement.judge(answer(ProbeStatus.OK, LAST, "010.0.0.1"), "eu", THRESHOLD, LAST);

    assertThat(judged.verdict()).isEqualTo(PeerVerdict.EMPTY);
    assertThat(judged.skipped())
        .singleElement()
        .satisfies(s -> assertThat(s.input()).contains("010.0.0.1"));
  }

  @Test
  void targetsAreCanonicalAndSortedAsK8gbSortsPeerTargets() {
    PeerAnswer answer =
        new PeerAnswer(
            "app.cloud.example.com",
            "us",
            "192.0.2.53:53",
            ProbeStatus.OK,
            List.of("198.51.100.9", "198.51.100.10"),
            List.of("2001:DB8::1"),
            30L,
            LAST,
            null,
            LAST);

    PeerJudgement judged = PeerJudgement.judge(answer, "eu", THRESHOLD, LAST);

    assertThat(judged.targets().ipv4()).containsExactly("198.51.100.10", "198.51.100.9");
    assertThat(judged.targets().ipv6()).containsExactly("2001:db8::1");
  }

  @Test
  void ownAndMalformedGeoTagsNeverCount() {
    assertThat(
            PeerJudgement.judge(
                    answer(ProbeStatus.OK, LAST, "198.51.100.20"), "us", THRESHOLD, LAST)
                .verdict())
        .isEqualTo(PeerVerdict.SELF);
    PeerAnswer odd =
        new PeerAnswer(
            "app.cloud.example.com",
            "us_1",
            null,
            ProbeStatus.OK,
            List.of("198.51.100.20"),
            List.of(),
            30L,
            LAST,
            null,
            LAST);
    assertThat(PeerJudgement.judge(odd, "eu", THRESHOLD, LAST).verdict())
        .isEqualTo(PeerVerdict.INVALID);
  }

  @Test
  void anUnreachablePeerThatNeverAnsweredIsGone() {
    PeerJudgement judged =
        PeerJudgement.judge(answer(ProbeStatus.TIMEOUT, null), "eu", THRESHOLD, LAST);

    assertThat(judged.verdict()).isEqualTo(PeerVerdict.NEVER_ANSWERED);
  }

  private static PeerAnswer answer(ProbeStatus status, Instant lastSuccess, String... ipv4) {
    return new PeerAnswer(
        "app.cloud.example.com",
        "us",
        "192.0.2.53:53",
        status,
        List.of(ipv4),
        List.of(),
        30L,
        lastSuccess,
        status.reachable() ? null : LAST.plusSeconds(1),
        LAST);
  }
}
