package dev.cairn.recordwriter.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.MutableClock;
import dev.cairn.recordwriter.kube.WriteRateLimiter;
import dev.cairn.recordwriter.kube.WriteResult;
import dev.cairn.recordwriter.kube.WriteResult.Status;
import dev.cairn.recordwriter.reconcile.WriteQueue.Lane;
import dev.cairn.recordwriter.reconcile.WriteQueue.Target;
import dev.cairn.recordwriter.reconcile.WriteScheduler.Write;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WriteSchedulerTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration STOP = Duration.ofSeconds(10);
  private static final WriteResult DONE = new WriteResult(Status.DONE, "written");

  private final List<WriteScheduler> started = new ArrayList<>();
  private final Map<String, Optional<WriteResult>> results = new ConcurrentHashMap<>();

  @AfterEach
  void stop() {
    started.forEach(s -> s.stop(STOP));
  }

  private WriteScheduler scheduler(
      int maxConcurrent, Duration statusMaxDelay, WriteScheduler.Throttle throttle, Clock clock) {
    WriteScheduler s =
        new WriteScheduler(maxConcurrent, statusMaxDelay, throttle, clock, (lane, wait) -> {});
    started.add(s);
    s.start();
    return s;
  }

  private Write write(Lane lane, String key, Supplier<WriteResult> send) {
    return new Write(
        new Target(lane, key),
        () -> true,
        send,
        result -> results.put(lane.name().charAt(0) + ":" + key, result));
  }

  /** A throttle that lets one write go per permit the test releases. */
  private static final class Gate implements WriteScheduler.Throttle {
    final Semaphore permits = new Semaphore(0);
    final AtomicInteger acquired = new AtomicInteger();

    @Override
    public void acquire() throws InterruptedException {
      permits.acquire();
      acquired.incrementAndGet();
    }
  }

  @Test
  void keepsAtMostMaxConcurrentWritesInFlightAndNeverTwoToOneObject() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();
    Set<String> busy = ConcurrentHashMap.newKeySet();
    List<String> overlaps = new CopyOnWriteArrayList<>();
    WriteScheduler s = scheduler(3, Duration.ofSeconds(5), () -> {}, Clock.systemUTC());

    AtomicInteger sent = new AtomicInteger();
    for (int i = 0; i < 30; i++) {
      String key = "k" + (i % 5); // six writes to each of five objects
      s.submit(
          new Write(
              new Target(Lane.RECORD, key),
              () -> true,
              () -> {
                if (!busy.add(key)) {
                  overlaps.add(key);
                }
                maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                try {
                  release.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                inFlight.decrementAndGet();
                busy.remove(key);
                sent.incrementAndGet();
                return DONE;
              },
              result -> {}));
    }

    await().until(() -> inFlight.get() == 3);
    assertThat(s.inFlight()).isEqualTo(3);
    assertThat(s.queuedRecordWrites()).isEqualTo(27);
    release.countDown();

    await().until(() -> sent.get() == 30);
    assertThat(maxInFlight.get()).isEqualTo(3);
    assertThat(overlaps).isEmpty();
  }

  @Test
  void anErrorEndsTheDispatcherAndIsReported() {
    WriteScheduler s =
        scheduler(
            2,
            Duration.ofSeconds(5),
            () -> {
              throw new AssertionError("an error for the test");
            },
            Clock.systemUTC());
    assertThat(s.failure()).isNull();

    s.submit(write(Lane.RECORD, "a", () -> DONE));

    await().until(() -> s.failure() != null);
    assertThat(s.failure())
        .startsWith("cairn-write-dispatcher: ")
        .contains("an error for the test");
  }

  @Test
  void staysWithinTheRateLimitCountedOnAFakeClock() {
    AtomicLong fakeNanos = new AtomicLong();
    double rate = 100;
    int burst = 10;
    WriteRateLimiter limiter =
        new WriteRateLimiter(rate, burst, fakeNanos::get, fakeNanos::addAndGet);
    WriteScheduler s = scheduler(8, Duration.ofSeconds(5), limiter::acquire, Clock.systemUTC());
    List<Long> sentAt = Collections.synchronizedList(new ArrayList<>());

    int n = 300;
    for (int i = 0; i < n; i++) {
      s.submit(
          write(
              i % 3 == 0 ? Lane.STATUS : Lane.RECORD,
              "k" + i,
              () -> {
                sentAt.add(fakeNanos.get());
                return DONE;
              }));
    }
    await().until(() -> results.size() == n);

    List<Long> times = new ArrayList<>(sentAt);
    Collections.sort(times);
    for (int k = 0; k < n; k++) {
      // By any time t at most burst + rate * t writes have gone.
      // (1 µs of slack for the bucket's floating-point arithmetic; writes are 10 ms apart.)
      long earliest = (long) ((k + 1 - burst) / rate * 1e9) - 1_000;
      assertThat(times.get(k)).as("write %d", k).isGreaterThanOrEqualTo(earliest);
    }
    // The limiter sleeps no longer than it must: the last token is granted at (n - burst) / rate.
    assertThat(fakeNanos.get()).isCloseTo((long) ((n - burst) / rate * 1e9), within(1_000_000L));
  }

  @Test
  void sendsDnsEndpointWritesBeforeStatusWritesWaitingWithThem() {
    Gate gate = new Gate();
    WriteScheduler s = scheduler(1, Duration.ofHours(1), gate, Clock.systemUTC());
    List<String> order = new CopyOnWriteArrayList<>();
    Supplier<WriteResult> send = () -> DONE;

    for (String g : List.of("g1", "g2", "g3")) {
      s.submit(write(Lane.STATUS, g, record(order, "S:" + g, send)));
    }
    for (String r : List.of("r1", "r2", "r3")) {
      s.submit(write(Lane.RECORD, r, record(order, "R:" + r, send)));
    }
    gate.permits.release(6);

    await().until(() -> order.size() == 6);
    assertThat(order).containsExactly("R:r1", "R:r2", "R:r3", "S:g1", "S:g2", "S:g3");
  }

  @Test
  void sendsAStatusThatHasWaitedPastTheBoundBeforeNewerDnsEndpointWrites() {
    Gate gate = new Gate();
    MutableClock clock = new MutableClock(T0);
    WriteScheduler s = scheduler(1, Duration.ofSeconds(5), gate, clock);
    List<String> order = new CopyOnWriteArrayList<>();
    Supplier<WriteResult> send = () -> DONE;

    s.submit(write(Lane.STATUS, "g1", record(order, "S:g1", send)));
    clock.advance(Duration.ofSeconds(6));
    s.submit(write(Lane.RECORD, "r1", record(order, "R:r1", send)));
    gate.permits.release(2);

    await().until(() -> order.size() == 2);
    assertThat(order).containsExactly("S:g1", "R:r1");
  }

  @Test
  void dropsAWriteNoLongerWantedUnsentAndGivesItsTokenToTheNext() {
    Gate gate = new Gate();
    WriteScheduler s = scheduler(1, Duration.ofSeconds(5), gate, Clock.systemUTC());
    AtomicInteger sends = new AtomicInteger();

    s.submit(
        new Write(
            new Target(Lane.RECORD, "stale"),
            () -> false,
            () -> {
              sends.incrementAndGet();
              return DONE;
            },
            result -> results.put("stale", result)));
    s.submit(write(Lane.RECORD, "fresh", () -> DONE));
    gate.permits.release(1);

    await().until(() -> results.size() == 2);
    assertThat(results.get("stale")).isEmpty();
    assertThat(results.get("R:fresh")).contains(DONE);
    assertThat(sends.get()).isZero();
    assertThat(gate.acquired.get()).isEqualTo(1);
  }

  @Test
  void turnsAnUnexpectedFailureIntoAFailedResult() {
    WriteScheduler s = scheduler(2, Duration.ofSeconds(5), () -> {}, Clock.systemUTC());

    s.submit(
        write(
            Lane.STATUS,
            "g1",
            () -> {
              throw new IllegalStateException("bug");
            }));

    await().until(() -> results.containsKey("S:g1"));
    assertThat(results.get("S:g1")).get().extracting(WriteResult::status).isEqualTo(Status.FAILED);
  }

  @Test
  void stopLetsTheWritesInFlightFinishAndDropsTheQueuedOnes() throws Exception {
    CountDownLatch sending = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    WriteScheduler s = scheduler(1, Duration.ofSeconds(5), () -> {}, Clock.systemUTC());
    s.submit(
        write(
            Lane.RECORD,
            "in-flight",
            () -> {
              sending.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return DONE;
            }));
    s.submit(write(Lane.RECORD, "queued", () -> DONE));
    sending.await();

    Thread stopper = new Thread(() -> s.stop(STOP));
    stopper.start();
    await().until(() -> results.containsKey("R:queued"));
    assertThat(results.get("R:queued")).as("dropped unsent").isEmpty();
    assertThat(stopper.isAlive()).as("stop waits for the write in flight").isTrue();

    release.countDown();
    stopper.join();
    assertThat(results.get("R:in-flight")).contains(DONE);
    assertThat(s.accepting()).isFalse();

    s.submit(write(Lane.RECORD, "late", () -> DONE));
    assertThat(results.get("R:late")).as("dropped at once after stop").isEmpty();
  }

  private static Supplier<WriteResult> record(
      List<String> order, String name, Supplier<WriteResult> send) {
    return () -> {
      order.add(name);
      return send.get();
    };
  }
}
