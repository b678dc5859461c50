package dev.cairn.recordwriter.reconcile;

import dev.cairn.commonmodel.runtime.CriticalThread;
import dev.cairn.recordwriter.kube.WriteResult;
import dev.cairn.recordwriter.reconcile.WriteQueue.Lane;
import dev.cairn.recordwriter.reconcile.WriteQueue.Target;
import dev.cairn.recordwriter.reconcile.WriteScheduler.Write;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * The level-triggered worker both reconcilers run on: a queue of signals, a dirty set of keys with
 * per-key backoff, and one worker thread that takes the signals in and plans the due keys in
 * batches. What a key means, how a batch is planned, and what a resync marks dirty is the owner's;
 * the loop owns ordering, gating and retries. Planned writes go to the shared {@link
 * WriteScheduler}, which sends several at once; their results come back as signals.
 *
 * <ul>
 *   <li>One writer per object: a key whose write is queued or in flight is not planned again until
 *       its result has been taken in, so a newer desired state waits and is planned against the
 *       result. A key marked dirty meanwhile has its queued write dropped unsent ({@link #write}),
 *       as it was planned from a state that has changed.
 *   <li>Backpressure: new keys are planned only while fewer than {@code LOW_WATER} of this loop's
 *       writes are queued or in flight, so a plan is never far older than its write.
 *   <li>Nothing is planned before the owner's topic has been read to its end ({@link
 *       #onCaughtUp()}), nor while this instance is not the leader. Reaching the end, gaining
 *       leadership and every {@code resyncPeriod}, the owner's resync runs before the next batch.
 *   <li>Signals are actions run on the worker thread, so all state they touch (the dirty set, the
 *       owner's maps) is confined to it.
 *   <li>A batch that throws is planned again key by key (when the owner plans in batches); a key
 *       that throws on its own is retried later with backoff, so one bad object never holds up the
 *       others.
 * </ul>
 *
 * <p>The dirty set, the backoff and every method not marked thread-safe belong to the worker
 * thread.
 *
 * @param <K> the key planned (an object name)
 */
final class ReconcileLoop<K> {

  private static final int BATCH = 256;
  private static final int LOW_WATER = BATCH / 2;
  private static final long IDLE_WAIT_MILLIS = 60_000;
  private static final Duration CONFLICT_BACKOFF_BASE = Duration.ofMillis(100);
  private static final Duration CONFLICT_BACKOFF_MAX = Duration.ofSeconds(30);
  private static final Duration ERROR_BACKOFF_BASE = Duration.ofSeconds(1);
  private static final Duration ERROR_BACKOFF_MAX = Duration.ofMinutes(5);
  private static final long FIRST_READY_CHECK_MILLIS = 200;
  private static final long MAX_READY_CHECK_MILLIS = 30_000;

  /** What a loop is called in thread names and logs. */
  record Names(String thread, String role, String logKey, String subject) {}

  private final Names names;
  private final Logger log;
  private final Clock clock;
  private final BooleanSupplier leader;
  private final Duration resyncPeriod;
  private final Runnable resync;
  private final Consumer<List<K>> plan;
  private final boolean batched;
  private final WriteScheduler scheduler;
  private final Lane lane;

  private final BlockingQueue<Runnable> signals = new LinkedBlockingQueue<>();
  private final ScheduledExecutorService timers;
  private final CriticalThread worker;
  private volatile boolean stopping;
  private volatile boolean caughtUp;
  private volatile int pending;
  // Keys marked dirty while their write was queued or in flight: that write is dropped if unsent.
  private final Set<K> superseded = ConcurrentHashMap.newKeySet();

  // Worker-confined state.
  private final Set<K> dirty = new LinkedHashSet<>();
  private final Set<K> writing = new HashSet<>();
  private final Map<K, Backoff> backoff = new HashMap<>();
  private boolean resyncRequested;

  /**
   * A loop; {@link #start()} starts its thread.
   *
   * @param names the thread name ({@code -timers} is added for the timer thread), the role in
   *     loop-level log lines ("writer"), the log key of a planned object ("dnsendpoint") and how a
   *     failed plan names it ("DNSEndpoint")
   * @param log the owner's logger
   * @param leader whether this instance may write now
   * @param resyncPeriod the period of full resyncs
   * @param resync run on the worker at every resync; marks what must be planned dirty
   * @param plan plans a batch of due keys on the worker and hands their writes to {@link #write}
   * @param batched true when {@code plan} takes whole batches; false to pass it one key at a time
   * @param scheduler sends the writes
   * @param lane the priority of this loop's writes
   */
  ReconcileLoop(
      Names names,
      Logger log,
      Clock clock,
      BooleanSupplier leader,
      Duration resyncPeriod,
      Runnable resync,
      Consumer<List<K>> plan,
      boolean batched,
      WriteScheduler scheduler,
      Lane lane) {
    this.names = names;
    this.log = log;
    this.clock = clock;
    this.leader = leader;
    this.resyncPeriod = resyncPeriod;
    this.resync = resync;
    this.plan = plan;
    this.batched = batched;
    this.scheduler = scheduler;
    this.lane = lane;
    this.timers =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, names.thread() + "-timers");
              t.setDaemon(true);
              return t;
            });
    this.worker =
        new CriticalThread(
            names.thread(), this::run, log, "the " + names.role() + " plans nothing more");
  }

  /** What ended the worker thread unexpectedly, or {@code null}. Thread-safe. */
  String failure() {
    return worker.failure() == null ? null : worker.name() + ": " + worker.failure();
  }

  /** Starts the worker and the periodic resync. Thread-safe. */
  void start() {
    worker.start();
    long period = resyncPeriod.toMillis();
    timers.scheduleWithFixedDelay(this::requestResync, period, period, TimeUnit.MILLISECONDS);
  }

  /**
   * Stops planning: nothing further is planned or handed to the scheduler, and queued writes of
   * this loop are dropped when their turn comes; the scheduler's own {@link WriteScheduler#stop}
   * lets the writes in flight finish. Thread-safe.
   *
   * @param timeout how long to wait for the worker to finish the pass it is in
   */
  void stop(Duration timeout) {
    stopping = true;
    signals.offer(() -> {});
    try {
      worker.thread().join(timeout.toMillis());
      if (worker.isAlive()) {
        log.atWarn().log("the {} did not finish its pass in time; interrupting it", names.role());
        worker.thread().interrupt();
        worker.thread().join(1_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    timers.shutdownNow();
  }

  /** Queues an action to run on the worker thread. Thread-safe. */
  void signal(Runnable action) {
    signals.offer(action);
  }

  /** The owner's topic has been read to its end: planning may start. Thread-safe. */
  void onCaughtUp() {
    signals.offer(
        () -> {
          caughtUp = true;
          resyncRequested = true;
        });
  }

  /**
   * Checks {@code ready} now and then again with a growing pause (200 ms doubling up to 30 s) until
   * it holds, then lets planning start ({@link #onCaughtUp()}): for loops that plan from informers
   * (which must have listed everything first) instead of a topic. An exception counts as not ready.
   * Thread-safe.
   */
  void catchUpWhen(BooleanSupplier ready, Logger log) {
    checkReady(ready, log, 0, FIRST_READY_CHECK_MILLIS);
  }

  private void checkReady(BooleanSupplier ready, Logger log, long delayMillis, long nextMillis) {
    schedule(
        () -> {
          try {
            if (ready.getAsBoolean()) {
              onCaughtUp();
              return;
            }
          } catch (RuntimeException e) {
            log.atDebug().setCause(e).log("waiting for the informers to list everything");
          }
          checkReady(ready, log, nextMillis, Math.min(MAX_READY_CHECK_MILLIS, nextMillis * 2));
        },
        delayMillis);
  }

  /** Leadership was gained (a resync follows) or lost (writing stops). Thread-safe. */
  void onLeadership(boolean isLeader) {
    signals.offer(
        () -> {
          if (isLeader) {
            resyncRequested = true;
          }
        });
  }

  /** Asks for a full resync. Thread-safe. */
  void requestResync() {
    signals.offer(() -> resyncRequested = true);
  }

  /** Runs an action on the timer thread after a delay. Thread-safe. */
  ScheduledFuture<?> schedule(Runnable action, long delayMillis) {
    return timers.schedule(action, delayMillis, TimeUnit.MILLISECONDS);
  }

  /** True once the owner's topic has been read to its end. Thread-safe. */
  boolean caughtUp() {
    return caughtUp;
  }

  /** Keys waiting to be planned (approximate). Thread-safe. */
  int pending() {
    return pending + signals.size();
  }

  /** True while this instance is the leader and not stopping. Thread-safe. */
  boolean mayWrite() {
    return !stopping && scheduler.accepting() && leader.getAsBoolean();
  }

  /** Marks a key to be planned. */
  void markDirty(K key) {
    dirty.add(key);
    if (writing.contains(key)) {
      superseded.add(key);
    }
  }

  /** Marks keys to be planned. */
  void markDirty(Collection<K> keys) {
    keys.forEach(this::markDirty);
  }

  /**
   * Hands a write planned for {@code key} to the scheduler. The key counts as being written until
   * its result has been taken in on the worker: it is not planned meanwhile. The write is dropped
   * unsent, and the key planned again, when the key is marked dirty before the write's turn comes
   * (it was planned from a state that has changed) or when this instance may no longer write.
   *
   * @param send makes the API call, given the check to make right before it
   * @param after run on the worker with the result of a write that was sent
   */
  void write(K key, Function<BooleanSupplier, WriteResult> send, Consumer<WriteResult> after) {
    if (!mayWrite() || writing.contains(key)) {
      markDirty(key); // planned again once allowed, or against the result of the write in flight
      return;
    }
    if (dirty.contains(key)) {
      return; // changed since planned: planned again in a later pass
    }
    writing.add(key);
    scheduler.submit(
        new Write(
            new Target(lane, key),
            () -> !superseded.contains(key) && mayWrite(),
            () -> send.apply(this::mayWrite),
            result -> signals.offer(() -> written(key, result, after))));
  }

  private void written(K key, Optional<WriteResult> result, Consumer<WriteResult> after) {
    writing.remove(key);
    superseded.remove(key);
    if (result.isPresent()) {
      after.accept(result.get());
    } else {
      dirty.add(key); // dropped unsent: planned again (once this instance may write)
    }
  }

  /** Takes the queued signals in. */
  private void takeSignalsIn() {
    Runnable s;
    while ((s = signals.poll()) != null) {
      s.run();
    }
  }

  /** True when the key is waiting to be planned (again). */
  boolean isDirty(K key) {
    return dirty.contains(key);
  }

  /** The key is settled (planned in sync, written, or refused for good): no backoff. */
  void settled(K key) {
    backoff.remove(key);
  }

  /**
   * Updates a key's backoff and dirty state after a write.
   *
   * @param planAgainIfGone whether a key whose object is gone is planned again
   * @return the new backoff after a conflict or failure, for the owner's log line; else {@code
   *     null}
   */
  Backoff afterWrite(K key, WriteResult result, boolean planAgainIfGone) {
    return switch (result.status()) {
      case DONE, INVALID -> {
        backoff.remove(key);
        yield null;
      }
      case GONE -> {
        backoff.remove(key);
        if (planAgainIfGone) {
          dirty.add(key);
        }
        yield null;
      }
      case CONFLICT -> retryLater(key, CONFLICT_BACKOFF_BASE, CONFLICT_BACKOFF_MAX, true);
      case FAILED -> retryLater(key, ERROR_BACKOFF_BASE, ERROR_BACKOFF_MAX, false);
      case SKIPPED -> {
        dirty.add(key);
        yield null;
      }
    };
  }

  private Backoff retryLater(K key, Duration base, Duration max, boolean firstIsImmediate) {
    Backoff b = Backoff.next(backoff.get(key), base, max, clock.instant(), firstIsImmediate);
    backoff.put(key, b);
    dirty.add(key);
    return b;
  }

  private void run() {
    while (!stopping) {
      try {
        Runnable s = signals.poll(waitMillis(), TimeUnit.MILLISECONDS);
        if (s != null) {
          s.run();
        }
        takeSignalsIn();
        if (stopping || !caughtUp || !leader.getAsBoolean() || !scheduler.accepting()) {
          continue;
        }
        if (resyncRequested) {
          resyncRequested = false;
          resync.run();
          continue;
        }
        if (writing.size() >= LOW_WATER) {
          continue; // a write's result wakes the worker
        }
        List<K> batch = dueBatch(BATCH - writing.size());
        if (!batch.isEmpty()) {
          planIsolated(batch);
        }
      } catch (InterruptedException e) {
        if (!stopping) {
          log.atWarn().log("the {} thread was interrupted; continuing", names.role());
        }
      } catch (RuntimeException e) {
        log.atError().setCause(e).log("a {} pass failed; continuing", names.role());
      } finally {
        pending = dirty.size();
      }
    }
  }

  private long waitMillis() {
    if (!caughtUp || !leader.getAsBoolean() || !scheduler.accepting()) {
      return IDLE_WAIT_MILLIS;
    }
    if (resyncRequested) {
      return 0;
    }
    if (writing.size() >= LOW_WATER) {
      return IDLE_WAIT_MILLIS;
    }
    Instant now = clock.instant();
    long wait = IDLE_WAIT_MILLIS;
    for (K key : dirty) {
      if (writing.contains(key)) {
        continue; // planned once the result of its write is in
      }
      Backoff b = backoff.get(key);
      if (b == null || b.due(now)) {
        return 0;
      }
      wait = Math.min(wait, Math.max(1, Duration.between(now, b.notBefore()).toMillis()));
    }
    return wait;
  }

  private List<K> dueBatch(int max) {
    Instant now = clock.instant();
    List<K> batch = new ArrayList<>();
    Iterator<K> it = dirty.iterator();
    while (it.hasNext() && batch.size() < max) {
      K key = it.next();
      if (writing.contains(key)) {
        continue;
      }
      Backoff b = backoff.get(key);
      if (b == null || b.due(now)) {
        batch.add(key);
        it.remove();
      }
    }
    return batch;
  }

  /**
   * Plans a batch; if that fails (a bug met by one odd object), plans every key on its own, so one
   * bad object never holds up the others.
   */
  private void planIsolated(List<K> batch) {
    if (batched && batch.size() > 1) {
      try {
        plan.accept(batch);
        return;
      } catch (RuntimeException batchFailure) {
        log.atDebug()
            .setCause(batchFailure)
            .log("a batch of {} failed; planning its keys one by one", batch.size());
      }
    }
    for (K key : batch) {
      try {
        plan.accept(List.of(key));
      } catch (RuntimeException e) {
        failed(key, e);
      }
    }
  }

  private void failed(K key, RuntimeException e) {
    Backoff b = retryLater(key, ERROR_BACKOFF_BASE, ERROR_BACKOFF_MAX, false);
    log.atError()
        .addKeyValue(names.logKey(), key)
        .addKeyValue("retryAt", b.notBefore())
        .setCause(e)
        .log("planning {} {} failed; trying again later", names.subject(), key);
  }
}
