package dev.cairn.commonmodel.validation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class TtlTest {

  private static final String FIELD = "metadata.annotations[directdns.meisterlala.dev/ttl]";

  @ParameterizedTest
  @ValueSource(longs = {1, 30, 300, 86_400, 2_147_483_647L})
  void acceptsTtlsFromOneSecondToTheRfc2181Maximum(long seconds) {
    assertThat(Ttl.check(FIELD, seconds)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(longs = {0, -1, -30, 2_147_483_648L, Long.MAX_VALUE, Long.MIN_VALUE})
  void rejectsTtlsOutOfBoundsNamingFieldValueAndBounds(long seconds) {
    assertThat(Ttl.check(FIELD, seconds))
        .hasValueSatisfying(
            p -> {
              assertThat(p.field()).isEqualTo(FIELD);
              assertThat(p.value()).isEqualTo(Long.toString(seconds));
              assertThat(p.reason()).contains("1").contains("2147483647");
            });
  }

  @ParameterizedTest(name = "{0} in [{1}, {2}]: {3}")
  @CsvSource({
    "5, 5, 60, true",
    "60, 5, 60, true",
    "4, 5, 60, false",
    "61, 5, 60, false",
    "0, 0, 0, true",
  })
  void checksAgainstGivenInclusiveBounds(long seconds, long min, long max, boolean ok) {
    assertThat(Ttl.check(FIELD, seconds, min, max).isEmpty()).isEqualTo(ok);
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "60, 60", "060, 60", "86400, 86400", "2147483647, 2147483647"})
  void parsesPlainDecimalSeconds(String text, long seconds) {
    assertThat(Ttl.parse(text)).contains(seconds);
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @ValueSource(
      strings = {
        "+60",
        "-60",
        " 60",
        "60 ",
        "60s",
        "1m",
        "0x10",
        "6e1",
        "60.0",
        "1_000",
        "0",
        "00",
        "2147483648",
        "99999999999",
        "9223372036854775808",
        "６０",
        "٦٠",
        "sixty"
      })
  @NullAndEmptySource
  void rejectsAnythingElse(String text) {
    assertThat(Ttl.parse(text)).isEmpty();
  }
}
