package dev.cairn.strategyengine.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GoDurationTest {

  @ParameterizedTest
  @CsvSource({"90s, 90", "5m, 300", "1h30m, 5400", "1h0m5s, 3605", "300, 300", "0, 0"})
  void parsesWholeDurations(String text, long seconds) {
    assertThat(GoDuration.parse(text)).contains(Duration.ofSeconds(seconds));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "soon", "-5m", "1.5m", "5ms", "30m1h", "5m5m", "m", "87600h1s"})
  void refusesEverythingElse(String text) {
    assertThat(GoDuration.parse(text)).isEmpty();
  }
}
