package dev.cairn.commonmodel.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class CriticalThreadTest {

  @Test
  void keepsWhatEndedItAndNothingForANormalEnd() throws Exception {
    CriticalThread failing =
        new CriticalThread(
                "test-failing",
                () -> {
                  throw new AssertionError("an error for the test");
                },
                LoggerFactory.getLogger(CriticalThreadTest.class),
                "nothing, it is a test")
            .start();
    CriticalThread done =
        new CriticalThread(
                "test-done", () -> {}, LoggerFactory.getLogger(CriticalThreadTest.class), "-")
            .start();

    failing.thread().join(5_000);
    done.thread().join(5_000);

    assertThat(failing.isAlive()).isFalse();
    assertThat(failing.failure()).contains("AssertionError").contains("an error for the test");
    assertThat(failing.name()).isEqualTo("test-failing");
    assertThat(failing.thread().isDaemon()).isTrue();
    assertThat(done.failure()).isNull();
  }
}
