package dev.cairn.healthprober.kafka;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Drains an {@link Outbox} the way the publisher does, and remembers everything taken. */
public final class RecordingOutbox {

  private final Outbox outbox;
  private final List<Outbox.Entry> taken = new ArrayList<>();

  public RecordingOutbox(Outbox outbox) {
    this.outbox = outbox;
  }

  /** Takes what waits now; returns every entry ever taken. */
  public synchronized List<Outbox.Entry> all() {
    try {
      for (Outbox.Entry e : outbox.take(0, TimeUnit.MILLISECONDS)) {
        taken.add(e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return List.copyOf(taken);
  }

  /** The latest value per key of a topic ({@code null} for a tombstone). */
  public synchronized Map<String, Object> latest(String topic) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Outbox.Entry e : all()) {
      if (e.slot().topic().equals(topic)) {
        out.put(e.slot().key(), e.value());
      }
    }
    return out;
  }

  /** Every value taken for a key, in order. */
  public synchronized List<Object> history(String topic, String key) {
    List<Object> out = new ArrayList<>();
    for (Outbox.Entry e : all()) {
      if (e.slot().topic().equals(topic) && e.slot().key().equals(key)) {
        out.add(e.value());
      }
    }
    return out;
  }
}
