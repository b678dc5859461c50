package dev.cairn.recordwriter.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.recordwriter.reconcile.WriteQueue.Lane;
import dev.cairn.recordwriter.reconcile.WriteQueue.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WriteQueueTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration BOUND = Duration.ofSeconds(5);

  private final WriteQueue<String> queue = new WriteQueue<>(BOUND);

  private static Target record(String key) {
    return new Target(Lane.RECORD, key);
  }

  private static Target status(String key) {
    return new Target(Lane.STATUS, key);
  }

  /** Takes until nothing may go, finishing each write at once. */
  private List<String> takeAll() {
    List<String> order = new ArrayList<>();
    String w;
    while ((w = queue.take()) != null) {
      order.add(w);
      queue.done(targetOf(w));
    }
    return order;
  }

  /** Writes are named "<lane letter>:<key>#<n>" in these tests. */
  private static Target targetOf(String write) {
    String key = write.substring(2, write.indexOf('#'));
    return write.startsWith("r") ? record(key) : status(key);
  }

  @Test
  void neverHandsOutTwoWritesToTheSameObjectAtOnceAndKeepsTheirOrder() {
    queue.add(record("a"), "r:a#1", T0);
    queue.add(record("a"), "r:a#2", T0);
    queue.add(record("b"), "r:b#1", T0);

    assertThat(queue.take()).isEqualTo("r:a#1");
    assertThat(queue.take()).as("a is busy: b goes").isEqualTo("r:b#1");
    assertThat(queue.take()).as("only a's second write is left, and a is busy").isNull();
    assertThat(queue.ready()).isFalse();
    assertThat(queue.inFlight()).isEqualTo(2);

    queue.done(record("a"));

    assertThat(queue.ready()).isTrue();
    assertThat(queue.take()).isEqualTo("r:a#2");
  }

  @Test
  void aDnsEndpointAndAGslbOfTheSameNameAreDifferentObjects() {
    queue.add(record("ns/web"), "r:ns/web#1", T0);
    queue.add(status("ns/web"), "s:ns/web#1", T0);

    assertThat(queue.take()).isEqualTo("r:ns/web#1");
    assertThat(queue.take()).isEqualTo("s:ns/web#1");
    assertThat(queue.inFlight()).isEqualTo(2);
  }

  @Test
  void recordWritesGoBeforeStatusWritesQueuedEarlier() {
    queue.add(status("g1"), "s:g1#1", T0);
    queue.add(status("g2"), "s:g2#1", T0.plusSeconds(1));
    queue.add(record("a"), "r:a#1", T0.plusSeconds(2));
    queue.add(record("b"), "r:b#1", T0.plusSeconds(3));

    assertThat(takeAll()).containsExactly("r:a#1", "r:b#1", "s:g1#1", "s:g2#1");
  }

  @Test
  void aStatusThatHasWaitedPastTheBoundGoesBeforeRecordWritesQueuedAfterThat() {
    queue.add(status("g1"), "s:g1#1", T0);
    queue.add(record("early"), "r:early#1", T0.plus(BOUND).minusMillis(1));
    queue.add(record("late"), "r:late#1", T0.plus(BOUND).plusMillis(1));

    assertThat(takeAll()).containsExactly("r:early#1", "s:g1#1", "r:late#1");
  }

  @Test
  void aSteadyStreamOfRecordWritesNeverStarvesAStatus() {
    queue.add(status("g1"), "s:g1#1", T0);
    List<String> order = new ArrayList<>();
    // One record write queued and one sent every 100 ms, for twice the bound.
    for (int i = 0; i < 100; i++) {
      queue.add(record("r" + i), "r:r" + i + "#1", T0.plusMillis(100L * i));
      String w = queue.take();
      order.add(w);
      queue.done(targetOf(w));
    }
    order.addAll(takeAll());

    assertThat(order).contains("s:g1#1");
    // Queued at 0, due at the bound (5 s): it goes before the record write queued at 5.1 s.
    assertThat(order.indexOf("s:g1#1")).isLessThan(order.indexOf("r:r51#1"));
  }

  @Test
  void aStatusWriteIsNotHeldUpByABusyStatusAheadOfIt() {
    queue.add(status("g1"), "s:g1#1", T0);
    queue.add(status("g1"), "s:g1#2", T0);
    queue.add(status("g2"), "s:g2#1", T0);

    assertThat(queue.take()).isEqualTo("s:g1#1");
    assertThat(queue.take()).isEqualTo("s:g2#1");
    assertThat(queue.take()).isNull();
  }

  @Test
  void withABoundOfZeroWritesGoInQueueOrderRecordsFirstOnATie() {
    WriteQueue<String> fifo = new WriteQueue<>(Duration.ZERO);
    fifo.add(status("g1"), "s:g1#1", T0);
    fifo.add(record("a"), "r:a#1", T0);
    fifo.add(record("b"), "r:b#1", T0.plusMillis(1));

    assertThat(fifo.take()).isEqualTo("r:a#1");
    assertThat(fifo.take()).isEqualTo("s:g1#1");
    assertThat(fifo.take()).isEqualTo("r:b#1");
  }

  @Test
  void countsWhatIsQueuedAndDrainsItRecordsFirst() {
    queue.add(status("g1"), "s:g1#1", T0);
    queue.add(record("a"), "r:a#1", T0);
    queue.add(record("b"), "r:b#1", T0);
    assertThat(queue.take()).isEqualTo("r:a#1");

    assertThat(queue.queued(Lane.RECORD)).isEqualTo(1);
    assertThat(queue.queued(Lane.STATUS)).isEqualTo(1);
    assertThat(queue.drain()).containsExactly("r:b#1", "s:g1#1");
    assertThat(queue.queued(Lane.RECORD)).isZero();
    assertThat(queue.inFlight()).as("a drain does not touch writes in flight").isEqualTo(1);
  }

  @Test
  void refusesANegativeBound() {
    assertThatThrownBy(() -> new WriteQueue<String>(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
