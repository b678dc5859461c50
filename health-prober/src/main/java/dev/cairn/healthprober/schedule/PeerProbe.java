package dev.cairn.healthprober.schedule;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.peer.Peer;
import dev.cairn.healthprober.peer.ServerAddress;
import dev.cairn.healthprober.probe.ProbeOutcome;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probes one peer: a queue of hosts, drained asynchronously within the peer's bulkhead, behind the
 * peer's circuit breaker. A host is queued at most once at a time (queued or in flight), so a slow
 * peer never accumulates duplicate work, and because every peer has its own bulkhead and queue, a
 * slow or dead peer never delays another.
 *
 * <p>A host probe sends the A and the AAAA question at once; each retries on the peer's next server
 * while unreachable, until the circuit opens (a probe in flight then ends with the attempt it is
 * on). While the circuit is open, no query is sent: the host gets an outcome with the status of the
 * failures that opened it (TIMEOUT or ERROR), and {@code failingSince} from the start of the peer's
 * failure run, so the published state stays honest (settling). Settling is lazy: every host is
 * settled once with that outcome, and after that, while the outcome and the host plan stay the
 * same, a round settles again only the hosts whose last answer crosses a staleness threshold (the
 * only news an unchanged outcome can bring) and those a trial probe changed; so a round of a dead
 * peer costs work in proportion to the news, not to the number of hosts. Settling runs on the
 * sweeping thread or the scheduler's, never on the DNS reader thread, which serves the replies of
 * every peer.
 */
final class PeerProbe {

  private static final Logger log = LoggerFactory.getLogger(PeerProbe.class);

  /** Told every outcome, on a DNS or scheduler thread. */
  interface Listener {
    /**
     * Folds in an outcome.
     *
     * @return when folding in the same unreachable outcome again could next publish (a staleness
     *     threshold crossed), or {@code null} when only a different outcome can
     */
    Instant onOutcome(String geoTag, String host, ProbeOutcome outcome);

    /**
     * Told each change of the peer's circuit as it happens, on the thread whose call into the
     * breaker made it (after it is logged).
     *
     * @param failureRate the failure rate that opened the circuit, or -1 where the new state starts
     *     counting afresh (half-open, closed)
     */
    default void onCircuit(
        String geoTag, CircuitBreaker.State from, CircuitBreaker.State to, float failureRate) {}
  }

  /**
   * @param timeout per query
   * @param attempts queries per question
   */
  record Settings(Duration timeout, int attempts) {}

  /** A failure recorded in the circuit breaker; no stack trace, the status says it all. */
  private static final class ProbeFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ProbeFailed() {
      super("probe unreachable", null, false, false);
    }
  }

  private static final ProbeFailed FAILED = new ProbeFailed();

  /** The revisit time of a host whose state only a different outcome can change. */
  private static final Instant NEVER = Instant.MAX;

  private final String geoTag;
  private final CircuitBreaker breaker;
  private final Bulkhead bulkhead;
  private final DnsLookup lookup;
  private final Function<String, HostQueries> queries;
  private final Settings settings;
  private final Clock clock;
  private final ProbeMetrics metrics;
  private final Listener listener;
  private final Executor settler;
  private final LongSupplier planGeneration;
  private final AtomicBoolean settleQueued = new AtomicBoolean();
  private final DnsLookup.LatencyListener latency = this::latency;
  private final BooleanSupplier mayRetry = this::mayRetry;
  private final Queue<String> queue = new ConcurrentLinkedQueue<>();
  private final Set<String> queued = ConcurrentHashMap.newKeySet();
  private final AtomicInteger wip = new AtomicInteger();
  private final AtomicInteger preferred = new AtomicInteger();
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile List<ServerAddress> servers;
  private volatile Instant failureStart;
  private volatile ProbeStatus lastFailure = ProbeStatus.TIMEOUT;
  private volatile boolean closed;

  /** Held while settling; never taken on the DNS reader thread. */
  private final Object settling = new Object();

  /** The hosts settled while the circuit is not closed; {@code null} while it is. */
  private volatile OpenRun openRun;

  /** The host of the liveness probe in flight, or null. */
  private volatile String livenessHost;

  /** What to do when the liveness probe finds the peer unreachable. */
  private volatile Runnable onLivenessFailure;

  /**
   * The circuit state last reported. A change is noticed right after the call into the breaker that
   * made it ({@link #noteCircuit}), not by an event consumer: with one, resilience4j builds an
   * event object for every call.
   */
  private final AtomicReference<CircuitBreaker.State> circuit;

  /** Hosts whose state a real (trial) probe set during an open run: settled again. */
  private final Set<String> touched = ConcurrentHashMap.newKeySet();

  /**
   * @param settler runs the settling of a queue found open on the DNS reader thread (the scheduler
   *     defers it until the live peers' probes are done)
   * @param planGeneration changes whenever the hosts or their staleness thresholds change: what was
   *     settled while the circuit is open holds only under the same value
   */
  PeerProbe(
      Peer peer,
      CircuitBreaker breaker,
      Bulkhead bulkhead,
      DnsLookup lookup,
      Function<String, HostQueries> queries,
      Settings settings,
      Clock clock,
      ProbeMetrics metrics,
      Listener listener,
      Executor settler,
      LongSupplier planGeneration) {
    this.geoTag = peer.geoTag();
    this.servers = peer.servers();
    this.breaker = breaker;
    this.bulkhead = bulkhead;
    this.lookup = lookup;
    this.queries = queries;
    this.settings = settings;
    this.clock = clock;
    this.metrics = metrics;
    this.listener = listener;
    this.settler = settler;
    this.planGeneration = planGeneration;
    this.circuit = new AtomicReference<>(breaker.getState());
  }

  /**
   * Logs and reports a change of the circuit's state since the last one reported: called after each
   * call that can move it (a permission asked for, an outcome recorded, a forced opening), so a
   * transition is reported when it happens, including one that a later call undoes at once.
   */
  void noteCircuit() {
    CircuitBreaker.State now = breaker.getState();
    CircuitBreaker.State before = circuit.get();
    if (before == now || !circuit.compareAndSet(before, now)) {
      return;
    }
    float rate = breaker.getMetrics().getFailureRate();
    var line = log.atWarn().addKeyValue("peer", geoTag).addKeyValue("from", before);
    line = line.addKeyValue("to", now);
    if (rate >= 0) {
      line = line.addKeyValue("failureRate", rate);
    }
    line.log("peer circuit breaker changed state");
    listener.onCircuit(geoTag, before, now, rate);
  }

  String geoTag() {
    return geoTag;
  }

  List<ServerAddress> servers() {
    return servers;
  }

  CircuitBreaker breaker() {
    return breaker;
  }

  Bulkhead bulkhead() {
    return bulkhead;
  }

  /** Hosts waiting or in flight. */
  int queued() {
    return queued.size();
  }

  /** Host probes in flight. */
  int inFlight() {
    return inFlight.get();
  }

  /** Takes new servers (the circuit breaker's state is kept). */
  void update(Peer peer) {
    if (!peer.servers().equals(servers)) {
      servers = peer.servers();
      preferred.set(0);
    }
  }

  /**
   * Queues the hosts that are not already queued or in flight, and starts as many as the bulkhead
   * allows.
   *
   * @return how many were queued
   */
  int enqueue(Collection<String> hosts) {
    int added = offer(hosts);
    drain();
    return added;
  }

  /**
   * One round of the hosts. While the circuit is closed, they are queued and started as {@link
   * #enqueue} does. Otherwise, when the breaker lets trial probes through, the hosts are queued
   * too: the permitted ones are probed and the rest settled; and when it lets none through, no host
   * is queued and the round settles only what can have changed since the hosts were settled (see
   * the class comment).
   */
  void round(Collection<String> hosts) {
    if (closed) {
      return;
    }
    if (permitsAll(breaker.getState())) {
      if (openRun != null) {
        endOpenRun();
      }
      enqueue(hosts);
      return;
    }
    boolean trial = breaker.tryAcquirePermission(); // half-open, or open and its wait is over
    noteCircuit();
    if (trial) {
      breaker.releasePermission();
      enqueue(hosts);
      return;
    }
    synchronized (settling) {
      revisit(currentRun(), hosts);
    }
    metrics.skipped(geoTag, Math.max(0, hosts.size() - queued.size()));
  }

  /**
   * Probes {@code host} as a liveness check: when its outcome is a transport failure (every attempt
   * timed out or failed), {@code onFailure} runs, on the DNS reader thread.
   */
  void liveness(String host, Runnable onFailure) {
    onLivenessFailure = onFailure;
    livenessHost = host;
    enqueue(List.of(host));
  }

  /** True in the states in which the breaker lets every call through. */
  static boolean permitsAll(CircuitBreaker.State state) {
    return state == CircuitBreaker.State.CLOSED
        || state == CircuitBreaker.State.DISABLED
        || state == CircuitBreaker.State.METRICS_ONLY;
  }

  /** Queues the hosts that are not already queued or in flight, without starting any. */
  int offer(Collection<String> hosts) {
    int added = 0;
    if (!closed) {
      for (String host : hosts) {
        if (queued.add(host)) {
          queue.offer(host);
          added++;
        }
      }
    }
    return added;
  }

  /** Stops probing: queued hosts are dropped, answers in flight are ignored by the listener. */
  void close() {
    closed = true;
    queue.clear();
    queued.clear();
    endOpenRun();
  }

  /**
   * Starts queued probes while the bulkhead has room; one drainer at a time, no lost wake-ups.
   * While the circuit is open this settles the whole queue on the calling thread (no queries).
   */
  void drain() {
    drain(true);
  }

  /**
   * @param maySettle false on the DNS reader thread (after a reply): a queue to settle because the
   *     circuit is open is handed to the settler, so the thread that reads every peer's replies
   *     never spends time in proportion to the number of hosts
   */
  private void drain(boolean maySettle) {
    if (wip.getAndIncrement() != 0) {
      return;
    }
    int missed = 1;
    boolean handOff = false;
    do {
      int settled = 0;
      while (!closed && !queue.isEmpty()) {
        boolean permitted = breaker.tryAcquirePermission();
        noteCircuit();
        if (!permitted) {
          if (!maySettle) {
            handOff = true;
            break;
          }
          // open: settle the queue without queries and without bulkhead slots
          synchronized (settling) {
            settled += settleQueue(currentRun());
          }
          continue;
        }
        if (!bulkhead.tryAcquirePermission()) {
          breaker.releasePermission();
          break;
        }
        String host = queue.poll();
        if (host == null) {
          bulkhead.releasePermission();
          breaker.releasePermission();
          break;
        }
        start(host);
      }
      if (settled > 0) {
        metrics.skipped(geoTag, settled);
      }
      missed = wip.addAndGet(-missed);
    } while (missed != 0);
    if (handOff && settleQueued.compareAndSet(false, true)) {
      try {
        settler.execute(
            () -> {
              settleQueued.set(false);
              drain(true);
            });
      } catch (RejectedExecutionException e) {
        settleQueued.set(false); // shutting down
      }
    }
  }

  /**
   * The outcome of every host while the circuit is open: the failure that opened it, carried on.
   */
  private ProbeOutcome openOutcome() {
    List<ServerAddress> s = servers;
    return ProbeOutcome.unreachable(
        lastFailure,
        s.get(Math.floorMod(preferred.get(), s.size())).toString(),
        failureStart,
        "circuit open: not queried");
  }

  /**
   * What was settled with one open-circuit outcome under one host plan: per host, when folding in
   * that outcome again could next publish ({@link Listener#onOutcome}). Before that instant it
   * would leave the host's state as it is, so a round revisits only the hosts whose instant has
   * come, the hosts a trial probe changed and the hosts no round could settle yet. Guarded by
   * {@link #settling}.
   */
  private static final class OpenRun {
    final ProbeOutcome outcome;
    final long plan;
    final Map<String, Instant> revisitAt = new HashMap<>();
    final PriorityQueue<Revisit> due = new PriorityQueue<>();

    /** A collection of hosts (by identity) all of which are settled in this run, or null. */
    Collection<String> complete;

    OpenRun(ProbeOutcome outcome, long plan) {
      this.outcome = outcome;
      this.plan = plan;
    }
  }

  private record Revisit(Instant at, String host) implements Comparable<Revisit> {
    @Override
    public int compareTo(Revisit other) {
      return at.compareTo(other.at);
    }
  }

  /** The run of the current open-circuit outcome and host plan; a new one when either changed. */
  private OpenRun currentRun() {
    ProbeOutcome outcome = openOutcome();
    long plan = planGeneration.getAsLong();
    OpenRun run = openRun;
    if (run == null || run.plan != plan || !run.outcome.equals(outcome)) {
      touched.clear(); // the new run settles every host anyway
      run = new OpenRun(outcome, plan);
      openRun = run;
    }
    return run;
  }

  private void endOpenRun() {
    synchronized (settling) {
      openRun = null;
      touched.clear();
    }
  }

  /** A round while no query may be sent: settles what can have changed. */
  private void revisit(OpenRun run, Collection<String> hosts) {
    Instant now = clock.instant();
    if (!touched.isEmpty()) {
      for (Iterator<String> it = touched.iterator(); it.hasNext(); ) {
        run.revisitAt.remove(it.next());
        it.remove();
        run.complete = null;
      }
    }
    for (Revisit r = run.due.peek(); r != null && !r.at().isAfter(now); r = run.due.peek()) {
      run.due.poll();
      if (r.at().equals(run.revisitAt.get(r.host()))) { // else superseded
        run.revisitAt.remove(r.host());
        run.complete = null;
      }
    }
    if (hosts == run.complete) {
      return;
    }
    boolean all = true;
    for (String host : hosts) {
      if (!run.revisitAt.containsKey(host)) {
        if (queued.add(host)) {
          settle(run, host);
          queued.remove(host);
        } else {
          all = false; // queued or in flight (a trial probe): its own outcome comes first
        }
      }
    }
    if (all) {
      run.complete = hosts;
    }
  }

  /** Settles the queued hosts whose state can have changed; the others just leave the queue. */
  private int settleQueue(OpenRun run) {
    Instant now = clock.instant();
    int n = 0;
    for (String host = queue.poll(); host != null; host = queue.poll()) {
      Instant at = run.revisitAt.get(host);
      if (at == null || !at.isAfter(now) || touched.remove(host)) {
        settle(run, host);
      }
      queued.remove(host);
      n++;
    }
    return n;
  }

  /** Folds the run's outcome into a host's state; the host is claimed (in {@link #queued}). */
  private void settle(OpenRun run, String host) {
    Instant at = queries.apply(host) == null ? null : listener.onOutcome(geoTag, host, run.outcome);
    run.revisitAt.put(host, at == null ? NEVER : at);
    if (at != null) {
      run.due.add(new Revisit(at, host));
    }
  }

  /** Sends the two queries of a host; holds a breaker permission and a bulkhead slot. */
  private void start(String host) {
    HostQueries q = queries.apply(host);
    if (q == null) { // the host went away while queued
      breaker.releasePermission();
      queued.remove(host);
      bulkhead.onComplete();
      return;
    }
    inFlight.incrementAndGet();
    HostProbe probe = new HostProbe(host, System.nanoTime(), clock.instant(), servers);
    int first = Math.floorMod(probe.preferred, probe.servers.size());
    lookup.query(
        q.a(),
        probe.servers,
        first,
        settings.attempts(),
        settings.timeout(),
        q.bailiwick(),
        latency,
        mayRetry,
        probe::a);
    lookup.query(
        q.aaaa(),
        probe.servers,
        first,
        settings.attempts(),
        settings.timeout(),
        q.bailiwick(),
        latency,
        mayRetry,
        probe::aaaa);
  }

  /**
   * Whether a probe in flight may send its next attempt: not once the circuit is open. The probes
   * sent before it opened then end with the attempt they are on instead of running through every
   * attempt (up to {@code attempts × timeout} later), so the peer's last hosts are known
   * unreachable as soon after the opening as its first ones, and no query goes out while the
   * circuit is open.
   */
  private boolean mayRetry() {
    CircuitBreaker.State state = breaker.getState();
    return state != CircuitBreaker.State.OPEN && state != CircuitBreaker.State.FORCED_OPEN;
  }

  /** One probe of a host: its A and AAAA lookups, finished when both have answered. */
  private final class HostProbe {
    final String host;
    final long t0;
    final Instant started;
    final List<ServerAddress> servers;
    final int preferred = PeerProbe.this.preferred.get();
    final AtomicInteger pending = new AtomicInteger(2);
    DnsLookup.Answer a; // written before the decrement of pending, read after it reached 0
    DnsLookup.Answer aaaa;

    HostProbe(String host, long t0, Instant started, List<ServerAddress> servers) {
      this.host = host;
      this.t0 = t0;
      this.started = started;
      this.servers = servers;
    }

    void a(DnsLookup.Answer answer) {
      a = answer;
      arrived();
    }

    void aaaa(DnsLookup.Answer answer) {
      aaaa = answer;
      arrived();
    }

    private void arrived() {
      if (pending.decrementAndGet() != 0) {
        return;
      }
      ProbeOutcome outcome = null;
      Throwable error = null;
      try {
        outcome = combine(a, aaaa, servers, preferred);
      } catch (RuntimeException e) {
        error = e;
      }
      finish(host, t0, started, outcome, error);
    }
  }

  private void latency(ServerAddress server, long nanos) {
    metrics.latency(geoTag, nanos);
  }

  private ProbeOutcome combine(
      DnsLookup.Answer a, DnsLookup.Answer aaaa, List<ServerAddress> s, int raw) {
    ServerAddress preferredServer = s.get(Math.floorMod(raw, s.size()));
    if (a.server() != null && !a.server().equals(preferredServer)) {
      // the first attempt, at the preferred server, failed: prefer the next server from now on
      preferred.compareAndSet(raw, raw + 1);
    }
    ServerAddress server =
        a.result().status().reachable() || aaaa.server() == null ? a.server() : aaaa.server();
    return ProbeOutcome.combine(a.result(), aaaa.result(), server == null ? "" : server.toString());
  }

  private void finish(
      String host, long t0, Instant started, ProbeOutcome outcome, Throwable error) {
    long elapsed = System.nanoTime() - t0;
    if (error != null) {
      outcome = ProbeOutcome.unreachable(ProbeStatus.ERROR, "", null, "probe failed: " + error);
    }
    boolean transportFailure =
        outcome.status() == ProbeStatus.TIMEOUT || outcome.status() == ProbeStatus.ERROR;
    if (transportFailure) {
      breaker.onError(elapsed, TimeUnit.NANOSECONDS, FAILED);
      noteCircuit();
      lastFailure = outcome.status();
      Instant since = failureStart;
      if (since == null) {
        failureStart = started;
        since = started;
      }
      outcome =
          new ProbeOutcome(
              outcome.status(),
              outcome.ipv4(),
              outcome.ipv6(),
              outcome.ttlSeconds(),
              outcome.server(),
              since,
              outcome.detail());
    } else {
      breaker.onSuccess(elapsed, TimeUnit.NANOSECONDS);
      noteCircuit();
      if (outcome.status().reachable()) {
        failureStart = null;
      }
    }
    if (!closed) {
      metrics.result(geoTag, outcome.status());
      listener.onOutcome(geoTag, host, outcome);
      if (host.equals(livenessHost)) {
        livenessHost = null;
        Runnable onFailure = onLivenessFailure;
        if (transportFailure && onFailure != null) {
          onFailure.run();
        }
      }
      if (openRun != null) {
        if (outcome.status().reachable()) {
          openRun = null; // the failure run is over: so is what was settled in it
        } else {
          touched.add(host); // a trial probe, or one in flight when the circuit opened
        }
      }
    }
    // only now may the host be queued again, so two outcomes of one host never race
    inFlight.decrementAndGet();
    queued.remove(host);
    bulkhead.onComplete();
    drain(false);
  }
}
