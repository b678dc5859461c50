package dev.cairn.topologywatcher.lifecycle;

import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.topologywatcher.health.WatcherMetrics;
import dev.cairn.topologywatcher.kafka.StatePublisher;
import dev.cairn.topologywatcher.kafka.TopicSnapshotReader;
import dev.cairn.topologywatcher.kube.KubeWatcher;
import dev.cairn.topologywatcher.state.TopologyView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One leadership term, on its own thread: make sure the topics exist (with their compaction
 * settings, not as a side effect of a first send), announce {@code SYNCING} with a fresh
 * generation, read back what the topics hold, wait for every informer's initial list, publish
 * exactly the differences, then announce {@code SYNCED} with the object counts. Every step retries
 * until it succeeds or the term ends (leadership lost, shutdown).
 */
final class LeaderSession {

  private static final Logger log = LoggerFactory.getLogger(LeaderSession.class);
  private static final long POLL_MILLIS = 250;

  private final StatePublisher publisher;
  private final TopicSnapshotReader reader;
  private final KubeWatcher kube;
  private final TopologyView view;
  private final WatcherStatus status;
  private final WatcherMetrics metrics;
  private final Clock clock;
  private final Duration retryBackoff;
  private final BooleanSupplier ensureTopics;
  private final Thread thread;
  private volatile boolean active = true;
  private String lastFailure;

  LeaderSession(
      StatePublisher publisher,
      TopicSnapshotReader reader,
      KubeWatcher kube,
      TopologyView view,
      WatcherStatus status,
      WatcherMetrics metrics,
      Clock clock,
      Duration retryBackoff,
      BooleanSupplier ensureTopics) {
    this.publisher = publisher;
    this.reader = reader;
    this.kube = kube;
    this.view = view;
    this.status = status;
    this.metrics = metrics;
    this.clock = clock;
    this.retryBackoff = retryBackoff;
    this.ensureTopics = ensureTopics;
    this.thread = new Thread(this::run, "cairn-watcher-term");
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  void cancel() {
    active = false;
    thread.interrupt();
  }

  /** A new generation: the start time (sortable) and a random suffix (unique). */
  static String newGeneration(Instant now) {
    return now + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
  }

  private void run() {
    String generation = newGeneration(clock.instant());
    status.syncing(generation);
    try {
      log.atInfo().addKeyValue("generation", generation).log("leading; announcing SYNCING");
      retry(
          "create the topics",
          () ->
              ensureTopics.getAsBoolean()
                  ? CompletableFuture.completedFuture(null)
                  : CompletableFuture.failedFuture(
                      new IllegalStateException(
                          "the Kafka admin client could not reach a broker")));
      retry(
          "announce SYNCING",
          () ->
              publisher.publishMarker(
                  new SyncMarker(generation, SyncMarker.Phase.SYNCING, clock.instant(), Map.of())));
      Map<TopicSpec<?>, Map<String, Object>> contents = readTopics();
      if (contents == null) {
        return;
      }
      log.atInfo()
          .addKeyValue("generation", generation)
          .addKeyValue("keys", contents.values().stream().mapToInt(Map::size).sum())
          .log("read back the topics");
      retry("wait for the initial list of every kind", kube::initialSync);
      retry("publish the differences", () -> publisher.activate(contents));
      Map<String, Integer> counts = view.counts();
      retry(
          "announce SYNCED",
          () ->
              publisher.publishMarker(
                  new SyncMarker(generation, SyncMarker.Phase.SYNCED, clock.instant(), counts)));
      status.synced(clock.instant());
      metrics.synced();
      log.atInfo()
          .addKeyValue("generation", generation)
          .addKeyValue("objects", counts)
          .log("SYNCED published");
    } catch (InterruptedException | CancellationException e) {
      log.atDebug().addKeyValue("generation", generation).log("term ended before SYNCED");
    }
  }

  private Map<TopicSpec<?>, Map<String, Object>> readTopics() throws InterruptedException {
    while (active) {
      try {
        Map<TopicSpec<?>, Map<String, Object>> contents = reader.read(() -> active);
        status.problem(null);
        return contents;
      } catch (RuntimeException e) {
        failed("read back the topics", e);
      }
    }
    return null;
  }

  private void retry(String what, Supplier<? extends Future<?>> step) throws InterruptedException {
    while (true) {
      checkActive();
      try {
        await(what, step.get());
        status.problem(null);
        return;
      } catch (CancellationException e) {
        throw e;
      } catch (ExecutionException e) {
        failed(what, e.getCause());
      } catch (RuntimeException e) {
        failed(what, e);
      }
    }
  }

  private void await(String what, Future<?> future)
      throws InterruptedException, ExecutionException {
    while (true) {
      checkActive();
      try {
        future.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
        return;
      } catch (TimeoutException e) {
        log.atTrace().log("still waiting to {}", what);
      }
    }
  }

  /** Records and logs a failed step (at warn once per distinct failure), then pauses. */
  private void failed(String what, Throwable cause) throws InterruptedException {
    String text = "could not " + what + ": " + cause;
    status.problem(text);
    if (text.equals(lastFailure)) {
      log.atDebug().log("{}; retrying in {}", text, retryBackoff);
    } else {
      log.atWarn().log("{}; retrying every {}", text, retryBackoff);
      lastFailure = text;
    }
    TimeUnit.MILLISECONDS.sleep(retryBackoff.toMillis());
  }

  private void checkActive() {
    if (!active) {
      throw new CancellationException("leadership term ended");
    }
  }
}
