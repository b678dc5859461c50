package dev.cairn.recordwriter.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ForeignRecheckTest {

  @Test
  void startsAtFiveSecondsAndDoublesUpToAMinute() {
    assertThat(ForeignRecheck.delay(0, 1)).isEqualTo(Duration.ofSeconds(5));
    assertThat(ForeignRecheck.delay(1, 1)).isEqualTo(Duration.ofSeconds(10));
    assertThat(ForeignRecheck.delay(3, 1)).isEqualTo(Duration.ofSeconds(40));
    assertThat(ForeignRecheck.delay(4, 1)).isEqualTo(Duration.ofMinutes(1));
    assertThat(ForeignRecheck.delay(1000, 1)).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void manyHeldNamesSpreadTheReadsToTwentyASecond() {
    assertThat(ForeignRecheck.delay(100, 1200)).isEqualTo(Duration.ofMinutes(1));
    assertThat(ForeignRecheck.delay(100, 10_000)).isEqualTo(Duration.ofSeconds(500));
    // the first reads of a migration are not held back
    assertThat(ForeignRecheck.delay(0, 10_000)).isEqualTo(Duration.ofSeconds(5));
  }
}
