package dev.cairn.recordwriter.reconcile;

import dev.cairn.commonmodel.runtime.CriticalThread;
import dev.cairn.recordwriter.kube.WriteResult;
import dev.cairn.recordwriter.reconcile.WriteQueue.Lane;
import dev.cairn.recordwriter.reconcile.WriteQueue.Target;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the writes both reconcilers plan (DNSEndpoints and Gslb statuses) to the API server, up to
 * {@code maxConcurrent} at once, in the order of {@link WriteQueue} (one write per object at a
 * time, DNS first, no starvation), paced by one {@link Throttle} (the write rate limit).
 *
 * <p>One dispatcher thread takes a token, then the write that goes next, and hands it to one of
 * {@code maxConcurrent} write threads; so the token is spent on the most urgent write at the moment
 * it is granted, and the total rate never exceeds the throttle's however many threads write. A
 * write that is no longer wanted when its turn comes ({@link Write#wanted()}: its object changed
 * since it was planned, or this instance may no longer write) is dropped unsent and keeps the token
 * for the next one. The owner of a write learns its result, or that it was dropped, through {@link
 * Write#done()}, called on a scheduler thread.
 *
 * <p>{@link #stop} drops the queued writes (the level-triggered loops plan them again after a
 * restart or on the next leader) and waits for the writes in flight to finish.
 */
public final class WriteScheduler {

  private static final Logger log = LoggerFactory.getLogger(WriteScheduler.class);

  /** Waits for permission to send one write: the shared write rate limit. */
  @FunctionalInterface
  public interface Throttle {
    /** Waits for a token. */
    void acquire() throws InterruptedException;
  }

  /**
   * One planned write.
   *
   * @param target the object written
   * @param wanted checked right before the write is sent; false drops it unsent
   * @param send makes the API call, on a write thread
   * @param done told the result, or empty when the write was dropped unsent; must be quick
   */
  record Write(
      Target target,
      BooleanSupplier wanted,
      Supplier<WriteResult> send,
      Consumer<Optional<WriteResult>> done) {}

  private record Queued(Write write, long enqueuedNanos) {}

  private final int maxConcurrent;
  private final Throttle throttle;
  private final Clock clock;
  private final BiConsumer<Lane, Duration> waited;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final WriteQueue<Queued> queue;
  private final ExecutorService writers;
  private final CriticalThread dispatcher;
  private volatile boolean stopping;

  /**
   * A scheduler; {@link #start()} starts its threads.
   *
   * @param maxConcurrent the most writes in flight at once, at least 1
   * @param statusMaxDelay how long a Gslb status write yields to DNSEndpoint writes
   * @param throttle the write rate limit every write passes
   * @param clock the enqueue times of {@link WriteQueue}
   * @param waited told how long each write sent waited, from queued to sent, by lane
   */
  WriteScheduler(
      int maxConcurrent,
      Duration statusMaxDelay,
      Throttle throttle,
      Clock clock,
      BiConsumer<Lane, Duration> waited) {
    if (maxConcurrent < 1) {
      throw new IllegalArgumentException("maxConcurrent must be at least 1, got " + maxConcurrent);
    }
    this.maxConcurrent = maxConcurrent;
    this.throttle = throttle;
    this.clock = clock;
    this.waited = waited;
    this.queue = new WriteQueue<>(statusMaxDelay);
    AtomicInteger n = new AtomicInteger();
    this.writers =
        Executors.newFixedThreadPool(
            maxConcurrent,
            r -> {
              Thread t = new Thread(r, "cairn-write-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.dispatcher =
        new CriticalThread(
            "cairn-write-dispatcher", this::dispatch, log, "no write is sent any more");
  }

  /**
   * A scheduler for the writer ({@code writer.max-concurrent-writes}, {@code
   * writer.status-write-max-delay}).
   *
   * @param maxConcurrent the most writes in flight at once, at least 1
   * @param statusMaxDelay how long a Gslb status write yields to DNSEndpoint writes
   * @param throttle the write rate limit every write passes
   * @param clock the enqueue times
   * @param waited told how long each write waited in the queue, with its kind ({@code dnsendpoint},
   *     {@code ingress} or {@code gslb_status})
   */
  public static WriteScheduler of(
      int maxConcurrent,
      Duration statusMaxDelay,
      Throttle throttle,
      Clock clock,
      BiConsumer<String, Duration> waited) {
    return new WriteScheduler(
        maxConcurrent,
        statusMaxDelay,
        throttle,
        clock,
        (lane, wait) -> waited.accept(lane.kind(), wait));
  }

  /** What ended the dispatcher thread unexpectedly, or {@code null}. */
  public String failure() {
    return dispatcher.failure() == null ? null : dispatcher.name() + ": " + dispatcher.failure();
  }

  /** Starts the dispatcher. */
  public void start() {
    dispatcher.start();
  }

  /**
   * Queues a write. A write to an object with another write in flight waits for it to finish. After
   * {@link #stop} the write is dropped at once. Thread-safe.
   */
  void submit(Write write) {
    lock.lock();
    try {
      if (!stopping) {
        queue.add(write.target(), new Queued(write, System.nanoTime()), clock.instant());
        changed.signalAll();
        return;
      }
    } finally {
      lock.unlock();
    }
    drop(write);
  }

  /** True until {@link #stop}: writes submitted now may be sent. Thread-safe. */
  boolean accepting() {
    return !stopping;
  }

  /** The writes in flight (taken from the queue, not finished). Thread-safe. */
  public int inFlight() {
    lock.lock();
    try {
      return queue.inFlight();
    } finally {
      lock.unlock();
    }
  }

  /** The DNSEndpoint writes waiting for their turn. Thread-safe. */
  public int queuedRecordWrites() {
    return queued(Lane.RECORD);
  }

  /** The Gslb status writes waiting for their turn. Thread-safe. */
  public int queuedStatusWrites() {
    return queued(Lane.STATUS);
  }

  /** The embedded Ingress writes waiting for their turn. Thread-safe. */
  public int queuedIngressWrites() {
    return queued(Lane.INGRESS);
  }

  /** The writes of annotated Ingresses' Gslbs waiting for their turn. Thread-safe. */
  public int queuedGslbWrites() {
    return queued(Lane.GSLB);
  }

  private int queued(Lane lane) {
    lock.lock();
    try {
      return queue.queued(lane);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops in lameduck fashion: queued writes are dropped (their owners hear so), the writes in
   * flight finish, nothing further is sent. Thread-safe.
   *
   * @param timeout how long to wait for the writes in flight
   */
  public void stop(Duration timeout) {
    List<Queued> dropped;
    lock.lock();
    try {
      if (stopping) {
        return;
      }
      stopping = true;
      dropped = queue.drain();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    dropped.forEach(q -> drop(q.write()));
    dispatcher.thread().interrupt(); // it may be waiting for a token
    try {
      dispatcher.thread().join(timeout.toMillis());
      writers.shutdown();
      if (!writers.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        log.atWarn().log("writes in flight did not finish in time; interrupting them");
        writers.shutdownNow();
      }
    } catch (InterruptedException e) {
      writers.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private void dispatch() {
    boolean haveToken = false;
    while (true) {
      try {
        lock.lock();
        try {
          while (!stopping && !(queue.inFlight() < maxConcurrent && queue.ready())) {
            changed.await();
          }
          if (stopping) {
            return;
          }
        } finally {
          lock.unlock();
        }
        if (!haveToken) {
          throttle.acquire();
          haveToken = true;
        }
        Queued next;
        lock.lock();
        try {
          if (stopping) {
            return;
          }
          next = queue.take(); // the most urgent write at the moment the token is granted
        } finally {
          lock.unlock();
        }
        if (next == null) {
          continue;
        }
        if (!next.write().wanted().getAsBoolean()) {
          finish(next.write(), Optional.empty()); // the token goes to the next write
          continue;
        }
        haveToken = false;
        waited.accept(
            next.write().target().lane(),
            Duration.ofNanos(System.nanoTime() - next.enqueuedNanos()));
        try {
          writers.execute(() -> send(next.write()));
        } catch (RejectedExecutionException e) {
          finish(next.write(), Optional.empty()); // stopped meanwhile
        }
      } catch (InterruptedException e) {
        if (stopping) {
          return;
        }
        log.atWarn().log("the write dispatcher was interrupted; continuing");
      } catch (RuntimeException e) {
        log.atError().setCause(e).log("the write dispatcher failed; continuing");
      }
    }
  }

  private void send(Write write) {
    WriteResult result;
    try {
      result = write.send().get();
    } catch (RuntimeException e) {
      log.atError()
          .addKeyValue("target", write.target())
          .setCause(e)
          .log("a write to {} failed unexpectedly", write.target().key());
      result = new WriteResult(WriteResult.Status.FAILED, "the write failed: " + e);
    }
    finish(write, Optional.of(result));
  }

  /** A write taken from the queue is finished: frees its object, then tells the owner. */
  private void finish(Write write, Optional<WriteResult> result) {
    lock.lock();
    try {
      queue.done(write.target());
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    tell(write, result);
  }

  /** A write never taken from the queue is dropped: tells the owner. */
  private void drop(Write write) {
    tell(write, Optional.empty());
  }

  private void tell(Write write, Optional<WriteResult> result) {
    try {
      write.done().accept(result);
    } catch (RuntimeException e) {
      log.atError()
          .addKeyValue("target", write.target())
          .setCause(e)
          .log("handling the result of a write to {} failed", write.target().key());
    }
  }
}
