package dev.cairn.topologywatcher.lifecycle;

import dev.cairn.topologywatcher.health.WatcherMetrics;
import dev.cairn.topologywatcher.kafka.StatePublisher;
import dev.cairn.topologywatcher.kafka.TopicSnapshotReader;
import dev.cairn.topologywatcher.kube.KubeWatcher;
import dev.cairn.topologywatcher.kube.LeaseElection;
import dev.cairn.topologywatcher.state.TopologyView;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Starts and stops the watcher with the Spring context: informers run on every replica (a standby
 * keeps a warm view), and only the elected leader publishes. Losing the lease ends the term and
 * stops publishing; the process keeps running and may lead again.
 */
public final class WatcherLifecycle implements SmartLifecycle, LeaseElection.Listener {

  private static final Logger log = LoggerFactory.getLogger(WatcherLifecycle.class);

  private final KubeWatcher kube;
  private final StatePublisher publisher;
  private final TopicSnapshotReader reader;
  private final TopologyView view;
  private final WatcherStatus status;
  private final WatcherMetrics metrics;
  private final Clock clock;
  private final Duration retryBackoff;
  private final BooleanSupplier ensureTopics;
  private final LeaseElection election;
  private LeaderSession session;
  private volatile boolean running;

  /**
   * Creates the lifecycle.
   *
   * @param ensureTopics creates missing topics; false when no broker could be reached
   * @param election builds the election with this lifecycle as its listener; {@code null} when
   *     leader election is disabled and this replica always leads
   */
  public WatcherLifecycle(
      KubeWatcher kube,
      StatePublisher publisher,
      TopicSnapshotReader reader,
      TopologyView view,
      WatcherStatus status,
      WatcherMetrics metrics,
      Clock clock,
      Duration retryBackoff,
      BooleanSupplier ensureTopics,
      Function<LeaseElection.Listener, LeaseElection> election) {
    this.kube = kube;
    this.publisher = publisher;
    this.reader = reader;
    this.view = view;
    this.status = status;
    this.metrics = metrics;
    this.clock = clock;
    this.retryBackoff = retryBackoff;
    this.ensureTopics = ensureTopics;
    this.election = election == null ? null : election.apply(this);
  }

  @Override
  public void start() {
    running = true;
    kube.afterRelist(
        complete -> {
          publisher.reconcile();
          if (complete && publisher.active()) {
            metrics.synced();
          }
        });
    kube.start();
    if (election == null) {
      log.atInfo().log("leader election disabled; this replica publishes");
      startedLeading();
    } else {
      election.start();
    }
  }

  @Override
  public synchronized void startedLeading() {
    if (!running || session != null) {
      return;
    }
    status.leading();
    metrics.leader(true);
    session =
        new LeaderSession(
            publisher, reader, kube, view, status, metrics, clock, retryBackoff, ensureTopics);
    session.start();
  }

  @Override
  public synchronized void stoppedLeading() {
    if (session == null) {
      return;
    }
    log.atInfo()
        .addKeyValue("identity", status.identity())
        .log("stopped leading; publishing stops");
    session.cancel();
    session = null;
    publisher.deactivate();
    status.standingBy();
    metrics.leader(false);
  }

  @Override
  public void newLeader(String identity) {
    status.leader(identity);
    if (identity == null || identity.isEmpty()) {
      log.atInfo().addKeyValue("self", status.identity()).log("the lease is free");
    } else {
      log.atInfo()
          .addKeyValue("leader", identity)
          .addKeyValue("self", status.identity())
          .log("observed leader");
    }
  }

  /** Stops publishing first, then releases the lease, then stops watching. */
  @Override
  public void stop() {
    running = false;
    stoppedLeading();
    publisher.close();
    if (election != null) {
      election.close();
    }
    kube.close();
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
