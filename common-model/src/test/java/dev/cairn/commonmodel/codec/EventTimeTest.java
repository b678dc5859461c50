package dev.cairn.commonmodel.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EventTimeTest {

  @Test
  void stampedTimeReadsBackToTheMillisecond() {
    RecordHeaders headers = new RecordHeaders();
    Instant t = Instant.parse("2026-11-29T15:04:05.123456Z");
    EventTime.stamp(headers, t);
    assertThat(EventTime.read(headers)).contains(Instant.parse("2026-11-29T15:04:05.123Z"));
    assertThat(new String(headers.lastHeader(EventTime.HEADER).value(), StandardCharsets.US_ASCII))
        .isEqualTo("1795964645123");
  }

  @Test
  void stampingAgainReplacesTheHeader() {
    RecordHeaders headers = new RecordHeaders();
    EventTime.stamp(headers, Instant.ofEpochMilli(1));
    EventTime.stamp(headers, Instant.ofEpochMilli(2));
    assertThat(headers.headers(EventTime.HEADER)).hasSize(1);
    assertThat(EventTime.read(headers)).contains(Instant.ofEpochMilli(2));
  }

  @Test
  void absentHeaderIsEmpty() {
    assertThat(EventTime.read(new RecordHeaders())).isEmpty();
    assertThat(EventTime.read(null)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-5", "12a", "1.5", " 12", "99999999999999999999"})
  void malformedHeaderIsIgnored(String text) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(EventTime.HEADER, text.getBytes(StandardCharsets.US_ASCII));
    assertThat(EventTime.read(headers)).isEmpty();
  }
}
