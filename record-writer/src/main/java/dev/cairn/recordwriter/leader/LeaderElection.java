package dev.cairn.recordwriter.leader;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a Kubernetes Lease (fabric8 {@link LeaderElector}): only the leader writes.
 * Losing the lease stops writing but not the process, which keeps following the decisions and
 * competes again. {@link #stop()} gives the lease up (it is written with an empty holder), so a
 * standby takes over within its retry period instead of waiting for the lease to expire. The stop
 * is ordered for a lameduck shutdown: the caller first finishes its writes, then calls {@link
 * #stop()}.
 *
 * <p>When disabled, this instance is the leader from {@link #start()} to {@link #stop()}.
 */
public final class LeaderElection {

  private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);

  /**
   * Lease settings.
   *
   * @param enabled false to act as the only writer without a lease
   * @param namespace the lease's namespace
   * @param leaseName the lease's name
   * @param identity this instance's identity in the lease
   * @param leaseDuration how long a lease is valid without renewal
   * @param renewDeadline how long the leader keeps trying to renew before it gives up
   * @param retryPeriod how often candidates try to acquire and the leader renews
   */
  public record Settings(
      boolean enabled,
      String namespace,
      String leaseName,
      String identity,
      Duration leaseDuration,
      Duration renewDeadline,
      Duration retryPeriod) {
    public Settings {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(leaseName, "leaseName");
      Objects.requireNonNull(identity, "identity");
    }
  }

  private final KubernetesClient client;
  private final Settings settings;
  private final List<Consumer<Boolean>> listeners = new CopyOnWriteArrayList<>();
  private final ExecutorService executor;
  private volatile boolean leader;
  private volatile boolean stopped = true;
  private volatile String holder;
  private volatile CompletableFuture<?> election;

  /** An election; nothing happens before {@link #start()}. */
  public LeaderElection(KubernetesClient client, Settings settings) {
    this.client = client;
    this.settings = settings;
    this.executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "cairn-record-writer-lease");
              t.setDaemon(true);
              return t;
            });
  }

  /** Adds a listener told {@code true} when leadership is gained and {@code false} when lost. */
  public void addListener(Consumer<Boolean> listener) {
    listeners.add(listener);
  }

  /** Starts competing for the lease (or becomes the leader at once when disabled). */
  public synchronized void start() {
    stopped = false;
    if (!settings.enabled()) {
      holder = settings.identity();
      setLeader(true);
      return;
    }
    campaign();
  }

  private synchronized void campaign() {
    if (stopped) {
      return;
    }
    LeaderElector elector =
        new LeaderElector(
            client,
            new LeaderElectionConfigBuilder()
                .withName(settings.leaseName())
                .withLock(
                    new LeaseLock(settings.namespace(), settings.leaseName(), settings.identity()))
                .withLeaseDuration(settings.leaseDuration())
                .withRenewDeadline(settings.renewDeadline())
                .withRetryPeriod(settings.retryPeriod())
                .withReleaseOnCancel(false)
                .withLeaderCallbacks(
                    new LeaderCallbacks(
                        () -> setLeader(true), () -> setLeader(false), this::newLeader))
                .build(),
            executor);
    CompletableFuture<?> future = elector.start();
    election = future;
    future.whenComplete(
        (v, t) -> {
          setLeader(false);
          if (stopped) {
            return;
          }
          log.atWarn()
              .addKeyValue("lease", settings.namespace() + "/" + settings.leaseName())
              .addKeyValue("error", t == null ? null : t.toString())
              .log("lost the lease {}; writing stopped, competing again", settings.leaseName());
          CompletableFuture.delayedExecutor(
                  settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS, executor)
              .execute(this::campaign);
        });
  }

  private void newLeader(String identity) {
    holder = identity;
    log.atInfo()
        .addKeyValue("lease", settings.namespace() + "/" + settings.leaseName())
        .addKeyValue("holder", identity)
        .log(
            "the lease {}/{} is held by {}",
            settings.namespace(),
            settings.leaseName(),
            identity == null || identity.isEmpty() ? "nobody" : identity);
  }

  private void setLeader(boolean value) {
    boolean changed;
    synchronized (this) {
      changed = leader != value;
      leader = value;
    }
    if (changed) {
      log.atInfo()
          .addKeyValue("identity", settings.identity())
          .addKeyValue("leader", value)
          .log(
              value ? "{} became the leader; writing" : "{} is no longer the leader; not writing",
              settings.identity());
      listeners.forEach(l -> l.accept(value));
    }
  }

  /** True while this instance holds the lease (always, when election is disabled). */
  public boolean isLeader() {
    return leader && !stopped;
  }

  /** The identity of the last known holder, or {@code null}. */
  public String holder() {
    return holder;
  }

  /** This instance's identity. */
  public String identity() {
    return settings.identity();
  }

  /** Whether election is enabled. */
  public boolean enabled() {
    return settings.enabled();
  }

  /**
   * Empties the lease's holder, conditional on the version read, so candidates take over at once.
   * fabric8's own release writes the holder as {@code null} through a JSON merge patch, which
   * leaves the field unchanged, and its candidates judge expiry by their own lease duration; so a
   * released lease would otherwise stay blocked for a full lease duration.
   */
  private void release() {
    try {
      Lease lease =
          client.leases().inNamespace(settings.namespace()).withName(settings.leaseName()).get();
      if (lease == null
          || lease.getSpec() == null
          || !settings.identity().equals(lease.getSpec().getHolderIdentity())) {
        return;
      }
      lease.getSpec().setHolderIdentity(null);
      lease.getSpec().setLeaseDurationSeconds(1);
      client.leases().inNamespace(settings.namespace()).resource(lease).update();
      log.atInfo()
          .addKeyValue("lease", settings.namespace() + "/" + settings.leaseName())
          .log("released the lease {}/{}", settings.namespace(), settings.leaseName());
    } catch (KubernetesClientException e) {
      log.atWarn()
          .addKeyValue("lease", settings.namespace() + "/" + settings.leaseName())
          .addKeyValue("error", e.getMessage())
          .log("could not release the lease; a standby takes over when it expires");
    }
  }

  /** Gives the lease up, if held, and stops competing. */
  public void stop() {
    CompletableFuture<?> current;
    synchronized (this) {
      stopped = true;
      current = election;
    }
    boolean wasLeader = leader;
    if (current != null) {
      current.cancel(true); // stops renewing; an attempt in flight completes first
    }
    setLeader(false);
    if (wasLeader && settings.enabled()) {
      release();
    }
    executor.shutdown();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
