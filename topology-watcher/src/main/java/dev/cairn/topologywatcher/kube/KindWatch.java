package dev.cairn.topologywatcher.kube;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.topologywatcher.health.WatcherMetrics;
import dev.cairn.topologywatcher.state.Entity;
import dev.cairn.topologywatcher.state.TopologyView;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The informers of one kind and the part of the view they feed.
 *
 * <p>Level-triggered: an informer event only names the keys it touches, and each key is recomputed
 * from the current informer store under this kind's lock. A late or duplicate event therefore
 * recomputes the same, latest state and can never put an older value back, and a full re-list is a
 * swap of informers followed by a recomputation of every key.
 *
 * <p>The informer stores are {@link DigestStore}s: they keep each object's normalised record (or
 * compact slice input), never the whole object, and the view shares those records.
 *
 * <p>{@link #tick()} and {@link #relist()} run on the watcher's single scheduler thread; the event
 * handlers run on fabric8's informer threads.
 */
final class KindWatch {

  private static final Logger log = LoggerFactory.getLogger(KindWatch.class);

  /** Page size of the informers' list calls, so a large cluster is not listed in one response. */
  private static final long LIST_PAGE = 500;

  enum Phase {
    PENDING,
    MISSING,
    UNKNOWN,
    STARTING,
    WATCHING
  }

  private final Entity entity;
  private final SourceSelector selector;
  private final KubernetesClient client;
  private final WatchScope scope;
  private final TopologyView view;
  private final WatcherMetrics metrics;
  private final Clock clock;
  private final Executor scheduler;
  private final Duration relistTimeout;
  private final Object lock = new Object();
  private final CompletableFuture<Void> initialSync = new CompletableFuture<>();
  private volatile Active<?> active;
  private volatile Phase phase = Phase.PENDING;
  private volatile String message;
  private volatile Instant lastList;
  private volatile boolean stopped;
  private boolean reportedMissing;

  KindWatch(
      Entity entity,
      SourceSelector selector,
      KubernetesClient client,
      WatchScope scope,
      TopologyView view,
      WatcherMetrics metrics,
      Clock clock,
      Executor scheduler,
      Duration relistTimeout) {
    this.entity = entity;
    this.selector = selector;
    this.client = client;
    this.scope = scope;
    this.view = view;
    this.metrics = metrics;
    this.clock = clock;
    this.scheduler = scheduler;
    this.relistTimeout = relistTimeout;
  }

  Entity entity() {
    return entity;
  }

  /** Completes after the initial list, or when the kind was found not served (synced-empty). */
  CompletableFuture<Void> initialSync() {
    return initialSync;
  }

  KindStatus status() {
    Active<?> a = active;
    return new KindStatus(
        entity.label(),
        phase.name(),
        a == null ? null : a.source.apiVersion(),
        view.size(entity),
        initialSync.isDone(),
        a != null && a.watching(),
        message,
        lastList);
  }

  /** True while the kind's CRD is not installed. */
  boolean missing() {
    return phase == Phase.MISSING;
  }

  String describe() {
    return selector.describe();
  }

  /**
   * Looks for the kind and starts watching it when it is served; switches to a preferred version
   * when one appears; stops and clears the kind when its CRD is removed. Cheap for built-in kinds.
   */
  void tick() {
    if (stopped || (!selector.discovers() && active != null)) {
      return;
    }
    Optional<KindSource<?>> wanted;
    try {
      wanted = selector.select(client);
    } catch (RuntimeException e) {
      discoveryFailed(e);
      return;
    }
    Active<?> current = active;
    if (wanted.isEmpty()) {
      notServed(current);
    } else if (current == null) {
      start(wanted.get());
    } else if (!current.source.apiVersion().equals(wanted.get().apiVersion())
        && phase == Phase.WATCHING) {
      log.atInfo()
          .addKeyValue("kind", entity.label())
          .addKeyValue("from", current.source.apiVersion())
          .addKeyValue("to", wanted.get().apiVersion())
          .log("a preferred API version of {} is now served; re-listing with it", entity.label());
      relist(wanted.get());
    }
  }

  /**
   * Lists the kind again from scratch and publishes only what differs. Blocking.
   *
   * @return true when the kind's view was confirmed: listed again, or found not served; false when
   *     the list failed (the current informer goes on watching) or the kind is not being watched
   */
  boolean relist() {
    Active<?> current = active;
    if (stopped) {
      return true;
    }
    if (current == null || phase != Phase.WATCHING) {
      return phase == Phase.MISSING;
    }
    return relist(current.source);
  }

  void stop() {
    stopped = true;
    Active<?> a;
    synchronized (lock) {
      a = active;
      active = null;
    }
    if (a != null) {
      a.stop();
    }
  }

  private void start(KindSource<?> source) {
    Active<?> fresh = create(source, false);
    synchronized (lock) {
      active = fresh;
    }
    phase = Phase.STARTING;
    log.atInfo()
        .addKeyValue("kind", entity.label())
        .addKeyValue("apiVersion", source.apiVersion())
        .addKeyValue("scope", scopeText(source))
        .log("starting the {} informer", entity.label());
    fresh.start().whenCompleteAsync((ok, failure) -> started(fresh, failure), scheduler);
  }

  private void started(Active<?> fresh, Throwable failure) {
    if (stopped || active != fresh) {
      return;
    }
    if (failure != null) {
      message = String.valueOf(failure);
      phase = Phase.UNKNOWN;
      log.atWarn()
          .addKeyValue("kind", entity.label())
          .setCause(failure)
          .log("the {} informer failed to start; trying again at the next poll", entity.label());
      synchronized (lock) {
        active = null;
      }
      fresh.stop();
      return;
    }
    reconcileAll(fresh);
    phase = Phase.WATCHING;
    message = null;
    lastList = clock.instant();
    if (reportedMissing) {
      log.atInfo()
          .addKeyValue("kind", entity.label())
          .addKeyValue("apiVersion", fresh.source.apiVersion())
          .addKeyValue("objects", view.size(entity))
          .log("{} is now served; watching it", entity.label());
      reportedMissing = false;
    } else {
      log.atInfo()
          .addKeyValue("kind", entity.label())
          .addKeyValue("objects", view.size(entity))
          .log("initial list of {} done", entity.label());
    }
    initialSync.complete(null);
  }

  private boolean relist(KindSource<?> source) {
    Active<?> old = active;
    Active<?> fresh = create(source, true);
    try {
      fresh.start().toCompletableFuture().get(relistTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fresh.stop();
      return false;
    } catch (ExecutionException | TimeoutException e) {
      fresh.stop();
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      message = "re-list failed: " + cause;
      log.atWarn()
          .addKeyValue("kind", entity.label())
          .log(
              "re-list of {} failed; keeping the current informer, which goes on watching, and"
                  + " trying again at the next re-list: {}",
              entity.label(),
              cause.toString());
      return false;
    }
    synchronized (lock) {
      if (stopped || active != old) {
        fresh.stop();
        return false;
      }
      active = fresh;
    }
    if (old != null) {
      old.stop();
    }
    reconcileAll(fresh);
    lastList = clock.instant();
    message = null;
    metrics.resynced(entity);
    log.atDebug()
        .addKeyValue("kind", entity.label())
        .addKeyValue("objects", view.size(entity))
        .log("re-list done");
    return true;
  }

  private void discoveryFailed(RuntimeException e) {
    String text = e.getMessage();
    if (active != null) {
      log.atDebug()
          .addKeyValue("kind", entity.label())
          .log("discovery failed while watching; keeping the informer: {}", text);
      return;
    }
    phase = Phase.UNKNOWN;
    if (!Objects.equals(text, message)) {
      log.atWarn()
          .addKeyValue("kind", entity.label())
          .addKeyValue("looking-for", selector.describe())
          .log(
              "API discovery for {} failed; it is not synced until discovery works: {}",
              entity.label(),
              text);
    }
    message = text;
  }

  private void notServed(Active<?> current) {
    if (current != null) {
      log.atWarn()
          .addKeyValue("kind", entity.label())
          .addKeyValue("looking-for", selector.describe())
          .log("{} is no longer served (CRD removed); its records are deleted", entity.label());
      synchronized (lock) {
        active = null;
      }
      current.stop();
      for (String key : view.keys(entity)) {
        view.put(entity, key, null);
      }
    }
    phase = Phase.MISSING;
    message = "not served by the API server: " + selector.describe() + " (CRD not installed)";
    if (!reportedMissing) {
      reportedMissing = true;
      log.atWarn()
          .addKeyValue("kind", entity.label())
          .addKeyValue("looking-for", selector.describe())
          .log(
              "the kind is not served (CRD not installed); counted as synced and empty, looking again every poll");
    }
    initialSync.complete(null);
  }

  private void reconcileAll(Active<?> a) {
    Set<String> keys = new HashSet<>(view.keys(entity));
    keys.addAll(a.keys());
    for (String key : keys) {
      recompute(key);
    }
  }

  /**
   * Recomputes the keys whose stored digest passes {@code test}: for a kind whose records join
   * another kind's, when that kind changes. Runs on the caller's thread.
   */
  void recomputeWhere(Predicate<Object> test) {
    Active<?> a = active;
    if (a == null) {
      return;
    }
    for (String key : a.keys()) {
      ObjectRef ref;
      try {
        ref = ObjectRef.parse(key);
      } catch (IllegalArgumentException e) {
        continue;
      }
      if (test.test(a.digest(ref.namespace(), ref.name()))) {
        recompute(key);
      }
    }
  }

  private void touched(List<String> keys) {
    for (String key : keys) {
      recompute(key);
    }
  }

  private void recompute(String key) {
    synchronized (lock) {
      Active<?> a = active;
      if (a == null) {
        return;
      }
      Object value;
      try {
        value = a.compute(key);
      } catch (RuntimeException e) {
        log.atError()
            .addKeyValue("kind", entity.label())
            .addKeyValue("key", key)
            .setCause(e)
            .log("could not normalise {}; its last state is kept", key);
        return;
      }
      if (value != DigestStore.FAILED) {
        view.put(entity, key, value);
      }
    }
  }

  private String scopeText(KindSource<?> source) {
    if (!source.namespaced()) {
      return "cluster";
    }
    String namespaces =
        scope.namespaces().isEmpty() ? "all namespaces" : scope.namespaces().toString();
    return scope.labelSelector() == null
        ? namespaces
        : namespaces + " with labels " + scope.labelSelector();
  }

  /**
   * Informers for a source, one per namespace in scope.
   *
   * @param relisting true for the informers of a re-list: a list that fails before they started
   *     ends the attempt at once (the current informers go on watching and the next re-list tries
   *     again) instead of being retried until {@code relistTimeout}, which would hold up every
   *     other kind's re-list and CRD poll on the scheduler
   */
  private <T extends HasMetadata> Active<T> create(KindSource<T> source, boolean relisting) {
    Map<String, SharedIndexInformer<T>> informers = new LinkedHashMap<>();
    Map<String, DigestStore<T>> stores = new LinkedHashMap<>();
    List<String> namespaces =
        source.namespaced() && !scope.namespaces().isEmpty()
            ? scope.namespaces()
            : Collections.singletonList(null);
    for (String namespace : namespaces) {
      String selectorText = source.namespaced() ? scope.labelSelector() : null;
      SharedIndexInformer<T> informer =
          source
              .informable(client, namespace, selectorText)
              .withLimit(LIST_PAGE)
              .runnableInformer(0);
      DigestStore<T> store =
          new DigestStore<>(entity.label(), source.type(), source::digest, source.keptLabels());
      informer.itemStore(store);
      if (!source.indexers().isEmpty()) {
        informer.addIndexers(source.indexers());
      }
      informer.addEventHandler(new Handler<>(source));
      informer.exceptionHandler(
          (isStarted, t) -> {
            if (relisting && !isStarted) {
              return false;
            }
            message = String.valueOf(t.getMessage());
            log.atWarn()
                .addKeyValue("kind", entity.label())
                .addKeyValue("namespace", namespace == null ? "*" : namespace)
                .log("list or watch of {} failed; retrying: {}", entity.label(), t.toString());
            return true;
          });
      informers.put(namespace == null ? "" : namespace, informer);
      stores.put(namespace == null ? "" : namespace, store);
    }
    return new Active<>(source, informers, stores);
  }

  /** Turns informer events into key recomputations. */
  private final class Handler<T extends HasMetadata> implements ResourceEventHandler<T> {
    private final KindSource<T> source;

    Handler(KindSource<T> source) {
      this.source = source;
    }

    @Override
    public void onAdd(T object) {
      touched(keys(object, null));
    }

    @Override
    public void onUpdate(T oldObject, T newObject) {
      touched(keys(newObject, oldObject));
    }

    @Override
    public void onDelete(T object, boolean deletedFinalStateUnknown) {
      touched(keys(object, null));
    }

    /** The keys of the new and the old state of an object; none (logged) if unusable. */
    private List<String> keys(T object, T previous) {
      try {
        Set<String> keys = new LinkedHashSet<>(source.keys(object));
        if (previous != null) {
          keys.addAll(source.keys(previous));
        }
        return new ArrayList<>(keys);
      } catch (RuntimeException e) {
        log.atError()
            .addKeyValue("kind", entity.label())
            .setCause(e)
            .log("could not tell which key an object belongs to; the event is ignored");
        return List.of();
      }
    }
  }

  /** One set of running informers of a source: one per namespace, or one for all. */
  private static final class Active<T extends HasMetadata> implements KindSource.Lookup {
    final KindSource<T> source;
    final Map<String, SharedIndexInformer<T>> informers;
    final Map<String, DigestStore<T>> stores;

    Active(
        KindSource<T> source,
        Map<String, SharedIndexInformer<T>> informers,
        Map<String, DigestStore<T>> stores) {
      this.source = source;
      this.informers = informers;
      this.stores = stores;
    }

    CompletableFuture<Void> start() {
      return CompletableFuture.allOf(
          informers.values().stream()
              .map(i -> i.start().toCompletableFuture())
              .toArray(CompletableFuture[]::new));
    }

    void stop() {
      informers.values().forEach(SharedIndexInformer::stop);
    }

    boolean watching() {
      return informers.values().stream().allMatch(SharedIndexInformer::isWatching);
    }

    Object compute(String key) {
      return source.compute(key, this);
    }

    Set<String> keys() {
      Set<String> keys = new HashSet<>();
      for (SharedIndexInformer<T> informer : informers.values()) {
        for (T skeleton : informer.getStore().list()) {
          keys.addAll(source.keys(skeleton));
        }
      }
      return keys;
    }

    @Override
    public Object digest(String namespace, String name) {
      DigestStore<T> store = scoped(stores, namespace);
      return store == null ? null : store.digest(namespace == null ? name : namespace + "/" + name);
    }

    @Override
    public List<Object> digestsByIndex(String namespace, String index, String value) {
      SharedIndexInformer<T> informer = scoped(informers, namespace);
      DigestStore<T> store = scoped(stores, namespace);
      if (informer == null || store == null) {
        return List.of();
      }
      List<Object> digests = new ArrayList<>();
      for (String key : informer.getIndexer().indexKeys(index, value)) {
        digests.add(store.digest(key));
      }
      return digests;
    }

    /** The per-namespace entry, or the all-namespaces one. */
    private static <V> V scoped(Map<String, V> byNamespace, String namespace) {
      V all = byNamespace.get("");
      return all != null ? all : byNamespace.get(namespace);
    }
  }
}
