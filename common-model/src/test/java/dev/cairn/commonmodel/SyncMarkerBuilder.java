package dev.cairn.commonmodel;

import dev.cairn.commonmodel.topology.SyncMarker;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds {@link SyncMarker}s; start with {@link TestRecords#aSyncMarker()}. Defaults: generation
 * {@code gen-1}, SYNCED at {@link TestRecords#T0}, no object counts.
 */
public final class SyncMarkerBuilder {

  private String generation = "gen-1";
  private SyncMarker.Phase phase = SyncMarker.Phase.SYNCED;
  private Instant at = TestRecords.T0;
  private final Map<String, Integer> objectCounts = new LinkedHashMap<>();

  SyncMarkerBuilder() {}

  /** Sets the generation. */
  public SyncMarkerBuilder generation(String generation) {
    this.generation = generation;
    return this;
  }

  /** Phase SYNCING: the watcher is still listing. */
  public SyncMarkerBuilder syncing() {
    this.phase = SyncMarker.Phase.SYNCING;
    return this;
  }

  /** Phase SYNCED: the view is complete (the default). */
  public SyncMarkerBuilder synced() {
    this.phase = SyncMarker.Phase.SYNCED;
    return this;
  }

  /** Sets when the phase was entered. */
  public SyncMarkerBuilder at(Instant at) {
    this.at = at;
    return this;
  }

  /** Sets the number of objects published for a kind. */
  public SyncMarkerBuilder withCount(String kind, int count) {
    objectCounts.put(kind, count);
    return this;
  }

  /** The marker. */
  public SyncMarker build() {
    return new SyncMarker(generation, phase, at, objectCounts);
  }
}
