package dev.cairn.recordwriter.reconcile;

import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.kube.DnsEndpointCache;
import dev.cairn.recordwriter.kube.DnsEndpointMapper;
import dev.cairn.recordwriter.kube.DnsEndpointStore;
import dev.cairn.recordwriter.kube.WriteResult;
import dev.cairn.recordwriter.metrics.WriterMetrics;
import dev.cairn.recordwriter.notice.Notice;
import dev.cairn.recordwriter.notice.Notices;
import dev.cairn.recordwriter.plan.Changes.Change;
import dev.cairn.recordwriter.plan.Conflict;
import dev.cairn.recordwriter.plan.CurrentRecord;
import dev.cairn.recordwriter.plan.DesiredState;
import dev.cairn.recordwriter.plan.DnsName;
import dev.cairn.recordwriter.plan.Endpoint;
import dev.cairn.recordwriter.plan.NameHolders;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Outcome;
import dev.cairn.recordwriter.plan.Plan;
import dev.cairn.recordwriter.plan.RecordPlan;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer's control loop: keeps the decisions and a dirty set of DNSEndpoint names, plans the
 * dirty names on one worker thread ({@link RecordPlan}) and hands the changes to the {@link
 * WriteScheduler}, which applies them ({@link DnsEndpointStore}) several at a time, one per name,
 * before Gslb status writes. Level-triggered: every pass plans from the full current state of the
 * names concerned, never from the event that made them dirty.
 *
 * <ul>
 *   <li>A decision change marks its old and new names and the names its source holds dirty, so
 *       changes are applied promptly, per key. Informer events on owned objects mark their name
 *       dirty, which repairs manual edits and deletions.
 *   <li>Nothing is planned before the decisions topic has been read to its end, nor while this
 *       instance is not the leader. Reaching the end, gaining leadership, and every {@code
 *       resyncPeriod}, a full resync lists everything Cairn owns and marks it dirty with every
 *       decision's name, so orphans are found and deleted.
 *   <li>A name whose write is queued or in flight is not planned again until its result is in; a
 *       write whose object changed before its turn came is dropped unsent and the name planned
 *       again. A 409 makes the store read the object again and the name is planned again (with
 *       backoff if it keeps happening); the same write is never resent blindly.
 *   <li>Objects kept for a grace period get a timer at the expiry that marks them dirty.
 *   <li>Every plan passes its conflicts and rejected endpoints on as {@link Notice notices}, to be
 *       shown on the source as Events; the receiver records each condition once.
 * </ul>
 */
public final class RecordReconciler {

  private static final Logger log = LoggerFactory.getLogger(RecordReconciler.class);

  private record Timer(Instant at, ScheduledFuture<?> future) {}

  private final RecordPlan planner;
  private final DnsEndpointStore store;
  private final DnsEndpointCache cache;
  private final DnsEndpointMapper mapper;
  private final RecordReports reports;
  private final Consumer<Notice> notices;
  private final WriterMetrics metrics;
  private final Clock clock;
  private final ReconcileLoop<ObjectKey> loop;
  private final Map<ObjectKey, Timer> graceTimers = new ConcurrentHashMap<>();
  private final Map<ObjectKey, Recheck> foreignRechecks = new ConcurrentHashMap<>();

  /** A scheduled read of a name held by a foreign object, and how many reads came before it. */
  private record Recheck(int attempt, ScheduledFuture<?> future) {}

  // Worker-confined state.
  private final Map<String, TargetDecision> decisions = new HashMap<>();
  private final Map<ObjectKey, Set<String>> claimsByName = new HashMap<>();
  // The DNS names each source's decision publishes, and the sources that publish each name.
  private final Map<String, Set<DnsName>> dnsNamesBySource = new HashMap<>();
  private final Map<DnsName, Set<String>> sourcesByDnsName = new HashMap<>();
  private final Map<ObjectKey, Instant> eventTimes = new HashMap<>();

  /**
   * A reconciler; {@link #start()} starts its thread.
   *
   * @param notices told every condition to show on a source (conflicts, rejected endpoints) at
   *     every plan; it records each once
   * @param leader whether this instance may write now
   * @param resyncPeriod the period of full resyncs
   * @param scheduler sends the writes (shared with the Gslb status loop)
   */
  public RecordReconciler(
      RecordPlan planner,
      DnsEndpointStore store,
      DnsEndpointCache cache,
      DnsEndpointMapper mapper,
      RecordReports reports,
      Consumer<Notice> notices,
      WriterMetrics metrics,
      Clock clock,
      BooleanSupplier leader,
      Duration resyncPeriod,
      WriteScheduler scheduler) {
    this.planner = planner;
    this.store = store;
    this.cache = cache;
    this.mapper = mapper;
    this.reports = reports;
    this.notices = notices;
    this.metrics = metrics;
    this.clock = clock;
    this.loop =
        new ReconcileLoop<>(
            new ReconcileLoop.Names("cairn-record-writer", "writer", "dnsendpoint", "DNSEndpoint"),
            log,
            clock,
            leader,
            resyncPeriod,
            this::resync,
            this::reconcile,
            true,
            scheduler,
            WriteQueue.Lane.RECORD);
  }

  /** Starts the worker and the periodic resync. */
  public void start() {
    loop.start();
  }

  /**
   * Stops planning; writes not yet sent are dropped (the scheduler lets those in flight finish).
   *
   * @param timeout how long to wait for the pass in progress
   */
  public void stop(Duration timeout) {
    loop.stop(timeout);
  }

  /** A decision was added, changed or removed (tombstone: {@code decision == null}). */
  public void onDecision(String source, TargetDecision decision) {
    onDecision(source, decision, null);
  }

  /**
   * As {@link #onDecision(String, TargetDecision)}, with the time of the Kubernetes event behind it
   * ({@code null} when unknown), measured to the write it causes.
   */
  public void onDecision(String source, TargetDecision decision, Instant eventTime) {
    loop.signal(() -> decisionChanged(source, decision, eventTime));
  }

  /** The decisions topic has been read to its end. */
  public void onDecisionsCaughtUp() {
    loop.onCaughtUp();
  }

  /** An owned DNSEndpoint was added, changed or deleted in the cluster. */
  public void onObjectChanged(ObjectKey key) {
    loop.signal(() -> objectChanged(key));
  }

  private void objectChanged(ObjectKey key) {
    loop.markDirty(key);
    // A source in its grace period claims the names its object still declares: those change with
    // the object (kept, trimmed, or gone when the grace period ends).
    Set<String> sources = claimsByName.get(key);
    if (sources != null) {
      for (String source : List.copyOf(sources)) {
        TargetDecision d = decisions.get(source);
        if (d != null && d.disposition() == Disposition.NO_TARGETS) {
          indexDnsNames(source, d, d);
        }
      }
    }
  }

  /** Leadership was gained or lost. */
  public void onLeadership(boolean isLeader) {
    loop.onLeadership(isLeader);
  }

  /** Asks for a full resync. */
  public void requestResync() {
    loop.requestResync();
  }

  /** True once the decisions topic has been read to its end. */
  public boolean decisionsCaughtUp() {
    return loop.caughtUp();
  }

  /** What ended the planning thread unexpectedly, or {@code null}. */
  public String failure() {
    return loop.failure();
  }

  /** Names waiting to be planned (approximate, for health and benchmarks). */
  public int pending() {
    return loop.pending();
  }

  /** The number of objects with a grace-period timer. */
  public int graceTimers() {
    return graceTimers.size();
  }

  private void decisionChanged(String source, TargetDecision decision, Instant eventTime) {
    TargetDecision previous =
        decision == null ? decisions.remove(source) : decisions.put(source, decision);
    if (previous != null) {
      ObjectKey old = keyOf(previous);
      removeFrom(claimsByName, old, source);
      loop.markDirty(old);
    }
    if (decision != null) {
      ObjectKey key = keyOf(decision);
      claimsByName.computeIfAbsent(key, k -> new HashSet<>()).add(source);
      loop.markDirty(key);
      if (eventTime != null) {
        eventTimes.putIfAbsent(key, eventTime); // the earliest event the next write answers
      }
    }
    loop.markDirty(cache.keysOfSource(source));
    indexDnsNames(source, previous, decision);
    reports.decisionChanged(source);
  }

  /**
   * Keeps the index of DNS names by source up to date and plans again every other DNSEndpoint that
   * wants a name this decision gained or lost: one may now keep a name, or have to leave it out.
   */
  private void indexDnsNames(String source, TargetDecision previous, TargetDecision decision) {
    Set<DnsName> after = claimedNames(decision);
    Set<DnsName> before = dnsNamesBySource.get(source);
    if (sameClaims(source, previous, decision)
        && after.equals(before == null ? Set.of() : before)) {
      return; // the usual change (new targets, same names, same object): no holder changes
    }
    dnsNamesBySource.remove(source);
    Set<DnsName> touched = new HashSet<>();
    if (before != null) {
      for (DnsName name : before) {
        removeFrom(sourcesByDnsName, name, source);
        touched.add(name);
      }
    }
    if (!after.isEmpty()) {
      dnsNamesBySource.put(source, after);
      for (DnsName name : after) {
        sourcesByDnsName.computeIfAbsent(name, k -> new HashSet<>(2)).add(source);
        touched.add(name);
      }
    }
    for (DnsName name : touched) {
      for (String other : sourcesByDnsName.getOrDefault(name, Set.of())) {
        TargetDecision d = other.equals(source) ? null : decisions.get(other);
        if (d != null) {
          loop.markDirty(keyOf(d));
        }
      }
    }
  }

  /**
   * The names a decision claims: those it publishes; for one without targets (its object kept for
   * the grace period), the names its object still declares, so that a DNSEndpoint in its grace
   * period keeps its names like any other until it lets them go.
   */
  private Set<DnsName> claimedNames(TargetDecision decision) {
    if (decision == null || decision.disposition() != Disposition.NO_TARGETS) {
      return DnsName.of(decision);
    }
    Optional<GenericKubernetesResource> existing = cache.get(keyOf(decision));
    if (existing.isEmpty()) {
      return Set.of();
    }
    Set<DnsName> names = new TreeSet<>();
    for (Endpoint endpoint : mapper.toCurrent(existing.get()).endpoints()) {
      names.add(DnsName.of(endpoint));
    }
    return names;
  }

  /** True when both decisions name the same object and are both valid or both invalid. */
  private static boolean sameClaims(String source, TargetDecision previous, TargetDecision next) {
    return previous != null
        && next != null
        && keyOf(previous).equals(keyOf(next))
        && RecordPlan.problemOf(source, previous).isEmpty()
            == RecordPlan.problemOf(source, next).isEmpty();
  }

  /**
   * For each DNSEndpoint a decision of the batch wants, the names that another DNSEndpoint wants
   * too and keeps ({@link NameHolders}), with that DNSEndpoint.
   */
  private Map<ObjectKey, Map<DnsName, ObjectKey>> namesHeldElsewhere(
      Map<String, TargetDecision> relevant) {
    Map<ObjectKey, Map<DnsName, ObjectKey>> held = new HashMap<>();
    Map<ObjectKey, CurrentRecord> seen = new HashMap<>();
    for (Map.Entry<String, TargetDecision> e : relevant.entrySet()) {
      Set<DnsName> names = e.getValue() == null ? null : dnsNamesBySource.get(e.getKey());
      if (names == null) {
        continue;
      }
      ObjectKey key = keyOf(e.getValue());
      for (DnsName name : names) {
        Set<String> sources = sourcesByDnsName.get(name);
        if (sources == null || sources.size() < 2) {
          continue;
        }
        Map<ObjectKey, NameHolders.Claimant> claimants = new HashMap<>();
        for (String source : sources) {
          TargetDecision d = decisions.get(source);
          // An invalid decision publishes nothing, so it keeps no name from a valid one.
          if (d != null && RecordPlan.problemOf(source, d).isEmpty()) {
            ObjectKey object = keyOf(d);
            claimants.computeIfAbsent(object, k -> claimant(k, name, seen));
          }
        }
        if (claimants.size() > 1) {
          ObjectKey holder = NameHolders.holder(claimants.values());
          if (!holder.equals(key)) {
            held.computeIfAbsent(key, k -> new HashMap<>()).put(name, holder);
          }
        }
      }
    }
    return held;
  }

  private NameHolders.Claimant claimant(
      ObjectKey object, DnsName name, Map<ObjectKey, CurrentRecord> seen) {
    Optional<GenericKubernetesResource> existing = cache.get(object);
    if (existing.isEmpty()) {
      return new NameHolders.Claimant(object, null, false);
    }
    GenericKubernetesResource r = existing.get();
    Instant created = null;
    try {
      String stamp = r.getMetadata() == null ? null : r.getMetadata().getCreationTimestamp();
      created = stamp == null ? null : Instant.parse(stamp);
    } catch (DateTimeParseException e) {
      // unknown creation time: sorts after the known ones
    }
    CurrentRecord current = seen.computeIfAbsent(object, k -> mapper.toCurrent(r));
    boolean declares = false;
    for (Endpoint endpoint : current.endpoints()) {
      if (DnsName.of(endpoint).equals(name)) {
        declares = true;
        break;
      }
    }
    return new NameHolders.Claimant(object, created, declares);
  }

  /** Removes {@code value} from the set at {@code key}, and the set once it is empty. */
  private static <K, V> void removeFrom(Map<K, Set<V>> index, K key, V value) {
    Set<V> values = index.get(key);
    if (values != null) {
      values.remove(value);
      if (values.isEmpty()) {
        index.remove(key);
      }
    }
  }

  private static ObjectKey keyOf(TargetDecision d) {
    return ObjectKey.of(d.namespace(), d.name());
  }

  private void resync() {
    try {
      int owned = store.listOwned();
      metrics.resync("ok");
      log.atDebug().addKeyValue("owned", owned).log("listed owned DNSEndpoints");
    } catch (KubernetesClientException e) {
      metrics.resync("error");
      log.atWarn()
          .addKeyValue("error", e.getMessage())
          .log("could not list owned DNSEndpoints; resyncing from the informer's view");
    }
    Set<ObjectKey> all = new LinkedHashSet<>(cache.ownedKeys());
    all.addAll(claimsByName.keySet());
    all.addAll(cache.foreignKeys());
    loop.markDirty(all);
    reports.retainOnly(all);
  }

  private void reconcile(List<ObjectKey> batch) {
    Instant now = clock.instant();
    for (ObjectKey key : batch) {
      if (cache.isForeign(key)) {
        try {
          store.read(key);
        } catch (KubernetesClientException e) {
          log.atWarn()
              .addKeyValue("dnsendpoint", key)
              .addKeyValue("error", e.getMessage())
              .log("could not read a foreign DNSEndpoint again");
        }
      }
    }
    Map<ObjectKey, GenericKubernetesResource> raw = new HashMap<>();
    List<CurrentRecord> current = new ArrayList<>();
    Map<String, TargetDecision> relevant = new HashMap<>();
    for (ObjectKey key : batch) {
      cache
          .get(key)
          .ifPresent(
              r -> {
                raw.put(key, r);
                CurrentRecord c = mapper.toCurrent(r);
                current.add(c);
                TargetDecision holder = c.source() == null ? null : decisions.get(c.source());
                if (holder != null && RecordPlan.problemOf(c.source(), holder).isPresent()) {
                  relevant.put(c.source(), holder);
                }
              });
      for (String source : claimsByName.getOrDefault(key, Set.of())) {
        relevant.put(source, decisions.get(source));
      }
    }
    Plan plan =
        planner.plan(
            current,
            new DesiredState(relevant, loop.caughtUp(), namesHeldElsewhere(relevant)),
            now);
    report(plan, now);
    for (ObjectKey key : batch) {
      if (!plan.outcomes().containsKey(key)) {
        cancelForeignRecheck(key); // no decision wants the name any more
        reports.unclaimed(key);
      }
    }
    forgetUntimedEvents(batch, plan);
    apply(plan, raw);
  }

  /**
   * Event times are measured to the write they cause. A name that needs no write now (already as
   * decided, or held by a grace period) drops its event time, so a later write is not charged with
   * the wait.
   */
  private void forgetUntimedEvents(List<ObjectKey> batch, Plan plan) {
    if (eventTimes.isEmpty()) {
      return;
    }
    Set<ObjectKey> writing = new HashSet<>();
    plan.changes().creates().forEach(c -> writing.add(c.key()));
    plan.changes().updates().forEach(c -> writing.add(c.key()));
    plan.changes().deletes().forEach(c -> writing.add(c.key()));
    for (ObjectKey key : batch) {
      Outcome o = plan.outcomes().get(key);
      if (!writing.contains(key) || (o != null && o.state() == Outcome.State.IN_GRACE)) {
        eventTimes.remove(key);
      }
    }
  }

  private void report(Plan plan, Instant now) {
    plan.invalidDecisions()
        .forEach(
            (source, problem) -> {
              if (reports.invalidDecision(source, problem)) {
                metrics.decisionRejected();
                log.atWarn()
                    .addKeyValue("source", source)
                    .addKeyValue("field", problem.field())
                    .addKeyValue("value", problem.value())
                    .log("decision {} rejected: {} {}", source, problem.field(), problem.reason());
              }
            });
    for (Outcome o : plan.outcomes().values()) {
      RecordReport before = reports.previous(o.key());
      reportNews(o, before);
      Notices.ofOutcome(o, decisions::get).forEach(notices);
      reports.planned(o, now);
      if (o.state() == Outcome.State.IN_GRACE && o.grace() != null) {
        scheduleGraceTimer(o.key(), o.grace().expiresAt(), now);
      } else {
        cancelGraceTimer(o.key());
      }
      if (heldByForeignObject(o)) {
        scheduleForeignRecheck(o.key());
      } else {
        cancelForeignRecheck(o.key());
      }
    }
  }

  private void reportNews(Outcome o, RecordReport before) {
    Set<String> knownConflicts = new HashSet<>();
    Set<Problem> knownRejections = new HashSet<>();
    if (before != null) {
      before.conflicts().forEach(c -> knownConflicts.add(c.message()));
      knownRejections.addAll(before.rejectedEndpoints());
    }
    for (Conflict c : o.conflicts()) {
      if (!knownConflicts.contains(c.describe())) {
        metrics.claimRefused(c.kind().name());
        log.atWarn()
            .addKeyValue("dnsendpoint", o.key())
            .addKeyValue("claimant", c.claimant())
            .addKeyValue("holder", c.holder())
            .addKeyValue("kind", c.kind())
            .log(c.describe());
      }
    }
    for (Problem p : o.rejected()) {
      if (!knownRejections.contains(p)) {
        metrics.endpointRejected();
        log.atWarn()
            .addKeyValue("dnsendpoint", o.key())
            .addKeyValue("source", o.source())
            .addKeyValue("field", p.field())
            .addKeyValue("value", p.value())
            .log(
                "endpoint rejected for DNSEndpoint {}: {}={} {}",
                o.key(),
                p.field(),
                p.value(),
                p.reason());
      }
    }
    Outcome.StaleSinceReset reset = o.staleSinceReset();
    if (reset != null && (before == null || !Objects.equals(before.staleSinceReset(), reset))) {
      metrics.staleSinceReset(reset.cause().name());
      log.atWarn()
          .addKeyValue("dnsendpoint", o.key())
          .addKeyValue("staleSince", reset.found())
          .addKeyValue("cause", reset.cause())
          .log(
              "grace-period start {} on DNSEndpoint {} is unusable ({}); the grace timer restarts now",
              reset.found(),
              o.key(),
              reset.cause());
    }
  }

  private void scheduleGraceTimer(ObjectKey key, Instant at, Instant now) {
    Timer existing = graceTimers.get(key);
    if (existing != null && existing.at().equals(at)) {
      return;
    }
    if (existing != null) {
      existing.future().cancel(false);
    }
    long delay = Math.max(0, Duration.between(now, at).toMillis()) + 1;
    ScheduledFuture<?> future =
        loop.schedule(
            () -> {
              graceTimers.remove(key);
              onObjectChanged(key);
            },
            delay);
    graceTimers.put(key, new Timer(at, future));
  }

  private static boolean heldByForeignObject(Outcome o) {
    if (o.state() != Outcome.State.CONFLICT) {
      return false;
    }
    for (Conflict c : o.conflicts()) {
      if (c.kind() == Conflict.Kind.FOREIGN_OBJECT) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reads a name held by a foreign object again later ({@link ForeignRecheck}): the informer sees
   * only Cairn's objects, so a foreign one that is deleted would otherwise be noticed only at the
   * next resync. A recheck already pending stays; the attempt count backs the reads off while the
   * foreign object stays.
   */
  private void scheduleForeignRecheck(ObjectKey key) {
    Recheck pending = foreignRechecks.get(key);
    if (pending != null && !pending.future().isDone()) {
      return;
    }
    int attempt = pending == null ? 0 : pending.attempt() + 1;
    long delay = ForeignRecheck.delay(attempt, foreignRechecks.size()).toMillis();
    ScheduledFuture<?> future = loop.schedule(() -> onObjectChanged(key), delay);
    foreignRechecks.put(key, new Recheck(attempt, future));
  }

  private void cancelForeignRecheck(ObjectKey key) {
    Recheck r = foreignRechecks.remove(key);
    if (r != null) {
      r.future().cancel(false);
    }
  }

  /** The names held by a foreign object whose reading again is scheduled, for tests. */
  public int foreignRechecks() {
    return foreignRechecks.size();
  }

  private void cancelGraceTimer(ObjectKey key) {
    Timer t = graceTimers.remove(key);
    if (t != null) {
      t.future().cancel(false);
    }
  }

  private void apply(Plan plan, Map<ObjectKey, GenericKubernetesResource> raw) {
    List<Change> changes = new ArrayList<>(plan.changes().size());
    changes.addAll(plan.changes().creates());
    changes.addAll(plan.changes().updates());
    changes.addAll(plan.changes().deletes());
    for (Change change : changes) {
      GenericKubernetesResource base = raw.get(change.key());
      loop.write(
          change.key(),
          mayWrite -> store.apply(change, base, mayWrite),
          result -> afterWrite(change, result));
    }
  }

  private void afterWrite(Change change, WriteResult result) {
    ObjectKey key = change.key();
    String operation = DnsEndpointStore.operation(change);
    reports.written(
        key,
        new RecordReport.LastWrite(
            operation, change.reason(), result.status().name(), result.detail(), clock.instant()));
    Backoff b = loop.afterWrite(key, result, !operation.equals("delete"));
    if (result.status() == WriteResult.Status.DONE) {
      Instant event = eventTimes.remove(key);
      if (event != null) {
        metrics.eventToWrite(operation, Duration.between(event, clock.instant()));
      }
    }
    switch (result.status()) {
      case DONE ->
          log.atInfo()
              .addKeyValue("dnsendpoint", key)
              .addKeyValue("operation", operation)
              .addKeyValue("reason", change.reason())
              .log("{} DNSEndpoint {} ({})", result.detail(), key, change.reason());
      case CONFLICT ->
          log.atInfo()
              .addKeyValue("dnsendpoint", key)
              .addKeyValue("operation", operation)
              .addKeyValue("attempt", b.attempts())
              .log("conflict writing DNSEndpoint {}: {}; planning again", key, result.detail());
      case INVALID ->
          log.atError()
              .addKeyValue("dnsendpoint", key)
              .addKeyValue("operation", operation)
              .log("write of DNSEndpoint {} refused as invalid: {}", key, result.detail());
      case FAILED ->
          log.atWarn()
              .addKeyValue("dnsendpoint", key)
              .addKeyValue("operation", operation)
              .addKeyValue("retryAt", b.notBefore())
              .log("write of DNSEndpoint {} failed: {}", key, result.detail());
      case GONE, SKIPPED -> {}
    }
  }
}
