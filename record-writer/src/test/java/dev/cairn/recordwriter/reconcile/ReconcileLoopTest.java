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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ReconcileLoopTest {

  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private ReconcileLoop<String> loop;
  private WriteScheduler scheduler =
      new WriteScheduler(4, Duration.ofSeconds(5), () -> {}, Clock.systemUTC(), (lane, w) -> {});

  @AfterEach
  void stop() {
    if (loop != null) {
      loop.stop(Duration.ofSeconds(5));
    }
    scheduler.stop(Duration.ofSeconds(5));
  }

  private ReconcileLoop<String> loop(
      Clock clock, Runnable resync, Consumer<List<String>> plan, boolean batched) {
    return loop(clock, () -> true, resync, plan, batched, scheduler);
  }

  private ReconcileLoop<String> loop(
      Clock clock,
      BooleanSupplier leader,
      Runnable resync,
      Consumer<List<String>> plan,
      boolean batched,
      WriteScheduler scheduler) {
    return new ReconcileLoop<>(
        new ReconcileLoop.Names("test-loop", "test writer", "key", "key"),
        LoggerFactory.getLogger(ReconcileLoopTest.class),
        clock,
        leader,
        Duration.ofHours(1),
        resync,
        plan,
        batched,
        scheduler,
        WriteQueue.Lane.RECORD);
  }

  /** A throttle that lets one write go per permit the test releases. */
  private static WriteScheduler gated(Semaphore permits) {
    return new WriteScheduler(
        4, Duration.ofSeconds(5), permits::acquire, Clock.systemUTC(), (lane, w) -> {});
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

  /**
   * An exception of a plan is handled (the key backs off); an Error ends the worker, which the loop
   * then reports for the writer's liveness.
   */
  @Test
  void anErrorEndsTheWorkerAndIsReportedWhereAnExceptionIsNot() {
    List<List<String>> planned = new CopyOnWriteArrayList<>();
    loop =
        loop(
            Clock.systemUTC(),
            () -> loop.markDirty(List.of("a", "bad")),
            batch -> {
              if (batch.contains("bad")) {
                throw new IllegalStateException("odd object");
              }
              if (batch.contains("fatal")) {
                throw new AssertionError("an error for the test");
              }
              planned.add(batch);
            },
            true);
    loop.start();
    loop.onCaughtUp();
    await().untilAsserted(() -> assertThat(planned).contains(List.of("a")));
    assertThat(loop.failure()).isNull();

    loop.signal(() -> loop.markDirty("fatal"));

    await().until(() -> loop.failure() != null);
    assertThat(loop.failure()).startsWith("test-loop: ").contains("an error for the test");
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

  @Test
  void aKeyIsNotPlannedWhileItsWriteIsInFlightThenPlannedAgainstTheResult() throws Exception {
    CountDownLatch sending = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> planned = new CopyOnWriteArrayList<>();
    List<String> written = new CopyOnWriteArrayList<>();
    scheduler.start();
    loop =
        loop(
            Clock.systemUTC(),
            () -> loop.markDirty("a"),
            batch ->
                batch.forEach(
                    key -> {
                      planned.add(key);
                      if (key.equals("a")) {
                        loop.write(
                            key,
                            mayWrite -> {
                              sending.countDown();
                              awaitLatch(release);
                              return result(Status.DONE);
                            },
                            r -> written.add(key + " " + r.status()));
                      }
                    }),
            false);
    loop.start();
    loop.onCaughtUp();
    sending.await();

    loop.signal(() -> loop.markDirty("a")); // a newer desired state while the write is in flight
    loop.signal(() -> loop.markDirty("b"));
    await().untilAsserted(() -> assertThat(planned).containsExactly("a", "b"));
    assertThat(loop.pending()).as("a waits for its write").isEqualTo(1);

    release.countDown();

    await().untilAsserted(() -> assertThat(planned).containsExactly("a", "b", "a"));
    await().untilAsserted(() -> assertThat(written).containsExactly("a DONE", "a DONE"));
  }

  @Test
  void aWriteWhoseKeyChangesBeforeItsTurnIsDroppedUnsentAndTheKeyPlannedAgain() throws Exception {
    Semaphore permits = new Semaphore(0);
    scheduler = gated(permits);
    scheduler.start();
    List<String> planned = new CopyOnWriteArrayList<>();
    AtomicInteger sent = new AtomicInteger();
    List<Status> written = new CopyOnWriteArrayList<>();
    loop =
        loop(
            Clock.systemUTC(),
            () -> true,
            () -> loop.markDirty("a"),
            batch ->
                batch.forEach(
                    key -> {
                      planned.add(key);
                      loop.write(
                          key,
                          mayWrite -> {
                            sent.incrementAndGet();
                            return result(Status.DONE);
                          },
                          r -> written.add(r.status()));
                    }),
            false,
            scheduler);
    loop.start();
    loop.onCaughtUp();
    await().untilAsserted(() -> assertThat(planned).containsExactly("a"));
    await().until(() -> scheduler.queuedRecordWrites() == 1);

    CountDownLatch marked = new CountDownLatch(1);
    loop.signal(
        () -> {
          loop.markDirty("a");
          marked.countDown();
        });
    marked.await();
    permits.release();

    await().untilAsserted(() -> assertThat(written).containsExactly(Status.DONE));
    assertThat(planned).containsExactly("a", "a");
    assertThat(sent.get()).as("only the write planned from the newer state is sent").isEqualTo(1);
  }

  @Test
  void aWriteQueuedWhenLeadershipIsLostIsDroppedAndPlannedAgainWhenItReturns() throws Exception {
    Semaphore permits = new Semaphore(0);
    scheduler = gated(permits);
    scheduler.start();
    AtomicBoolean leader = new AtomicBoolean(true);
    List<String> planned = new CopyOnWriteArrayList<>();
    List<Boolean> sentAsLeader = new CopyOnWriteArrayList<>();
    loop =
        loop(
            Clock.systemUTC(),
            leader::get,
            () -> loop.markDirty("a"),
            batch ->
                batch.forEach(
                    key -> {
                      planned.add(key);
                      loop.write(
                          key,
                          mayWrite -> {
                            sentAsLeader.add(mayWrite.getAsBoolean());
                            return result(Status.DONE);
                          },
                          r -> {});
                    }),
            false,
            scheduler);
    loop.start();
    loop.onCaughtUp();
    await().until(() -> scheduler.queuedRecordWrites() == 1);

    leader.set(false);
    loop.onLeadership(false);
    permits.release();
    await().until(() -> loop.pending() == 1 && scheduler.queuedRecordWrites() == 0);
    assertThat(sentAsLeader).as("nothing is sent by a former leader").isEmpty();
    assertThat(planned).containsExactly("a");

    leader.set(true);
    loop.onLeadership(true);
    permits.release();

    await().untilAsserted(() -> assertThat(sentAsLeader).containsExactly(true));
    assertThat(planned).containsExactly("a", "a");
  }

  private static void awaitLatch(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
