package dev.cairn.recordwriter.reconcile;

import dev.cairn.recordwriter.kube.WriteResult;
import dev.cairn.recordwriter.plan.ObjectKey;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;

/**
 * What the loops that write objects of their own from other objects share (the embedded Ingresses
 * of Gslbs, the Gslbs of annotated Ingresses): a {@link ReconcileLoop} over object names, planning
 * one name at a time, the last conclusion per name for the explain API and health, and the calls
 * the rest of the writer makes on them. A subclass says how to plan a name and what a resync
 * covers.
 *
 * @param <A> the actions of the subclass's plan
 */
public abstract class ObjectWriterLoop<A extends Enum<A>> {

  private final ReconcileLoop<ObjectKey> loop;
  private final Clock clock;
  private final Map<ObjectKey, WriteState<A>> states = new ConcurrentHashMap<>();

  ObjectWriterLoop(
      ReconcileLoop.Names names,
      Logger log,
      Clock clock,
      BooleanSupplier leader,
      Duration resyncPeriod,
      WriteScheduler scheduler,
      WriteQueue.Lane lane) {
    this.clock = clock;
    this.loop =
        new ReconcileLoop<>(
            names,
            log,
            clock,
            leader,
            resyncPeriod,
            this::resync,
            batch -> batch.forEach(this::reconcile),
            false,
            scheduler,
            lane);
  }

  /** Marks every name a full resync covers dirty; runs on the loop's thread. */
  abstract void resync();

  /** Plans one name and hands its write, if any, to {@link #loop()}; on the loop's thread. */
  abstract void reconcile(ObjectKey key);

  final ReconcileLoop<ObjectKey> loop() {
    return loop;
  }

  /** Marks a name to be planned again. Thread-safe. */
  final void changed(ObjectKey key) {
    loop.signal(() -> loop.markDirty(key));
  }

  /** A Gslb was added, changed or deleted. Thread-safe. */
  public void onGslbChanged(ObjectKey key) {
    changed(key);
  }

  /** Leadership was gained or lost. Thread-safe. */
  public void onLeadership(boolean isLeader) {
    loop.onLeadership(isLeader);
  }

  /** True once the informers have listed everything and planning has started. */
  public boolean caughtUp() {
    return loop.caughtUp();
  }

  /** What ended the planning thread unexpectedly, or {@code null}. */
  public String failure() {
    return loop.failure();
  }

  /** Names waiting to be planned (approximate). */
  public int pending() {
    return loop.pending();
  }

  /** What the last pass concluded for one name, {@code null} when there is nothing to report. */
  public WriteState<A> state(ObjectKey key) {
    return states.get(key);
  }

  /** What the last pass concluded for every name with something to report. */
  public Map<ObjectKey, WriteState<A>> states() {
    return Map.copyOf(states);
  }

  /** The names with a conclusion to report (a resync plans them again). */
  final Set<ObjectKey> reported() {
    return Set.copyOf(states.keySet());
  }

  /**
   * Records a plan's conclusion for a name, keeping the result of its last write.
   *
   * @return the conclusion before, {@code null} for none
   */
  final WriteState<A> report(ObjectKey key, A action, String detail) {
    WriteState<A> before = states.get(key);
    states.put(
        key,
        new WriteState<>(
            action, detail, before == null ? null : before.lastWrite(), clock.instant()));
    return before;
  }

  /** Forgets a name's conclusion (it is in line, or no longer concerns this loop). */
  final void forget(ObjectKey key) {
    states.remove(key);
  }

  /** Records the result of a name's write. */
  final void reportWrite(ObjectKey key, WriteResult result) {
    states.computeIfPresent(key, (k, s) -> s.written(result));
  }
}
