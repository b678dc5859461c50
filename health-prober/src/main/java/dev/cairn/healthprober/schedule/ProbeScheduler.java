package dev.cairn.healthprober.schedule;

import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.healthprober.discovery.PeerDirectory;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.dns.EncodedQuery;
import dev.cairn.healthprober.host.Finding;
import dev.cairn.healthprober.host.HostPlan;
import dev.cairn.healthprober.host.ProbeHosts;
import dev.cairn.healthprober.kafka.Outbox;
import dev.cairn.healthprober.kafka.TopologyView;
import dev.cairn.healthprober.peer.Peer;
import dev.cairn.healthprober.peer.PeerSet;
import dev.cairn.healthprober.probe.RecordType;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the probing: keeps the host plan current from the Gslb and route tables, keeps one {@link
 * PeerProbe} per peer in step with the {@link PeerDirectory}, queues every host at every peer each
 * interval, and withdraws the records of hosts and peers that are gone.
 *
 * <p>Every (host, peer) is probed every interval, all peers in parallel and each within its own
 * bulkhead, so the time to notice a dead peer does not grow with the number of Gslbs. A sweep
 * releases its hosts in slices over the first {@code sweepSpread} of the interval, always in the
 * same order, so each host is still probed once per interval while the peers' responders (and this
 * process) see an even rate of queries instead of one burst of every host. Between sweeps, every
 * liveness interval, a peer with nothing queued gets one host probed (a liveness probe, the hosts
 * taken in turn); when that probe finds the peer unreachable (every attempt timed out or failed),
 * the peer's circuit is opened and all its hosts are settled at once, so a silent peer is noticed
 * within about the liveness interval plus the attempts times the query timeout, not the sweep
 * interval plus that.
 */
public final class ProbeScheduler implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ProbeScheduler.class);
  private static final long PLAN_PERIOD_MILLIS = 250;
  private static final long SETTLE_DELAY_MAX_MILLIS = 1_000;
  private static final long SETTLE_POLL_MILLIS = 5;

  /** How far apart a spread sweep releases its slices of hosts. */
  static final long SLICE_MILLIS = 10;

  /**
   * The probing settings.
   *
   * @param interval how often every (host, peer) is probed
   * @param queryTimeout per query
   * @param queryAttempts queries per question
   * @param peerRefreshInterval how often discovery runs
   * @param zones the load-balanced zones (hosts outside them are not probed when non-empty)
   * @param defaultThreshold the staleness threshold of Gslbs without one
   * @param circuitBreaker the circuit breaker of every peer
   * @param bulkhead the bulkhead of every peer
   * @param livenessInterval how often a peer that is idle between sweeps gets a liveness probe
   *     ({@link #checkLiveness}); zero for none
   * @param sweepSpread how much of the interval a sweep spreads its hosts over (capped at the
   *     interval); zero queues them all at once
   */
  public record Settings(
      Duration interval,
      Duration queryTimeout,
      int queryAttempts,
      Duration peerRefreshInterval,
      List<DelegationZone> zones,
      Duration defaultThreshold,
      CircuitBreakerConfig circuitBreaker,
      BulkheadConfig bulkhead,
      Duration livenessInterval,
      Duration sweepSpread) {

    public Settings {
      if (sweepSpread == null || sweepSpread.isNegative()) {
        throw new IllegalArgumentException(
            "the sweep spread must be zero or positive, got " + sweepSpread);
      }
    }
  }

  private final Settings settings;
  private final TopologyView inputs;
  private final PeerDirectory directory;
  private final DnsLookup lookup;
  private final CircuitBreakerRegistry breakers;
  private final BulkheadRegistry bulkheads;
  private final ProbeMetrics metrics;
  private final Clock clock;
  private final AnswerRecorder recorder;
  private final ConcurrentHashMap<String, HostQueries> queries = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, PeerProbe> probes = new ConcurrentHashMap<>();
  private final ScheduledExecutorService ticker;
  private final ScheduledExecutorService discoverer;
  private volatile HostPlan plan = HostPlan.empty();

  /**
   * The planned hosts in a list: sweeps release them in this order, liveness probes take them in
   * turn.
   */
  private volatile List<String> hostList = List.of();

  /** The next liveness host (ticker thread only). */
  private int livenessCursor;

  /** The plan's thresholds in a hash map: looked up for every probe outcome. */
  private volatile Map<String, NavigableSet<Duration>> thresholds = Map.of();

  /**
   * Counts the changes of the hosts or their thresholds: what a peer settled while its circuit is
   * open holds only as long as this stays the same.
   */
  private volatile long planGeneration;

  /** Set when hosts or peers went away (or old records were taken over): withdraw at the sweep. */
  private volatile boolean withdrawDue = true;

  private volatile boolean planReady;
  private volatile boolean seeded;
  private Set<Finding> findings = Set.of();

  public ProbeScheduler(
      Settings settings,
      TopologyView inputs,
      PeerDirectory directory,
      DnsLookup lookup,
      Outbox outbox,
      String topic,
      CircuitBreakerRegistry breakers,
      BulkheadRegistry bulkheads,
      ProbeMetrics metrics,
      Clock clock) {
    this.settings = settings;
    this.inputs = inputs;
    this.directory = directory;
    this.lookup = lookup;
    this.breakers = breakers;
    this.bulkheads = bulkheads;
    this.metrics = metrics;
    this.clock = clock;
    this.recorder =
        new AnswerRecorder(outbox, topic, clock, host -> thresholds.get(host), this::wanted);
    this.ticker = Executors.newSingleThreadScheduledExecutor(daemon("cairn-prober-sweep"));
    this.discoverer = Executors.newSingleThreadScheduledExecutor(daemon("cairn-prober-discovery"));
    directory.addListener(this::applyPeers);
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /** Starts planning, sweeping and (when configured) peer discovery. */
  public void start() {
    ticker.scheduleWithFixedDelay(
        guarded("plan", this::replan), 0, PLAN_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    ticker.scheduleAtFixedRate(
        guarded("sweep", this::sweep),
        settings.interval().toMillis(),
        settings.interval().toMillis(),
        TimeUnit.MILLISECONDS);
    long liveness = settings.livenessInterval().toMillis();
    if (liveness > 0) {
      ticker.scheduleWithFixedDelay(
          guarded("liveness", this::checkLiveness), liveness, liveness, TimeUnit.MILLISECONDS);
    }
    if (directory.discovers()) {
      discoverer.scheduleWithFixedDelay(
          guarded("discovery", directory::refresh),
          0,
          settings.peerRefreshInterval().toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  private static Runnable guarded(String what, Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        log.atError().addKeyValue("task", what).setCause(e).log("prober task failed; continuing");
      }
    };
  }

  /** Recomputes the host plan when Gslbs or routes changed, and probes new hosts at once. */
  void replan() {
    if (!inputs.caughtUp()) {
      return;
    }
    if (!seeded) {
      recorder.seed(inputs.takeOwnState().peerAnswers());
      seeded = true;
    }
    if (!inputs.takeHostsDirty() && planReady) {
      return;
    }
    HostPlan next =
        ProbeHosts.plan(
            inputs.gslbs(), inputs.routes(), settings.zones(), settings.defaultThreshold());
    for (String host : next.hosts()) {
      queries.computeIfAbsent(host, this::encode);
    }
    List<String> added = new ArrayList<>();
    for (String host : next.hosts()) {
      if (!plan.thresholds().containsKey(host)) {
        added.add(host);
      }
    }
    int removed = 0;
    for (String host : plan.hosts()) {
      if (!next.thresholds().containsKey(host)) {
        removed++;
      }
    }
    boolean first = !planReady;
    applyPeers(directory.current()); // new peers start with the previous hosts; added follow
    if (!next.thresholds().equals(plan.thresholds())) {
      thresholds = new HashMap<>(next.thresholds());
      planGeneration++; // after the thresholds: a settler that sees the new number sees them
    }
    plan = next;
    hostList = List.copyOf(next.hosts());
    planReady = true;
    queries.keySet().retainAll(next.hosts());
    logFindings(next.findings());
    if (!added.isEmpty() || removed > 0 || first) {
      log.atInfo()
          .addKeyValue("hosts", next.hosts().size())
          .addKeyValue("added", added.size())
          .addKeyValue("removed", removed)
          .addKeyValue("findings", next.findings().size())
          .log("host plan changed");
    }
    if (removed > 0) {
      withdrawDue = true;
      withdraw();
    }
    if (!added.isEmpty()) {
      probeAll(added);
    }
  }

  /**
   * Reports each peer's circuit change that no probe's own call noticed (the probes report theirs
   * as they happen).
   */
  private void logCircuitChanges() {
    for (PeerProbe p : probes.values()) {
      p.noteCircuit();
    }
  }

  /**
   * Queues the hosts at every peer and starts them. A peer whose circuit is not closed answers its
   * hosts without queries (settling, lazily: only what can have changed), and that brings no news
   * until a staleness threshold passes, so its round waits until the live peers' probes of this
   * round are done (at most {@link #SETTLE_DELAY_MAX_MILLIS}): a dead peer never takes CPU from the
   * probes of the live ones. The same holds when a circuit opens during a round: the hosts still
   * queued there (news: their records turn unreachable) are settled off the DNS thread once the
   * live peers' probes are done, a fraction of a second later.
   */
  private void probeAll(Collection<String> hosts) {
    probeSlice(hosts, hosts, null);
  }

  /**
   * Runs a dead peer's settling on the scheduler's thread once no peer whose circuit is closed has
   * a host queued or in flight, or after {@link #SETTLE_DELAY_MAX_MILLIS} at the latest.
   */
  private void afterLiveProbes(Runnable settling) {
    long deadline = System.nanoTime() + SETTLE_DELAY_MAX_MILLIS * 1_000_000L;
    try {
      ticker.execute(guarded("settle", () -> whenLiveDone(settling, deadline)));
    } catch (RejectedExecutionException e) {
      // closed
    }
  }

  private void whenLiveDone(Runnable settling, long deadline) {
    boolean liveDone = true;
    for (PeerProbe p : probes.values()) {
      liveDone &= p.queued() == 0 || !PeerProbe.permitsAll(p.breaker().getState());
    }
    if (liveDone || System.nanoTime() - deadline >= 0) {
      settling.run();
      return;
    }
    try {
      ticker.schedule(
          guarded("settle", () -> whenLiveDone(settling, deadline)),
          SETTLE_POLL_MILLIS,
          TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // closed
    }
  }

  private void logFindings(List<Finding> next) {
    Set<Finding> now = new HashSet<>(next);
    for (Finding f : next) {
      if (!findings.contains(f)) {
        log.atWarn()
            .addKeyValue("object", f.object())
            .addKeyValue("field", f.problem().field())
            .addKeyValue("value", f.problem().value())
            .log("not probed: {}", f.problem().reason());
      }
    }
    findings = now;
  }

  private HostQueries encode(String host) {
    String name = ProbeHosts.localTargetsName(host);
    EncodedQuery a = lookup.client().encode(name, RecordType.A, false);
    EncodedQuery aaaa = lookup.client().encode(name, RecordType.AAAA, false);
    return new HostQueries(host, a, aaaa, bailiwick(host));
  }

  /** The zone a CNAME may lead into: the load-balanced zone of the host, else its parent. */
  String bailiwick(String host) {
    String best = null;
    for (DelegationZone z : settings.zones()) {
      if (Hostnames.isInZone(host, z.loadBalancedZone())
          && (best == null || z.loadBalancedZone().length() > best.length())) {
        best = z.loadBalancedZone();
      }
    }
    if (best != null) {
      return best;
    }
    int dot = host.indexOf('.');
    return dot < 0 ? "" : host.substring(dot + 1);
  }

  /**
   * Probes one host at every peer whose circuit is closed and that has nothing queued or in flight
   * (a peer in the middle of a sweep is being checked already); a peer whose liveness probe finds
   * it unreachable is {@linkplain #unreachable judged unreachable}.
   */
  void checkLiveness() {
    List<String> hosts = hostList;
    if (!planReady || hosts.isEmpty()) {
      return;
    }
    for (PeerProbe p : probes.values()) {
      if (PeerProbe.permitsAll(p.breaker().getState()) && p.queued() == 0) {
        String host = hosts.get(Math.floorMod(livenessCursor++, hosts.size()));
        p.liveness(host, () -> unreachable(p));
      }
    }
  }

  /**
   * After a failed liveness probe (called on the DNS thread): opens the peer's circuit, as the
   * failures of a sweep would a few seconds later, and settles every host with that outcome, on the
   * scheduler's thread.
   */
  private void unreachable(PeerProbe p) {
    try {
      ticker.execute(
          guarded(
              "liveness",
              () -> {
                if (probes.get(p.geoTag()) != p) {
                  return; // the peer is gone
                }
                if (PeerProbe.permitsAll(p.breaker().getState())) {
                  log.atWarn()
                      .addKeyValue("peer", p.geoTag())
                      .log("peer did not answer a liveness probe; opening its circuit");
                  p.breaker().transitionToOpenState();
                  logCircuitChanges();
                }
                p.round(plan.hosts());
              }));
    } catch (RejectedExecutionException e) {
      // closed
    }
  }

  /**
   * Queues every host at every peer, the first slice at once and the rest spread over {@link
   * Settings#sweepSpread}; withdraws what is no longer probed.
   */
  void sweep() {
    if (!planReady) {
      return;
    }
    applyPeers(directory.current());
    logCircuitChanges();
    withdraw();
    List<String> hosts = hostList;
    if (hosts.isEmpty()) {
      return;
    }
    int slices = slices(hosts.size());
    if (slices == 1) {
      probeAll(hosts);
      return;
    }
    Set<String> whole = ConcurrentHashMap.newKeySet();
    probeSlice(slice(hosts, 0, slices), hosts, whole);
    for (int i = 1; i < slices; i++) {
      List<String> part = slice(hosts, i, slices);
      try {
        ticker.schedule(
            guarded("sweep", () -> probeSlice(part, hosts, whole)),
            i * SLICE_MILLIS,
            TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        return; // closed
      }
    }
  }

  /**
   * One slice of a spread sweep. A peer whose circuit is closed gets the slice's hosts; a peer
   * whose circuit is not (at the sweep's start, or opened during it) gets the sweep's whole list
   * once, as an unspread sweep would give it: its hosts are settled without queries, and settling
   * them slice by slice would publish a dead peer's hosts over the rest of the spread instead of at
   * once ({@code whole} holds the peers that had it; {@code null} when {@code part} is all).
   */
  private void probeSlice(Collection<String> part, Collection<String> all, Set<String> whole) {
    List<PeerProbe> live = new ArrayList<>();
    List<PeerProbe> open = new ArrayList<>();
    for (PeerProbe p : probes.values()) {
      if (PeerProbe.permitsAll(p.breaker().getState())) {
        live.add(p);
      } else if (whole == null || whole.add(p.geoTag())) {
        open.add(p);
      }
    }
    for (PeerProbe p : live) {
      p.round(part);
    }
    if (!open.isEmpty()) {
      afterLiveProbes(
          () -> {
            for (PeerProbe p : open) {
              p.round(all);
            }
          });
    }
  }

  /**
   * How many slices a sweep of {@code hosts} hosts releases, {@link #SLICE_MILLIS} apart: as many
   * as fit in the spread (capped at the interval, so a sweep is released before the next starts),
   * at most one per host, and at least one.
   */
  int slices(int hosts) {
    long spread = Math.min(settings.sweepSpread().toMillis(), settings.interval().toMillis());
    long fit = Math.max(1, (spread + SLICE_MILLIS - 1) / SLICE_MILLIS);
    return (int) Math.max(1, Math.min(hosts, fit));
  }

  /** The {@code i}-th of {@code n} near-equal consecutive parts of {@code hosts}. */
  static List<String> slice(List<String> hosts, int i, int n) {
    int size = hosts.size();
    return hosts.subList((int) ((long) size * i / n), (int) ((long) size * (i + 1) / n));
  }

  /**
   * Withdraws the records of hosts no Gslb uses any more, and of peers that are gone. Peers are
   * only judged gone once the peer set is authoritative ({@link PeerDirectory#known()}); until then
   * records of peers not (yet) found are kept, and the check runs again at every sweep.
   */
  private void withdraw() {
    if (!withdrawDue || !planReady) {
      return;
    }
    boolean peersKnown = directory.known();
    withdrawDue = !peersKnown;
    int n =
        recorder.withdraw(
            (geoTag, host) ->
                thresholds.containsKey(host) && (probes.containsKey(geoTag) || !peersKnown));
    if (n > 0) {
      log.atInfo()
          .addKeyValue("records", n)
          .log("withdrew peer answers of hosts or peers that are gone");
    }
  }

  /** Brings the per-peer probes in step with the peer set. */
  synchronized void applyPeers(PeerSet peers) {
    for (Peer peer : peers.peers().values()) {
      PeerProbe existing = probes.get(peer.geoTag());
      if (existing != null) {
        existing.update(peer);
        continue;
      }
      String name = "peer-" + peer.geoTag();
      // No event consumers: with one, resilience4j builds an event object for every call.
      // Each probe reports its circuit's changes after its own calls into the breaker.
      CircuitBreaker breaker = breakers.circuitBreaker(name, settings.circuitBreaker());
      Bulkhead bulkhead = bulkheads.bulkhead(name, settings.bulkhead());
      PeerProbe probe =
          new PeerProbe(
              peer,
              breaker,
              bulkhead,
              lookup,
              queries::get,
              new PeerProbe.Settings(settings.queryTimeout(), settings.queryAttempts()),
              clock,
              metrics,
              recorder,
              this::afterLiveProbes,
              () -> planGeneration);
      probes.put(peer.geoTag(), probe);
      if (!plan.hosts().isEmpty()) {
        probe.enqueue(plan.hosts());
      }
    }
    for (String tag : List.copyOf(probes.keySet())) {
      if (!peers.peers().containsKey(tag)) {
        withdrawDue = true;
        PeerProbe gone = probes.remove(tag);
        gone.close();
        breakers.remove("peer-" + tag);
        bulkheads.remove("peer-" + tag);
        metrics.forget(tag);
      }
    }
  }

  private boolean wanted(String geoTag, String host) {
    return probes.containsKey(geoTag) && thresholds.containsKey(host);
  }

  /** True when no host is queued or in flight at any peer. */
  boolean idle() {
    return probes.values().stream().allMatch(p -> p.queued() == 0);
  }

  /** The current host plan. */
  public HostPlan plan() {
    return plan;
  }

  /** True once the first host plan was computed (the inputs caught up). */
  public boolean ready() {
    return planReady;
  }

  /** The number of (host, peer) states held. */
  public int states() {
    return recorder.size();
  }

  /** Per-peer probing state, for health. */
  public Map<String, Object> describePeers() {
    Map<String, Object> out = new LinkedHashMap<>();
    for (PeerProbe p : new java.util.TreeMap<>(probes).values()) {
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("servers", p.servers().stream().map(Object::toString).toList());
      d.put("circuit", p.breaker().getState().name());
      d.put("failureRate", p.breaker().getMetrics().getFailureRate());
      d.put("queued", p.queued());
      d.put("inFlight", p.inFlight());
      out.put(p.geoTag(), d);
    }
    return out;
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    discoverer.shutdownNow();
    probes.values().forEach(PeerProbe::close);
  }
}
