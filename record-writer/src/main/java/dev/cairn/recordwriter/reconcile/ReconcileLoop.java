package dev.cairn.recordwriter.reconcile;

import dev.cairn.recordwriter.kube.WriteResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * The level-triggered worker both reconcilers run on: a queue of signals, a dirty set of keys with
 * per-key backoff, and one worker thread that takes the signals in and plans the due keys in
 * batches. What a key means, how a batch is planned and applied, and what a resync marks dirty is
 * the owner's; the loop owns ordering, gating and retries.
 *
 * <ul>
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
  private static final long IDLE_WAIT_MILLIS = 60_000;
  private static final Duration CONFLICT_BACKOFF_BASE = Duration.ofMillis(100);
  private static final Duration CONFLICT_BACKOFF_MAX = Duration.ofSeconds(30);
  private static final Duration ERROR_BACKOFF_BASE = Duration.ofSeconds(1);
  private static final Duration ERROR_BACKOFF_MAX = Duration.ofMinutes(5);

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

  private final BlockingQueue<Runnable> signals = new LinkedBlockingQueue<>();
  private final ScheduledExecutorService timers;
  private final Thread worker;
  private volatile boolean stopping;
  private volatile boolean caughtUp;
  private volatile int pending;

  // Worker-confined state.
  private final Set<K> dirty = new LinkedHashSet<>();
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
   * @param plan plans and applies a batch of due keys on the worker
   * @param batched true when {@code plan} takes whole batches; false to pass it one key at a time
   */
  ReconcileLoop(
      Names names,
      Logger log,
      Clock clock,
      BooleanSupplier leader,
      Duration resyncPeriod,
      Runnable resync,
      Consumer<List<K>> plan,
      boolean batched) {
    this.names = names;
    this.log = log;
    this.clock = clock;
    this.leader = leader;
    this.resyncPeriod = resyncPeriod;
    this.resync = resync;
    this.plan = plan;
    this.batched = batched;
    this.timers =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, names.thread() + "-timers");
              t.setDaemon(true);
              return t;
            });
    this.worker = new Thread(this::run, names.thread());
    this.worker.setDaemon(true);
  }

  /** Starts the worker and the periodic resync. Thread-safe. */
  void start() {
    worker.start();
    long period = resyncPeriod.toMillis();
    timers.scheduleWithFixedDelay(this::requestResync, period, period, TimeUnit.MILLISECONDS);
  }

  /**
   * Stops in lameduck fashion: the write in flight completes, nothing further is sent. Thread-safe.
   *
   * @param timeout how long to wait for the write in flight
   */
  void stop(Duration timeout) {
    stopping = true;
    signals.offer(() -> {});
    try {
      worker.join(timeout.toMillis());
      if (worker.isAlive()) {
        log.atWarn().log("the {} did not finish its write in time; interrupting it", names.role());
        worker.interrupt();
        worker.join(1_000);
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
    return !stopping && leader.getAsBoolean();
  }

  /** Marks a key to be planned. */
  void markDirty(K key) {
    dirty.add(key);
  }

  /** Marks keys to be planned. */
  void markDirty(Collection<K> keys) {
    dirty.addAll(keys);
  }

  /**
   * Takes the queued signals in; the owner calls it right before each write, so a write whose key
   * became dirty since it was planned can be dropped ({@link #isDirty}).
   */
  void takeSignalsIn() {
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
        if (stopping || !caughtUp || !leader.getAsBoolean()) {
          continue;
        }
        if (resyncRequested) {
          resyncRequested = false;
          resync.run();
          continue;
        }
        List<K> batch = dueBatch();
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
    if (!caughtUp || !leader.getAsBoolean()) {
      return IDLE_WAIT_MILLIS;
    }
    if (resyncRequested) {
      return 0;
    }
    Instant now = clock.instant();
    long wait = IDLE_WAIT_MILLIS;
    for (K key : dirty) {
      Backoff b = backoff.get(key);
      if (b == null || b.due(now)) {
        return 0;
      }
      wait = Math.min(wait, Math.max(1, Duration.between(now, b.notBefore()).toMillis()));
    }
    return wait;
  }

  private List<K> dueBatch() {
    Instant now = clock.instant();
    List<K> batch = new ArrayList<>();
    Iterator<K> it = dirty.iterator();
    while (it.hasNext() && batch.size() < BATCH) {
      K key = it.next();
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
