package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.health.PeerAnswer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The peer answers of one engine instance, decoded once: written only by the global store's
 * processor ({@link PeerAnswerStoreProcessor}, on the global thread), read by every stream task.
 * Each task subscribes at start and is told which hosts changed, so it re-decides the Gslbs that
 * use them; it reads the answers themselves here when it decides.
 *
 * <p>This replaces a broadcast topic (every answer re-published to every partition, and a changelog
 * of each task's copy): the peer-answers topic is compacted and is itself what the global store is
 * restored from, so an answer costs one record read per instance. The global thread has read the
 * whole topic before the stream tasks start, so a task starting (or restarting) decides with every
 * answer the topic holds. The answers and the change notices are level-triggered: a task reads the
 * latest answer when it decides, whatever notices it has coalesced.
 */
final class PeerAnswerBoard {

  /** A host whose answer from a peer changed, with the timing of the record that changed it. */
  record Change(String host, long timestamp, long eventTime) {}

  /** The answers by {@link StoreGslbView#peerKey} ({@code <host>|<geoTag>}). */
  private final Map<String, PeerAnswer> answers = new ConcurrentHashMap<>();

  /**
   * Every geo tag an answer was ever held from, sorted (a host's answers are read by key, one per
   * tag); replaced, never changed, by the global thread.
   */
  private volatile String[] geoTags = new String[0];

  private final List<Queue<Change>> subscribers = new CopyOnWriteArrayList<>();

  /** The answer held under a store key, or {@code null}. */
  PeerAnswer get(String peerKey) {
    return answers.get(peerKey);
  }

  /** A host's answers, one per peer that has answered, in geo tag order. */
  List<PeerAnswer> answers(String host) {
    List<PeerAnswer> found = new ArrayList<>(2);
    for (String geoTag : geoTags) {
      PeerAnswer answer = answers.get(StoreGslbView.peerKey(host, geoTag));
      if (answer != null) {
        found.add(answer);
      }
    }
    return found;
  }

  /** How many answers are held. */
  int size() {
    return answers.size();
  }

  /** Holds {@code answer} under {@code peerKey} ({@code null} removes it), without notice. */
  void load(String peerKey, PeerAnswer answer) {
    if (answer == null) {
      answers.remove(peerKey);
    } else {
      addGeoTag(geoTagOf(peerKey));
      answers.put(peerKey, answer);
    }
  }

  /** Holds the change and tells every subscriber that {@code change.host()} changed. */
  void apply(String peerKey, PeerAnswer answer, Change change) {
    load(peerKey, answer);
    for (Queue<Change> subscriber : subscribers) {
      subscriber.add(change);
    }
  }

  /** A new queue of change notices, filled until {@link #unsubscribe}. */
  Queue<Change> subscribe() {
    Queue<Change> queue = new ConcurrentLinkedQueue<>();
    subscribers.add(queue);
    return queue;
  }

  void unsubscribe(Queue<Change> queue) {
    subscribers.remove(Objects.requireNonNull(queue, "queue"));
  }

  private void addGeoTag(String geoTag) {
    String[] known = geoTags;
    if (Arrays.binarySearch(known, geoTag) >= 0) {
      return;
    }
    TreeSet<String> next = new TreeSet<>(Arrays.asList(known));
    next.add(geoTag);
    geoTags = next.toArray(String[]::new);
  }

  static String geoTagOf(String peerKey) {
    return peerKey.substring(peerKey.indexOf('|') + 1); // host names hold no |
  }
}
