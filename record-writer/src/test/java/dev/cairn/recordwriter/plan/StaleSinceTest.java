package dev.cairn.recordwriter.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StaleSinceTest {

  @ParameterizedTest(name = "{0} is written {1}")
  @CsvSource({
    "2026-03-14T12:00:00Z, 2026-03-14T12:00:00Z",
    "2026-03-14T12:00:01.500Z, 2026-03-14T12:00:01.5Z",
    "2026-03-14T12:00:01.000000001Z, 2026-03-14T12:00:01.000000001Z",
    "2026-03-14T12:00:01.120Z, 2026-03-14T12:00:01.12Z",
  })
  void formatsLikeGoRfc3339NanoInUtc(String instant, String expected) {
    assertThat(StaleSince.format(Instant.parse(instant))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} reads as {1}")
  @CsvSource({
    "2026-03-14T12:00:00Z, 2026-03-14T12:00:00Z",
    "2026-03-14T12:00:01.5Z, 2026-03-14T12:00:01.500Z",
    "2026-03-14T14:00:00+02:00, 2026-03-14T12:00:00Z",
    "'  2026-03-14T12:00:00Z ', 2026-03-14T12:00:00Z",
  })
  void readsRfc3339(String text, String expected) {
    assertThat(StaleSince.parse(text)).contains(Instant.parse(expected));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "yesterday",
        "2026-03-14",
        "2026-03-14T12:00Z",
        "2026-03-14 12:00:00Z",
        "2026-03-14T12:00:00",
        "2026-13-14T12:00:00Z",
        "1710417600"
      })
  void rejectsWhatIsNotRfc3339(String text) {
    assertThat(StaleSince.parse(text)).isEmpty();
  }

  @Test
  void roundTrips() {
    Instant t = Instant.parse("2026-11-29T08:15:30.123456Z");
    assertThat(StaleSince.parse(StaleSince.format(t))).contains(t);
  }
}
