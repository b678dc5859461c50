package dev.cairn.recordwriter.reconcile;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The order in which planned writes go to the API server: the scheduling rules of {@link
 * WriteScheduler}, without threads or clock reads (enqueue times are passed in), so they are tested
 * as plain values.
 *
 * <ul>
 *   <li><b>One writer per object.</b> A write is taken only while no other write to the same object
 *       ({@link Target}: lane and key) is in flight; {@link #done} frees the object. Writes to one
 *       object keep their order.
 *   <li><b>DNS first.</b> Writes that change what DNS answers ({@link Lane#RECORD}) go before Gslb
 *       status writes ({@link Lane#STATUS}) that have waited less than {@code statusMaxDelay}.
 *   <li><b>No starvation.</b> Every write has a deadline: a record write its enqueue time, a status
 *       write its enqueue time plus {@code statusMaxDelay}. The write with the earliest deadline
 *       goes next (ties: records first), so a status that has waited {@code statusMaxDelay} goes
 *       before every record write queued after its deadline, and within a lane writes go in the
 *       order they were queued.
 * </ul>
 *
 * Not thread-safe: {@link WriteScheduler} guards it.
 *
 * @param <T> the queued write
 */
final class WriteQueue<T> {

  /** The kind of a write, for priority. */
  enum Lane {
    /** DNSEndpoint creates, updates and deletes: what DNS answers. */
    RECORD("dnsendpoint"),
    /**
     * Writes of Gslbs' embedded Ingresses: their load-balancer status becomes what DNS answers, so
     * they go with the record writes (no delay), after them on a tie.
     */
    INGRESS("ingress"),
    /**
     * Creates and updates of the Gslbs of annotated Ingresses (k8gb's Ingress-annotation mode): the
     * Gslb is what gets the Ingress an answer, so they go with the record writes too.
     */
    GSLB("gslb"),
    /** Gslb status writes: what users read. */
    STATUS("gslb_status");

    private final String kind;

    Lane(String kind) {
      this.kind = kind;
    }

    /** The lane as a metric tag. */
    String kind() {
      return kind;
    }
  }

  /**
   * The object a write goes to: two writes with equal targets are never in flight together.
   *
   * @param lane the write's kind (a DNSEndpoint and a Gslb of the same name are different objects)
   * @param key the object's key
   */
  record Target(Lane lane, Object key) {
    Target {
      Objects.requireNonNull(lane, "lane");
      Objects.requireNonNull(key, "key");
    }
  }

  private record Entry<T>(Target target, T write, Instant deadline) {}

  private final Duration statusMaxDelay;
  private final Map<Lane, LinkedList<Entry<T>>> lanes = new EnumMap<>(Lane.class);
  private final Set<Target> busy = new HashSet<>();

  /**
   * An empty queue.
   *
   * @param statusMaxDelay how long a status write yields to record writes; zero or more
   */
  WriteQueue(Duration statusMaxDelay) {
    if (statusMaxDelay == null || statusMaxDelay.isNegative()) {
      throw new IllegalArgumentException(
          "statusMaxDelay must be zero or positive, got " + statusMaxDelay);
    }
    this.statusMaxDelay = statusMaxDelay;
    for (Lane lane : Lane.values()) {
      lanes.put(lane, new LinkedList<>());
    }
  }

  /** Queues a write to {@code target}, queued at {@code now}. */
  void add(Target target, T write, Instant now) {
    Instant deadline = target.lane() == Lane.STATUS ? now.plus(statusMaxDelay) : now;
    lanes.get(target.lane()).addLast(new Entry<>(target, write, deadline));
  }

  /**
   * Takes the write that goes next (earliest deadline among the writes whose object is not busy)
   * and marks its object busy until {@link #done}.
   *
   * @return the write, or {@code null} when no queued write may go (none queued, or every queued
   *     write's object has a write in flight)
   */
  T take() {
    Entry<T> best = null;
    Iterator<Entry<T>> from = null;
    for (Lane lane : Lane.values()) {
      Iterator<Entry<T>> it = lanes.get(lane).iterator();
      while (it.hasNext()) {
        Entry<T> e = it.next();
        if (busy.contains(e.target())) {
          continue;
        }
        // Lanes are visited in priority order, so a tie keeps the earlier lane's write.
        if (best == null || e.deadline().isBefore(best.deadline())) {
          best = e;
          from = it;
        }
        break;
      }
    }
    if (best == null) {
      return null;
    }
    from.remove();
    busy.add(best.target());
    return best.write();
  }

  /** The write to {@code target} taken last is finished (sent or dropped). */
  void done(Target target) {
    busy.remove(target);
  }

  /** True when some queued write may go now. */
  boolean ready() {
    for (LinkedList<Entry<T>> lane : lanes.values()) {
      for (Entry<T> e : lane) {
        if (!busy.contains(e.target())) {
          return true;
        }
      }
    }
    return false;
  }

  /** The writes queued in one lane (not in flight). */
  int queued(Lane lane) {
    return lanes.get(lane).size();
  }

  /** The writes in flight. */
  int inFlight() {
    return busy.size();
  }

  /** Removes and returns every queued write, records first, in queue order. */
  List<T> drain() {
    List<T> all = new ArrayList<>();
    for (LinkedList<Entry<T>> lane : lanes.values()) {
      lane.forEach(e -> all.add(e.write()));
      lane.clear();
    }
    return all;
  }
}
