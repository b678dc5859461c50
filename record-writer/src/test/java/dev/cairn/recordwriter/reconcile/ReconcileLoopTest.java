package dev.cairn.recordwriter.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.recordwriter.kube.WriteResult;
import dev.cairn.recordwriter.kube.WriteResult.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ReconcileLoopTest {

  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private ReconcileLoop<String> loop;

  @AfterEach
  void stop() {
    if (loop != null) {
      loop.stop(Duration.ofSeconds(5));
    }
  }

  private ReconcileLoop<String> loop(
      Clock clock, Runnable resync, Consumer<List<String>> plan, boolean batched) {
    return new ReconcileLoop<>(
        new ReconcileLoop.Names("test-loop", "test writer", "key", "key"),
        LoggerFactory.getLogger(ReconcileLoopTest.class),
        clock,
        () -> true,
        Duration.ofHours(1),
        resync,
        plan,
        batched);
  }

  private static WriteResult result(Status status) {
    return new WriteResult(status, status.name());
  }

  @Test
  void aConflictIsPlannedAgainAtOnceThenWithGrowingBackoff() {
    loop = loop(Clock.fixed(NOW, ZoneOffset.UTC), () -> {}, batch -> {}, true);

    Backoff first = loop.afterWrite("a", result(Status.CONFLICT), true);
    Backoff second = loop.afterWrite("a", result(Status.CONFLICT), true);

    assertThat(loop.isDirty("a")).isTrue();
    assertThat(first.notBefore()).isEqualTo(NOW);
    assertThat(second.attempts()).isEqualTo(2);
    assertThat(second.notBefore()).isAfter(NOW);
  }

  @Test
  void aFailedWriteBacksOffAndASuccessClearsIt() {
    loop = loop(Clock.fixed(NOW, ZoneOffset.UTC), () -> {}, batch -> {}, true);

    Backoff failed = loop.afterWrite("a", result(Status.FAILED), true);
    assertThat(failed.notBefore()).isAfter(NOW);
    assertThat(loop.isDirty("a")).isTrue();

    assertThat(loop.afterWrite("a", result(Status.DONE), true)).isNull();
    assertThat(loop.afterWrite("a", result(Status.FAILED), true).attempts()).isEqualTo(1);
  }

  @Test
  void aGoneObjectIsPlannedAgainOnlyWhenAsked() {
    loop = loop(Clock.fixed(NOW, ZoneOffset.UTC), () -> {}, batch -> {}, true);

    loop.afterWrite("deleted", result(Status.GONE), false);
    loop.afterWrite("updated", result(Status.GONE), true);
    loop.afterWrite("skipped", result(Status.SKIPPED), false);
    loop.afterWrite("refused", result(Status.INVALID), true);

    assertThat(loop.isDirty("deleted")).isFalse();
    assertThat(loop.isDirty("updated")).isTrue();
    assertThat(loop.isDirty("skipped")).isTrue();
    assertThat(loop.isDirty("refused")).isFalse();
  }

  @Test
  void plansNothingUntilCaughtUpThenResyncsAndPlansTheDirtyKeys() {
    List<List<String>> planned = new CopyOnWriteArrayList<>();
    List<String> resyncs = new CopyOnWriteArrayList<>();
    loop =
        loop(
            Clock.systemUTC(),
            () -> {
              resyncs.add("resync");
              loop.markDirty(List.of("a", "b"));
            },
            planned::add,
            true);
    loop.start();

    loop.signal(() -> loop.markDirty("early"));
    loop.onCaughtUp();

    await().untilAsserted(() -> assertThat(planned).containsExactly(List.of("early", "a", "b")));
    assertThat(resyncs).hasSize(1);
    assertThat(loop.caughtUp()).isTrue();
  }

  @Test
  void aFailingBatchIsPlannedAgainKeyByKeySoOneBadKeyHoldsUpNoOther() {
    List<List<String>> planned = new CopyOnWriteArrayList<>();
    loop =
        loop(
            Clock.systemUTC(),
            () -> loop.markDirty(List.of("a", "bad", "c")),
            batch -> {
              if (batch.contains("bad")) {
                throw new IllegalStateException("odd object");
              }
              planned.add(batch);
            },
            true);
    loop.start();

    loop.onCaughtUp();

    await().untilAsserted(() -> assertThat(planned).contains(List.of("a"), List.of("c")));
    assertThat(loop.pending()).isEqualTo(1); // "bad" waits for its backoff
  }
}
