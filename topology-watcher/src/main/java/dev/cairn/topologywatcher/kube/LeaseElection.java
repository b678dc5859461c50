package dev.cairn.topologywatcher.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election through a {@code coordination.k8s.io/v1} Lease (fabric8 {@code LeaderElector}).
 *
 * <p>fabric8's elector ends when it loses the lease; this class then joins the election again, so a
 * replica that lost leadership (API server unreachable for longer than the renew deadline, a long
 * pause) keeps running as a standby and may lead again later. On {@link #close()} a held lease is
 * released, so a standby takes over at once instead of after the lease duration.
 */
public final class LeaseElection implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LeaseElection.class);

  /** What the election tells its owner. Called on fabric8's or this class's threads. */
  public interface Listener {
    /** This replica now holds the lease. */
    void startedLeading();

    /** This replica no longer holds the lease (lost, or released on close). */
    void stoppedLeading();

    /** The observed holder changed; {@code null} or empty when nobody holds it. */
    default void newLeader(String identity) {}
  }

  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final String identity;
  private final Duration leaseDuration;
  private final Duration renewDeadline;
  private final Duration retryPeriod;
  private final Listener listener;
  private final ScheduledExecutorService rejoin;
  private volatile CompletableFuture<?> running;
  private volatile boolean closed;

  public LeaseElection(
      KubernetesClient client,
      String namespace,
      String name,
      String identity,
      Duration leaseDuration,
      Duration renewDeadline,
      Duration retryPeriod,
      Listener listener) {
    this.client = client;
    this.namespace = namespace;
    this.name = name;
    this.identity = identity;
    this.leaseDuration = leaseDuration;
    this.renewDeadline = renewDeadline;
    this.retryPeriod = retryPeriod;
    this.listener = listener;
    this.rejoin =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "cairn-watcher-election");
              t.setDaemon(true);
              return t;
            });
  }

  /** This replica's holder identity. */
  public String identity() {
    return identity;
  }

  /** The Lease as {@code namespace/name}. */
  public String lease() {
    return namespace + "/" + name;
  }

  /** Joins the election. */
  public void start() {
    log.atInfo()
        .addKeyValue("lease", lease())
        .addKeyValue("identity", identity)
        .log("joining leader election");
    join();
  }

  private void join() {
    if (closed) {
      return;
    }
    LeaderElectionConfig config =
        new LeaderElectionConfigBuilder()
            .withName(name)
            .withLock(new LeaseLock(namespace, name, identity))
            .withLeaseDuration(leaseDuration)
            .withRenewDeadline(renewDeadline)
            .withRetryPeriod(retryPeriod)
            .withReleaseOnCancel(true)
            .withLeaderCallbacks(
                new LeaderCallbacks(
                    guard(listener::startedLeading),
                    guard(listener::stoppedLeading),
                    guardConsumer(listener::newLeader)))
            .build();
    CompletableFuture<?> future = client.leaderElector().withConfig(config).build().start();
    running = future;
    future.whenComplete(
        (ok, failure) -> {
          if (closed) {
            return;
          }
          log.atInfo()
              .addKeyValue("lease", lease())
              .addKeyValue("identity", identity)
              .log(
                  "left the election ({}); joining again",
                  failure == null ? "lease lost" : failure.toString());
          rejoin.schedule(this::join, retryPeriod.toMillis(), TimeUnit.MILLISECONDS);
        });
  }

  private static Runnable guard(Runnable action) {
    return () -> {
      try {
        action.run();
      } catch (RuntimeException e) {
        log.atError().setCause(e).log("leader election callback failed");
      }
    };
  }

  private static Consumer<String> guardConsumer(Consumer<String> action) {
    return value -> {
      try {
        action.accept(value);
      } catch (RuntimeException e) {
        log.atError().setCause(e).log("leader election callback failed");
      }
    };
  }

  /** Leaves the election and releases the lease if held. */
  @Override
  public void close() {
    closed = true;
    CompletableFuture<?> future = running;
    if (future != null) {
      future.cancel(true);
    }
    rejoin.shutdownNow();
  }
}
