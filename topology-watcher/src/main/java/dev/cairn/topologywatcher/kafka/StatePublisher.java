package dev.cairn.topologywatcher.kafka;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.EventTime;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.topologywatcher.health.WatcherMetrics;
import dev.cairn.topologywatcher.state.Entity;
import dev.cairn.topologywatcher.state.StateChange;
import dev.cairn.topologywatcher.state.StateDiff;
import dev.cairn.topologywatcher.state.TopologyView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaOperations;

/**
 * Publishes the {@link TopologyView} to the topology topics while this replica leads.
 *
 * <p>It keeps the last value it published (or read back) for every key and sends a record only when
 * the view holds something else: an upsert for a new or changed value, a tombstone for a key that
 * is gone. All bookkeeping runs on one thread, so records of a key leave in the order the view
 * changed; Kafka keeps that order per key (idempotent producer, one partition per key).
 *
 * <p>A failed send marks the key's published state unknown and retries it after a pause with the
 * view's value at that time; a bad record never blocks the others.
 */
public final class StatePublisher implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(StatePublisher.class);

  /** The key of the sync marker. */
  public static final String SYNC_KEY = Topics.SYNC.key();

  /** The published state of a key after a failed send: differs from every value. */
  private static final Object UNKNOWN = new Object();

  private record Key(TopicSpec<?> topic, String key) {}

  private final KafkaOperations<String, Object> kafka;
  private final TopicSettings topics;
  private final TopologyView view;
  private final WatcherMetrics metrics;
  private final Duration retryBackoff;
  private final ScheduledExecutorService loop;
  private final Set<Key> pending = ConcurrentHashMap.newKeySet();

  /** Keys whose next publication retries a failed send (loop thread only). */
  private final Set<Key> retrying = new HashSet<>();

  private final Map<Key, Instant> eventTimes = new ConcurrentHashMap<>();
  private final Clock clock = Clock.systemUTC();
  private volatile boolean active;

  // Confined to the loop thread.
  private final Map<Key, Object> published = new HashMap<>();
  private final Set<Key> awaiting = new HashSet<>();
  private CompletableFuture<Void> initialAck = new CompletableFuture<>();
  private long term;
  private boolean failing;

  public StatePublisher(
      KafkaOperations<String, Object> kafka,
      TopicSettings topics,
      TopologyView view,
      WatcherMetrics metrics,
      Duration retryBackoff) {
    this.kafka = kafka;
    this.topics = topics;
    this.view = view;
    this.metrics = metrics;
    this.retryBackoff = retryBackoff;
    this.loop =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "cairn-watcher-publisher");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * The view changed at {@code key}; publishes the new state if this replica leads. The record
   * carries the time of the earliest change not yet published in its {@link EventTime} header.
   */
  public void changed(Entity entity, String key) {
    if (!entity.published()) {
      return;
    }
    Key k = new Key(entity.topic(), key);
    if (active) {
      eventTimes.putIfAbsent(k, clock.instant());
    }
    markDirty(k);
  }

  /**
   * Starts publishing. {@code topicContents} is what the state topics hold now (read back from
   * Kafka); exactly the differences between it and the view are published, tombstones for keys the
   * view no longer has included.
   *
   * @return completes when every one of those differences has been acknowledged
   */
  public CompletableFuture<Void> activate(Map<TopicSpec<?>, Map<String, Object>> topicContents) {
    CompletableFuture<CompletableFuture<Void>> started = new CompletableFuture<>();
    submit(() -> started.complete(begin(topicContents)));
    return started.thenCompose(f -> f);
  }

  private CompletableFuture<Void> begin(Map<TopicSpec<?>, Map<String, Object>> topicContents) {
    term++;
    published.clear();
    pending.clear();
    retrying.clear();
    awaiting.clear();
    eventTimes.clear();
    initialAck = new CompletableFuture<>();
    topicContents.forEach(
        (topic, table) -> table.forEach((k, v) -> published.put(new Key(topic, k), v)));
    active = true;
    List<StateChange> changes = new ArrayList<>();
    for (TopicSpec<?> topic : Entity.STATE_TOPICS) {
      Map<String, Object> desired = view.snapshot(topic);
      changes.addAll(
          StateDiff.between(topic, topicContents.getOrDefault(topic, Map.of()), desired));
      // Keep the view's instance of every unchanged value, so the copies read back are freed.
      desired.forEach(
          (k, v) ->
              published.computeIfPresent(new Key(topic, k), (key, old) -> v.equals(old) ? v : old));
    }
    long tombstones = changes.stream().filter(StateChange::isTombstone).count();
    log.atInfo()
        .addKeyValue("upserts", changes.size() - tombstones)
        .addKeyValue("tombstones", tombstones)
        .addKeyValue("unchanged", published.size() - tombstones - countChanged(changes))
        .log("publishing the differences between the topics and the cluster");
    for (StateChange change : changes) {
      Key key = new Key(change.topic(), change.key());
      awaiting.add(key);
      send(key, change.value(), false);
    }
    if (awaiting.isEmpty()) {
      initialAck.complete(null);
    }
    return initialAck;
  }

  private long countChanged(List<StateChange> changes) {
    return changes.stream()
        .filter(c -> !c.isTombstone() && published.containsKey(new Key(c.topic(), c.key())))
        .count();
  }

  /**
   * Stops publishing; what was published is forgotten (another replica may write next). Also
   * applied on the loop thread, so an {@link #activate} queued just before cannot leave it on.
   */
  public void deactivate() {
    active = false;
    submit(
        () -> {
          active = false;
          term++;
          published.clear();
          pending.clear();
          retrying.clear();
          awaiting.clear();
          eventTimes.clear();
          initialAck.cancel(false);
        });
  }

  /** True while publishing. */
  public boolean active() {
    return active;
  }

  /**
   * Compares every key of the view with what was published and publishes the differences; run after
   * a full re-list to repair any drift.
   */
  public void reconcile() {
    submit(
        () -> {
          if (!active) {
            return;
          }
          Set<Key> keys = new HashSet<>(published.keySet());
          for (TopicSpec<?> topic : Entity.STATE_TOPICS) {
            for (String k : view.snapshot(topic).keySet()) {
              keys.add(new Key(topic, k));
            }
          }
          int repaired = 0;
          for (Key key : keys) {
            if (publishIfChanged(key, false)) {
              repaired++;
            }
          }
          if (repaired > 0) {
            log.atWarn()
                .addKeyValue("keys", repaired)
                .log("the full re-list found published state that had drifted; republished it");
          }
        });
  }

  /**
   * Publishes a sync marker.
   *
   * @return completes when Kafka acknowledged it, exceptionally when the send failed
   */
  public CompletableFuture<Void> publishMarker(SyncMarker marker) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    submit(
        () -> {
          CompletableFuture<?> sent;
          try {
            sent = kafka.send(topics.name(Topics.SYNC), SYNC_KEY, marker);
          } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
          }
          sent.whenComplete(
              (ok, failure) -> {
                if (failure == null) {
                  metrics.published(WatcherMetrics.SYNC_MARKER, false);
                  done.complete(null);
                } else {
                  metrics.publishFailed(WatcherMetrics.SYNC_MARKER);
                  done.completeExceptionally(failure);
                }
              });
        });
    return done;
  }

  private void markDirty(Key key) {
    if (active && pending.add(key)) {
      submit(() -> process(key));
    }
  }

  /** Runs on the loop thread; dropped once the publisher is closed. */
  private void submit(Runnable task) {
    try {
      loop.execute(task);
    } catch (RejectedExecutionException e) {
      log.atDebug().log("publisher closed; dropping queued work");
    }
  }

  private void process(Key key) {
    pending.remove(key);
    boolean retry = retrying.remove(key);
    if (active) {
      publishIfChanged(key, !retry);
    }
  }

  /**
   * Publishes the view's state of {@code key} if it differs from what was published.
   *
   * @param live whether a change of the view asked for it (not a retry or a repair): such a record
   *     always carries an event time
   */
  private boolean publishIfChanged(Key key, boolean live) {
    Object desired = view.get(key.topic(), key.key());
    if (StateDiff.differs(published.get(key), desired)) {
      send(key, desired, live);
      return true;
    }
    eventTimes.remove(key); // a change that changed nothing published: no event to time
    return false;
  }

  /**
   * Sends a record, with the time of the earliest change not yet published. A live change may find
   * none: the view changes before it tells the publisher ({@link #changed}), so the loop can read a
   * new state while an earlier change that turned out to change nothing (a value changed and
   * changed back) has just dropped its time, and before the new change records its own. That change
   * is under way now, so now is its time (it was left without one).
   */
  private void send(Key key, Object value, boolean live) {
    if (value == null) {
      published.remove(key);
    } else {
      published.put(key, value);
    }
    long sentInTerm = term;
    CompletableFuture<?> sent;
    try {
      ProducerRecord<String, Object> record =
          new ProducerRecord<>(topics.name(key.topic()), key.key(), value);
      Instant eventTime = eventTimes.remove(key);
      if (eventTime == null && live) {
        eventTime = clock.instant();
      }
      if (eventTime != null) {
        EventTime.stamp(record.headers(), eventTime);
      }
      sent = kafka.send(record);
    } catch (RuntimeException e) {
      sent = CompletableFuture.failedFuture(e);
    }
    sent.whenComplete((ok, failure) -> submit(() -> acknowledged(sentInTerm, key, value, failure)));
  }

  private void acknowledged(long sentInTerm, Key key, Object value, Throwable failure) {
    String kind = kindOf(key);
    if (failure == null) {
      metrics.published(kind, value == null);
      if (failing) {
        failing = false;
        log.atInfo().log("publishing works again");
      }
      if (sentInTerm == term && awaiting.remove(key) && awaiting.isEmpty()) {
        initialAck.complete(null);
      }
      return;
    }
    metrics.publishFailed(kind);
    if (isPermanent(failure)) {
      log.atError()
          .addKeyValue("topic", topics.name(key.topic()))
          .addKeyValue("key", key.key())
          .log(
              "{} cannot be published and is not retried until it changes (or the next full"
                  + " re-list): {}",
              key.key(),
              failure.toString());
      if (sentInTerm == term) {
        published.put(key, UNKNOWN);
        if (awaiting.remove(key) && awaiting.isEmpty()) {
          initialAck.complete(null);
        }
      }
      return;
    }
    if (!failing) {
      failing = true;
      log.atWarn()
          .addKeyValue("topic", topics.name(key.topic()))
          .addKeyValue("key", key.key())
          .addKeyValue("tombstone", value == null)
          .log(
              "publishing failed; retrying every {}, further failures are logged at debug until a"
                  + " send succeeds: {}",
              retryBackoff,
              failure.toString());
    } else {
      log.atDebug()
          .addKeyValue("key", key.key())
          .log("publishing failed again: {}", failure.toString());
    }
    if (sentInTerm != term || !active) {
      return;
    }
    boolean stillOurs = value == null ? !published.containsKey(key) : published.get(key) == value;
    if (stillOurs) {
      published.put(key, UNKNOWN);
    }
    retrying.add(key);
    try {
      loop.schedule(() -> markDirty(key), retryBackoff.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      log.atDebug().log("publisher closed; not retrying");
    }
  }

  /** A failure that retrying the same record cannot fix (too large, not serialisable). */
  static boolean isPermanent(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof RecordTooLargeException || t instanceof SerializationException) {
        return true;
      }
    }
    return false;
  }

  private static String kindOf(Key key) {
    Entity entity = Entity.of(key.topic(), key.key());
    return entity == null ? key.topic().valueType().getSimpleName() : entity.label();
  }

  /** Stops publishing and waits briefly for queued work; Kafka sends already made are flushed. */
  @Override
  public void close() {
    deactivate();
    loop.shutdown();
    try {
      if (!loop.awaitTermination(5, TimeUnit.SECONDS)) {
        loop.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      kafka.flush();
    } catch (RuntimeException e) {
      log.atWarn().log("flushing the producer on close failed: {}", e.toString());
    }
  }
}
