package dev.cairn.healthprober.discovery;

import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.healthprober.peer.Peer;
import dev.cairn.healthprober.peer.PeerSet;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The current peer set: the static peers plus those found by {@link PeerDiscovery}, refreshed on an
 * interval and applied without a restart. A refresh that reaches no edge server keeps the last good
 * set and says so in {@link #status()}.
 */
public final class PeerDirectory {

  private static final Logger log = LoggerFactory.getLogger(PeerDirectory.class);

  private final List<Peer> staticPeers;
  private final PeerDiscovery discovery;
  private final String ownGeoTag;
  private final Clock clock;
  private final AtomicReference<PeerSet> current;
  private final AtomicReference<Status> status;
  private final List<Consumer<PeerSet>> listeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();
  private Map<DelegationZone, Map<String, Peer>> discovered = Map.of();

  /**
   * @param staticPeers the configured peers
   * @param discovery the discovery, {@code null} when no zones are configured
   * @param ownGeoTag this cluster, never a peer
   * @param clock the clock
   */
  public PeerDirectory(
      List<Peer> staticPeers, PeerDiscovery discovery, String ownGeoTag, Clock clock) {
    this.staticPeers = List.copyOf(staticPeers);
    this.discovery = discovery;
    this.ownGeoTag = Objects.requireNonNull(ownGeoTag, "ownGeoTag");
    this.clock = clock;
    this.current = new AtomicReference<>(PeerSet.of(this.staticPeers, ownGeoTag));
    this.status =
        new AtomicReference<>(
            new Status(discovery == null, discovery != null, null, null, null, List.of()));
  }

  /** Told every new peer set (on the refreshing thread). */
  public void addListener(Consumer<PeerSet> listener) {
    listeners.add(listener);
  }

  /** The peers to probe now. */
  public PeerSet current() {
    return current.get();
  }

  /** The state of discovery, for health. */
  public Status status() {
    return status.get();
  }

  /**
   * True once the peer set is authoritative: static-only configuration, or at least one discovery
   * in which every lookup was answered. Until then peers that may exist are unknown, so nothing
   * published for an unknown peer is withdrawn.
   */
  public boolean known() {
    return status.get().known();
  }

  /** Whether discovery is configured. */
  public boolean discovers() {
    return discovery != null;
  }

  /** Runs one discovery (blocking for at most a few query timeouts) and applies the result. */
  public synchronized void refresh() {
    if (discovery == null) {
      return;
    }
    Instant now = clock.instant();
    Status before = status.get();
    PeerDiscovery.Result result;
    try {
      result = discovery.discover(discovered);
    } catch (RuntimeException e) {
      log.atError().setCause(e).log("peer discovery failed; keeping the last good peer set");
      status.set(before.failed(now, List.of("discovery failed: " + e)));
      return;
    }
    if (!result.reachedEdge()) {
      if (before.lastSuccess() == null || !before.problems().equals(result.problems())) {
        log.atWarn()
            .addKeyValue("problems", result.problems())
            .addKeyValue("since", before.lastSuccess())
            .log("peer discovery reached no edge server; keeping the last good peer set");
      }
      status.set(before.failed(now, result.problems()));
      return;
    }
    discovered = result.peers();
    List<Peer> all = new ArrayList<>(staticPeers);
    all.addAll(result.all());
    PeerSet next = PeerSet.of(all, ownGeoTag);
    if (!result.problems().equals(before.problems())) {
      result.problems().forEach(p -> log.atWarn().addKeyValue("problem", p).log("peer discovery"));
    }
    // Authoritative once one discovery got an answer to every lookup; later partial runs keep
    // what failed from before, so the set stays authoritative.
    status.set(
        new Status(before.known() || result.complete(), false, now, now, null, result.problems()));
    apply(next);
  }

  private void apply(PeerSet next) {
    PeerSet previous = current.getAndSet(next);
    if (previous.equals(next)) {
      return;
    }
    for (Peer p : next.peers().values()) {
      Peer old = previous.peers().get(p.geoTag());
      if (old == null) {
        log.atInfo()
            .addKeyValue("peer", p.geoTag())
            .addKeyValue("servers", p.servers())
            .log("peer added");
      } else if (!old.equals(p)) {
        log.atInfo()
            .addKeyValue("peer", p.geoTag())
            .addKeyValue("servers", p.servers())
            .addKeyValue("before", old.servers())
            .log("peer servers changed");
      }
    }
    for (String tag : previous.geoTags()) {
      if (!next.peers().containsKey(tag)) {
        log.atInfo().addKeyValue("peer", tag).log("peer removed");
      }
    }
    listeners.forEach(l -> l.accept(next));
  }

  /**
   * The state of discovery.
   *
   * @param known whether the peer set is authoritative (see {@link PeerDirectory#known()})
   * @param pending true until the first discovery ran
   * @param lastAttempt when discovery last ran
   * @param lastSuccess when discovery last reached an edge server
   * @param lastFailure when discovery last reached no edge server, {@code null} after a success
   * @param problems what the last run found wrong
   */
  public record Status(
      boolean known,
      boolean pending,
      Instant lastAttempt,
      Instant lastSuccess,
      Instant lastFailure,
      List<String> problems) {

    public Status {
      problems = List.copyOf(problems);
    }

    Status failed(Instant at, List<String> why) {
      return new Status(known, false, at, lastSuccess, at, why);
    }
  }
}
