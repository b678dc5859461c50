package dev.cairn.localstack;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The stop-the-world collections of this JVM, as wall-clock intervals, so a Kafka hop's latency can
 * be told apart from a pause that stopped every thread while its record was in flight.
 *
 * <p>Taken from the collectors' notifications: a collection's start and end are milliseconds since
 * the JVM started (whole ms), put on the wall clock with the JVM's start time (whole ms), so an
 * interval is good to about 2 ms; {@link #overlaps} widens each by that much. Only the collectors
 * whose notifications are pauses count: G1's young and full collections, ZGC's and Shenandoah's
 * pauses (their cycles are concurrent and are left out).
 */
final class GcPauses implements AutoCloseable {

  /** How much each pause is widened on both sides when matched against a hop. */
  static final long SLACK_MICROS = 2_000;

  /** A pause, wall-clock microseconds since the epoch. */
  record Pause(String collector, long startMicros, long endMicros) {}

  private final long jvmStartMillis = ManagementFactory.getRuntimeMXBean().getStartTime();
  private final List<Pause> pauses = new ArrayList<>();
  private final List<Runnable> unsubscribe = new ArrayList<>();

  GcPauses() {
    for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (!isPause(bean.getName()) || !(bean instanceof NotificationEmitter emitter)) {
        continue;
      }
      NotificationListener listener =
          (notification, handback) -> {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                notification.getType())) {
              return;
            }
            GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
            long start = (jvmStartMillis + info.getGcInfo().getStartTime()) * 1000;
            long end = (jvmStartMillis + info.getGcInfo().getEndTime()) * 1000;
            synchronized (pauses) {
              pauses.add(new Pause(info.getGcName(), start, end));
            }
          };
      emitter.addNotificationListener(listener, null, null);
      unsubscribe.add(
          () -> {
            try {
              emitter.removeNotificationListener(listener);
            } catch (javax.management.ListenerNotFoundException ignored) {
              // already gone
            }
          });
    }
  }

  /** True for the collectors whose every notification is a stop-the-world pause. */
  static boolean isPause(String collector) {
    return collector.startsWith("G1 Young")
        || collector.startsWith("G1 Old")
        || collector.equals("ZGC Pauses")
        || collector.equals("Shenandoah Pauses")
        || collector.contains("Scavenge")
        || collector.contains("MarkSweep")
        || collector.equals("Copy");
  }

  /** True when a pause (widened by {@link #SLACK_MICROS}) overlaps {@code [fromMicros, toMicros]}. */
  boolean overlaps(long fromMicros, long toMicros) {
    synchronized (pauses) {
      for (Pause p : pauses) {
        if (p.startMicros() - SLACK_MICROS <= toMicros
            && p.endMicros() + SLACK_MICROS >= fromMicros) {
          return true;
        }
      }
    }
    return false;
  }

  /** The pauses that started in {@code [fromMicros, toMicros]}. */
  List<Pause> within(long fromMicros, long toMicros) {
    List<Pause> found = new ArrayList<>();
    synchronized (pauses) {
      for (Pause p : pauses) {
        if (p.startMicros() >= fromMicros && p.startMicros() <= toMicros) {
          found.add(p);
        }
      }
    }
    return found;
  }

  @Override
  public void close() {
    unsubscribe.forEach(Runnable::run);
  }
}
