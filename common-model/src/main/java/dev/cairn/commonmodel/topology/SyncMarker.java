package dev.cairn.commonmodel.topology;

import dev.cairn.commonmodel.Copies;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Tells consumers whether the watcher's published view is complete. Published on {@code
 * cairn.topology.sync.v1}, keyed {@code topology-watcher}.
 *
 * <p>A watcher that starts (or becomes leader) publishes {@link Phase#SYNCING} with a new {@code
 * generation}; after the initial list of every informer it publishes {@link Phase#SYNCED} with the
 * same generation. Consumers treat their view as partial until they see SYNCED for the latest
 * generation.
 *
 * @param generation changes on every (re)start or leadership change of the watcher
 * @param phase SYNCING or SYNCED
 * @param at when the phase was entered
 * @param objectCounts objects published per kind at SYNCED (empty while SYNCING)
 */
public record SyncMarker(
    String generation, Phase phase, Instant at, Map<String, Integer> objectCounts) {

  public SyncMarker {
    Objects.requireNonNull(generation, "generation");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(at, "at");
    objectCounts = Copies.sortedMap(objectCounts);
  }

  /** True when the view of this generation is complete. */
  public boolean synced() {
    return phase == Phase.SYNCED;
  }

  /** Whether the view is still being listed or is complete. */
  public enum Phase {
    SYNCING,
    SYNCED
  }
}
