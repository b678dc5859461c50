package dev.cairn.recordwriter.notice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.recordwriter.notice.Notice.Reason;
import dev.cairn.recordwriter.notice.Notice.Subject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class NoticeLogTest {

  private static final Instant T0 = Instant.parse("2026-03-14T12:00:00Z");
  private static final Duration REFRESH = Duration.ofMinutes(30);

  private static Notice notice(String note) {
    return new Notice(
        new Subject("v1", "HTTPRoute", "shop", "web", "uid-1"),
        null,
        Reason.RECORD_CONFLICT,
        Notices.PUBLISH,
        note);
  }

  @Test
  void recordsAConditionOnceWhileItPersistsWithinTheInterval() {
    NoticeLog log = new NoticeLog(REFRESH);

    assertThat(log.observe(notice("a"), T0)).isEqualTo(1);
    assertThat(log.observe(notice("a"), T0.plusSeconds(600))).isZero();
    assertThat(log.observe(notice("a"), T0.plusSeconds(1200))).isZero();
  }

  @Test
  void recordsAPersistingConditionAgainAfterTheInterval() {
    NoticeLog log = new NoticeLog(REFRESH);
    log.observe(notice("a"), T0);
    log.observe(notice("a"), T0.plusSeconds(1200));

    assertThat(log.observe(notice("a"), T0.plus(REFRESH))).isEqualTo(2);
    assertThat(log.observe(notice("a"), T0.plus(REFRESH).plusSeconds(1))).isZero();
  }

  @Test
  void anotherNoteIsAnotherCondition() {
    NoticeLog log = new NoticeLog(REFRESH);
    log.observe(notice("a"), T0);

    assertThat(log.observe(notice("b"), T0)).isEqualTo(1);
  }

  @Test
  void aForgottenConditionIsNewsAgain() {
    NoticeLog log = new NoticeLog(REFRESH);
    log.observe(notice("a"), T0);

    log.forget(notice("a"));

    assertThat(log.observe(notice("a"), T0.plusSeconds(1))).isEqualTo(1);
  }

  @Test
  void forgetsConditionsNotObservedForAWholeInterval() {
    NoticeLog log = new NoticeLog(REFRESH);
    log.observe(notice("gone"), T0);
    log.observe(notice("kept"), T0);
    log.observe(notice("kept"), T0.plus(REFRESH).minusSeconds(60));

    log.observe(notice("other"), T0.plus(REFRESH).plusSeconds(1));

    assertThat(log.size()).isEqualTo(2);
    assertThat(log.observe(notice("gone"), T0.plus(REFRESH).plusSeconds(2))).isEqualTo(1);
  }

  @Test
  void refusesAnIntervalThatIsNotPositive() {
    assertThatThrownBy(() -> new NoticeLog(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
