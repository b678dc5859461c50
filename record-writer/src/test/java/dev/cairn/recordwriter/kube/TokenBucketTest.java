package dev.cairn.recordwriter.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import org.junit.jupiter.api.Test;

class TokenBucketTest {

  private static final long SECOND = 1_000_000_000L;

  @Test
  void letsTheBurstGoAtOnceThenSpacesWritesAtTheRate() {
    TokenBucket bucket = new TokenBucket(50, 100, 0);

    for (int i = 0; i < 100; i++) {
      assertThat(bucket.reserve(0)).isZero();
    }
    assertThat(bucket.reserve(0)).isEqualTo(SECOND / 50);
    assertThat(bucket.reserve(0)).isEqualTo(2 * SECOND / 50);
  }

  @Test
  void refillsOverTimeUpToTheBurst() {
    TokenBucket bucket = new TokenBucket(10, 5, 0);
    for (int i = 0; i < 5; i++) {
      bucket.reserve(0);
    }

    assertThat(bucket.available(SECOND / 2)).isEqualTo(5.0, offset(1e-9));
    assertThat(bucket.available(100 * SECOND)).isEqualTo(5.0);
  }

  @Test
  void tenThousandWritesAtFiftyPerSecondTakeTheirTime() {
    TokenBucket bucket = new TokenBucket(50, 100, 0);
    long lastWait = 0;
    for (int i = 0; i < 10_000; i++) {
      lastWait = bucket.reserve(0);
    }

    assertThat(lastWait).isEqualTo((10_000 - 100) * SECOND / 50);
  }

  @Test
  void refusesNonsense() {
    assertThatThrownBy(() -> new TokenBucket(0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TokenBucket(1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
