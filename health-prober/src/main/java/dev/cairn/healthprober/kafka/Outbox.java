package dev.cairn.healthprober.kafka;

import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Records waiting to be published, at most one per (topic, key): a newer value replaces one not yet
 * sent. So probing never waits for Kafka, and memory stays bounded by the number of keys even while
 * Kafka is unreachable. A {@code null} value is a tombstone.
 */
public final class Outbox {

  private final ConcurrentHashMap<Slot, Entry> pending = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Slot, Long> latest = new ConcurrentHashMap<>();
  private final AtomicLong sequence = new AtomicLong();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition nonEmpty = lock.newCondition();

  /** Queues a value (or a tombstone, {@code null}) for a key of a topic. */
  public void put(String topic, String key, Object value) {
    Slot slot = new Slot(topic, key);
    long seq = sequence.incrementAndGet();
    latest.put(slot, seq);
    pending.put(slot, new Entry(slot, value, seq));
    signal();
  }

  /** Records waiting. */
  public int size() {
    return pending.size();
  }

  /** Takes every waiting record; waits up to the timeout when there is none. */
  public Iterable<Entry> take(long timeout, TimeUnit unit) throws InterruptedException {
    if (pending.isEmpty()) {
      lock.lock();
      try {
        if (pending.isEmpty()) {
          nonEmpty.await(timeout, unit);
        }
      } finally {
        lock.unlock();
      }
    }
    return () ->
        new Iterator<>() {
          private final Iterator<Slot> slots = pending.keySet().iterator();
          private Entry next = advance();

          private Entry advance() {
            while (slots.hasNext()) {
              Entry e = pending.remove(slots.next());
              if (e != null) {
                return e;
              }
            }
            return null;
          }

          @Override
          public boolean hasNext() {
            return next != null;
          }

          @Override
          public Entry next() {
            Entry e = next;
            next = advance();
            return e;
          }
        };
  }

  /**
   * Puts back a record whose send failed, unless a newer value for its key arrived meanwhile (so an
   * old value never overtakes a new one).
   */
  void retry(Entry entry) {
    if (Objects.equals(latest.get(entry.slot()), entry.sequence())) {
      pending.putIfAbsent(entry.slot(), entry);
      signal();
    }
  }

  /** Forgets the bookkeeping of a key whose tombstone was delivered. */
  void delivered(Entry entry) {
    if (entry.value() == null) {
      latest.remove(entry.slot(), entry.sequence());
    }
  }

  private void signal() {
    lock.lock();
    try {
      nonEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * A topic and key.
   *
   * @param topic the full topic name
   * @param key the record key
   */
  public record Slot(String topic, String key) {}

  /**
   * One waiting record.
   *
   * @param slot its topic and key
   * @param value the value, {@code null} for a tombstone
   * @param sequence orders the values put for a key
   */
  public record Entry(Slot slot, Object value, long sequence) {}
}
