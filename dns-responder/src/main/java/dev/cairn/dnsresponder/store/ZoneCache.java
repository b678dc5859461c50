package dev.cairn.dnsresponder.store;

import dev.cairn.dnsresponder.answer.AnswerView;
import dev.cairn.dnsresponder.answer.ServingState;
import dev.cairn.dnsresponder.metrics.ResponderMetrics;
import dev.cairn.dnsresponder.zone.BuildResult;
import dev.cairn.dnsresponder.zone.EndpointInput;
import dev.cairn.dnsresponder.zone.SnapshotBuilder;
import dev.cairn.dnsresponder.zone.SourcedProblem;
import dev.cairn.dnsresponder.zone.ZoneSnapshot;
import dev.cairn.dnsresponder.zone.Zones;
import io.micrometer.core.instrument.Gauge;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the {@link AnswerView} every query reads, following kudurru's zone cache.
 *
 * <ul>
 *   <li>Until the source has synced, the view is unsynced: in-zone names get SERVFAIL.
 *   <li>Every change schedules a rebuild after the debounce; bursts coalesce into one. A rebuild
 *       reads the whole cache (level-triggered), builds a new snapshot with the pure {@link
 *       SnapshotBuilder} and swaps it in atomically. A rebuild that fails keeps the previous view,
 *       is logged, counted and shown in health until a later rebuild succeeds.
 *   <li>After the first sync the endpoints are written to the snapshot file, then at most once per
 *       write interval when they changed, and once more on close.
 *   <li>Without a sync within the grace period, a snapshot file of the same cluster id that is not
 *       older than the maximum age is served ({@link ServingState#FROM_SNAPSHOT}) until the source
 *       syncs or the copy grows too old.
 *   <li>During an API outage after the sync, the informers keep their cache and the last view keeps
 *       serving.
 * </ul>
 *
 * All state changes run on one scheduler thread.
 */
public final class ZoneCache implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ZoneCache.class);

  /**
   * Timing and identity settings.
   *
   * @param debounce the delay between a change and its rebuild
   * @param snapshotGrace how long to wait for a sync before serving the snapshot file
   * @param snapshotWriteInterval how often at most the snapshot file is rewritten
   * @param snapshotMaxAge the oldest snapshot file that is served
   * @param clusterId written into, and required from, the snapshot file
   */
  public record Settings(
      Duration debounce,
      Duration snapshotGrace,
      Duration snapshotWriteInterval,
      Duration snapshotMaxAge,
      String clusterId) {
    public Settings {
      Objects.requireNonNull(debounce, "debounce");
      Objects.requireNonNull(snapshotGrace, "snapshotGrace");
      Objects.requireNonNull(snapshotWriteInterval, "snapshotWriteInterval");
      Objects.requireNonNull(snapshotMaxAge, "snapshotMaxAge");
      Objects.requireNonNull(clusterId, "clusterId");
    }
  }

  /**
   * What health reports.
   *
   * @param state where the records come from
   * @param builtAt when the served snapshot was built, or {@code null}
   * @param names names in the served snapshot
   * @param records records in the served snapshot
   * @param problems problems found in the inputs of the served snapshot
   * @param lastFailure the last rebuild failure since the last success, or {@code null}
   * @param watching whether every watch is connected
   * @param snapshotWrittenAt when the file being served (from-snapshot) or last written was
   *     written, or {@code null}
   */
  public record Status(
      ServingState state,
      Instant builtAt,
      int names,
      int records,
      int problems,
      String lastFailure,
      boolean watching,
      Instant snapshotWrittenAt) {}

  private final Zones zones;
  private final SnapshotBuilder.Limits limits;
  private final EndpointSource source;
  private final SnapshotFile file;
  private final Settings settings;
  private final Clock clock;
  private final ResponderMetrics metrics;
  private final ScheduledExecutorService scheduler;
  private final AtomicReference<AnswerView> view;
  private final AtomicBoolean rebuildPending = new AtomicBoolean();
  private volatile long lastRebuildMillis;

  private volatile long lastRebuildEndNanos = System.nanoTime();
  private volatile String lastFailure;
  private volatile Instant snapshotWrittenAt;
  private boolean dirty;
  private boolean everSynced;

  /**
   * The snapshot the last rebuild from the source left served, holding every change the source
   * reported up to it but {@link #unapplied}: while it is the one served, a rebuild applies only
   * what changed since ({@link SnapshotBuilder#update}). {@code null} until the first build from
   * the source and after a rebuild failed.
   */
  private ZoneSnapshot followed;

  /** Changes taken from the source that the served snapshot does not hold (a refused update's). */
  private final Map<String, List<EndpointInput>> unapplied = new LinkedHashMap<>();

  /**
   * @param file the snapshot file, or {@code null} for none
   */
  public ZoneCache(
      Zones zones,
      SnapshotBuilder.Limits limits,
      EndpointSource source,
      SnapshotFile file,
      Settings settings,
      Clock clock,
      ResponderMetrics metrics) {
    this.zones = Objects.requireNonNull(zones, "zones");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.source = Objects.requireNonNull(source, "source");
    this.file = file;
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.view = new AtomicReference<>(AnswerView.unsynced(zones));
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "zone-cache");
              t.setDaemon(true);
              return t;
            });
    registerGauges();
  }

  /** The view to answer from now. */
  public AnswerView view() {
    return view.get();
  }

  /** Starts the source, the grace timer and the snapshot writer. */
  public void start() {
    scheduler.schedule(
        this::graceExpired, settings.snapshotGrace().toMillis(), TimeUnit.MILLISECONDS);
    if (file != null) {
      long every = Math.max(1, settings.snapshotWriteInterval().toMillis());
      scheduler.scheduleWithFixedDelay(this::persistIfDirty, every, every, TimeUnit.MILLISECONDS);
    }
    source.start(
        new EndpointSource.Listener() {
          @Override
          public void changed() {
            requestRebuild();
          }

          @Override
          public void synced() {
            scheduler.execute(ZoneCache.this::rebuild);
          }
        });
  }

  /**
   * Schedules a rebuild after the debounce, unless one is already pending; under continuous change
   * also no sooner than {@link #rebuildDelayMillis} allows, so rebuilding a large zone never takes
   * more than a fifth of the time.
   */
  void requestRebuild() {
    if (rebuildPending.compareAndSet(false, true)) {
      scheduler.schedule(
          () -> {
            rebuildPending.set(false);
            rebuild();
          },
          rebuildDelayMillis(
              settings.debounce().toMillis(),
              lastRebuildMillis,
              (System.nanoTime() - lastRebuildEndNanos) / 1_000_000),
          TimeUnit.MILLISECONDS);
    }
  }

  /**
   * The delay before a requested rebuild: the debounce, or longer when the last rebuild ended less
   * than {@value #REBUILD_SPACING} times its duration ago. A rebuild costs about what changed since
   * the last one, and the answer side still copies its name tables (a millisecond at 10k
   * DNSEndpoints), so with 10k of them changing for half a minute (a peer failing over) rebuilds
   * every debounce could keep a core busy; spaced this way they take at most a fifth of it, and the
   * view lags the API by at most about five rebuild durations.
   *
   * @param debounceMillis the configured debounce
   * @param lastRebuildMillis how long the last rebuild took (0 before the first)
   * @param sinceLastRebuildMillis how long ago it ended
   */
  static long rebuildDelayMillis(
      long debounceMillis, long lastRebuildMillis, long sinceLastRebuildMillis) {
    long spacing = REBUILD_SPACING * lastRebuildMillis - sinceLastRebuildMillis;
    return Math.max(debounceMillis, spacing);
  }

  /** The pause after a rebuild, in multiples of its duration, before the next one may start. */
  static final int REBUILD_SPACING = 4;

  /** What health shows. */
  public Status status() {
    AnswerView current = view.get();
    ZoneSnapshot snapshot = current.snapshot();
    return new Status(
        current.state(),
        snapshot == null ? null : snapshot.builtAt(),
        snapshot == null ? 0 : snapshot.nameCount(),
        snapshot == null ? 0 : snapshot.recordCount(),
        snapshot == null ? 0 : snapshot.problems().size(),
        lastFailure,
        source.watching(),
        snapshotWrittenAt);
  }

  private void rebuild() {
    if (!source.synced()) {
      return; // events of the initial list: the sync itself triggers the first build
    }
    long started = System.nanoTime();
    Rebuilt outcome = Rebuilt.FAILED;
    try {
      outcome = rebuildNow();
    } finally {
      long ended = System.nanoTime();
      lastRebuildMillis = (ended - started) / 1_000_000;
      lastRebuildEndNanos = ended;
      switch (outcome.outcome()) {
        case SWAPPED -> metrics.rebuildSwapped(ended - started, outcome.changedNames());
        case UNCHANGED -> metrics.rebuildUnchanged(ended - started);
        case FAILED -> metrics.rebuildFailedAfter(ended - started);
      }
    }
  }

  /** What a rebuild did, and how many names a swap changed. */
  private record Rebuilt(Outcome outcome, int changedNames) {
    static final Rebuilt UNCHANGED = new Rebuilt(Outcome.UNCHANGED, 0);
    static final Rebuilt FAILED = new Rebuilt(Outcome.FAILED, 0);

    enum Outcome {
      SWAPPED,
      UNCHANGED,
      FAILED
    }
  }

  private Rebuilt rebuildNow() {
    try {
      AnswerView current = view.get();
      ZoneSnapshot served = current.snapshot();
      BuildResult result;
      boolean updating =
          followed != null
              && served == followed
              && SnapshotBuilder.canUpdate(served, zones, limits);
      if (updating) {
        // What changed since the served snapshot, object by object: a rebuild costs what changed.
        unapplied.putAll(source.changes());
        result = SnapshotBuilder.update(zones, limits, clock.instant(), served, unapplied);
      } else {
        // Every endpoint, compared with the served snapshot's (SnapshotBuilder.build).
        unapplied.clear();
        result = SnapshotBuilder.build(zones, source.inputs(), limits, clock.instant(), served);
      }
      if (result instanceof BuildResult.Built built) {
        unapplied.clear();
        followed = built.snapshot();
      } else if (!updating) {
        followed = null; // a refused full build: the next is one as well
      }
      // A refused update leaves in unapplied what it could not apply, for the next.
      if (result instanceof BuildResult.Built built
          && built.snapshot() == served
          && current.state() == ServingState.SYNCED
          && lastFailure == null) {
        return Rebuilt.UNCHANGED; // a resync or a change to something we do not read
      }
      if (!swap(result, ServingState.SYNCED, "informers")) {
        return Rebuilt.FAILED;
      }
      ZoneSnapshot built = ((BuildResult.Built) result).snapshot();
      Set<String> changed = built.changedSince(served);
      if (!everSynced) {
        everSynced = true;
        dirty = true;
        persistIfDirty();
      } else {
        dirty = true;
      }
      return new Rebuilt(
          Rebuilt.Outcome.SWAPPED, changed == null ? built.nameCount() : changed.size());
    } catch (RuntimeException e) {
      followed = null; // the next rebuild starts again from every endpoint
      unapplied.clear();
      fail("rebuilding the snapshot failed: " + e, e);
      return Rebuilt.FAILED;
    }
  }

  /** Swaps in a view of what was built; false (and the old view kept) when the build failed. */
  private boolean swap(BuildResult result, ServingState state, String from) {
    AnswerView current = view.get();
    if (result instanceof BuildResult.Refused refused) {
      fail(refused.reason(), null);
      return false;
    }
    ZoneSnapshot snapshot = ((BuildResult.Built) result).snapshot();
    AnswerView next = AnswerView.serving(snapshot, state, current);
    AnswerView previous = view.getAndSet(next);
    if (lastFailure != null) {
      log.atInfo().log("snapshot rebuilds succeed again");
    }
    lastFailure = null;
    logNewProblems(previous.snapshot(), snapshot);
    log.atInfo()
        .addKeyValue("state", state.label())
        .addKeyValue("from", from)
        .addKeyValue("names", snapshot.nameCount())
        .addKeyValue("records", snapshot.recordCount())
        .addKeyValue("problems", snapshot.problems().size())
        .log("serving a new snapshot");
    return true;
  }

  private void fail(String reason, Throwable cause) {
    lastFailure = reason;
    metrics.rebuildFailed();
    log.atError()
        .addKeyValue("state", view.get().state().label())
        .setCause(cause)
        .log("snapshot rebuild failed; the previous view keeps serving: {}", reason);
  }

  private static void logNewProblems(ZoneSnapshot previous, ZoneSnapshot next) {
    Set<SourcedProblem> known = previous == null ? Set.of() : new HashSet<>(previous.problems());
    for (SourcedProblem problem : new LinkedHashSet<>(next.problems())) {
      if (!known.contains(problem)) {
        log.atWarn()
            .addKeyValue("object", problem.source())
            .addKeyValue("field", problem.problem().field())
            .addKeyValue("value", problem.problem().value())
            .log("DNSEndpoint {}: {}", problem.source(), problem.problem().reason());
      }
    }
  }

  private void graceExpired() {
    if (source.synced() || file == null) {
      if (!source.synced()) {
        log.atWarn().log("no sync within the grace period and no snapshot file; still SERVFAIL");
      }
      return;
    }
    Optional<SnapshotFile.Content> content;
    try {
      content = file.read();
    } catch (IOException e) {
      fail("the snapshot file cannot be used: " + e.getMessage(), e);
      return;
    }
    if (content.isEmpty()) {
      log.atWarn()
          .addKeyValue("file", file.path())
          .log("no sync within the grace period and no snapshot file yet; still SERVFAIL");
      return;
    }
    SnapshotFile.Content c = content.get();
    if (!c.clusterId().equals(settings.clusterId())) {
      log.atWarn()
          .addKeyValue("file", file.path())
          .addKeyValue("fileClusterId", c.clusterId())
          .addKeyValue("clusterId", settings.clusterId())
          .log("the snapshot file belongs to another cluster; not serving it");
      return;
    }
    Instant expires = c.writtenAt().plus(settings.snapshotMaxAge());
    Instant now = clock.instant();
    if (!expires.isAfter(now)) {
      log.atWarn()
          .addKeyValue("file", file.path())
          .addKeyValue("writtenAt", c.writtenAt())
          .log("the snapshot file is older than responder.snapshot-max-age; not serving it");
      return;
    }
    if (source.synced()) {
      return;
    }
    // Set before the swap publishes the view: whoever sees FROM_SNAPSHOT also sees the file's time.
    Instant previousWrittenAt = snapshotWrittenAt;
    snapshotWrittenAt = c.writtenAt();
    BuildResult restored =
        SnapshotBuilder.build(zones, c.endpoints(), limits, clock.instant(), null);
    if (!swap(restored, ServingState.FROM_SNAPSHOT, "file")) {
      snapshotWrittenAt = previousWrittenAt;
    } else {
      log.atWarn()
          .addKeyValue("file", file.path())
          .addKeyValue("writtenAt", c.writtenAt())
          .log("API server not synced within the grace period; serving from the snapshot file");
      scheduler.schedule(
          this::snapshotExpired,
          Math.max(0, Duration.between(now, expires).toMillis()),
          TimeUnit.MILLISECONDS);
    }
  }

  private void snapshotExpired() {
    if (view.get().state() == ServingState.FROM_SNAPSHOT) {
      view.set(AnswerView.unsynced(zones));
      log.atError().log("the snapshot file is now too old to serve; answering SERVFAIL");
    }
  }

  private void persistIfDirty() {
    AnswerView current = view.get();
    if (file == null || !dirty || current.state() != ServingState.SYNCED) {
      return;
    }
    Instant now = clock.instant();
    try {
      file.write(
          new SnapshotFile.Content(
              SnapshotFile.FORMAT_VERSION, settings.clusterId(), now, current.snapshot().inputs()));
      dirty = false;
      snapshotWrittenAt = now;
    } catch (IOException | RuntimeException e) {
      log.atWarn()
          .addKeyValue("file", file.path())
          .setCause(e)
          .log("writing the snapshot file failed; retrying at the next interval");
    }
  }

  private void registerGauges() {
    var registry = metrics.registry();
    Gauge.builder(
            "responder.snapshot.age",
            this,
            c -> {
              ZoneSnapshot s = c.view.get().snapshot();
              return s == null
                  ? Double.NaN
                  : Duration.between(s.builtAt(), c.clock.instant()).toMillis() / 1000.0;
            })
        .description("Seconds since the served snapshot was built")
        .baseUnit("seconds")
        .register(registry);
    Gauge.builder("responder.snapshot.names", this, c -> c.status().names())
        .description("Names in the served snapshot")
        .register(registry);
    Gauge.builder("responder.snapshot.records", this, c -> c.status().records())
        .description("Records in the served snapshot")
        .register(registry);
    Gauge.builder("responder.snapshot.problems", this, c -> c.status().problems())
        .description("Problems found in the DNSEndpoints of the served snapshot")
        .register(registry);
    Gauge.builder("responder.watching", this, c -> c.source.watching() ? 1 : 0)
        .description("1 while every watch on the API server's DNSEndpoints is connected")
        .register(registry);
    Gauge.builder("responder.snapshot.rebuild.failing", this, c -> c.lastFailure == null ? 0 : 1)
        .description("1 while the latest rebuild failed and the previous view is served")
        .register(registry);
    Gauge.builder(
            "responder.synced", this, c -> c.view.get().state() == ServingState.SYNCED ? 1 : 0)
        .description("1 when serving the cluster's current records, 0 otherwise")
        .register(registry);
  }

  /** Stops the timers and the source; writes the snapshot once more when it changed. */
  @Override
  public void close() {
    try {
      scheduler.submit(this::persistIfDirty).get(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
      log.atWarn().setCause(e).log("the final snapshot write did not complete");
    }
    scheduler.shutdownNow();
    source.close();
  }
}
