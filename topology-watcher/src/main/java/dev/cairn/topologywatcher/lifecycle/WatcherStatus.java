package dev.cairn.topologywatcher.lifecycle;

import dev.cairn.commonmodel.topology.SyncMarker;
import java.time.Instant;

/**
 * What this replica is doing, for health: its role, the current generation and whether it was
 * announced as synced. Written by the lifecycle, read by the health indicator.
 */
public final class WatcherStatus {

  /** Whether this replica publishes. */
  public enum Role {
    STANDBY,
    LEADER
  }

  private final String identity;
  private final boolean electionEnabled;
  private volatile Role role = Role.STANDBY;
  private volatile String leaderIdentity;
  private volatile String generation;
  private volatile SyncMarker.Phase phase;
  private volatile Instant syncedAt;
  private volatile String problem;

  public WatcherStatus(String identity, boolean electionEnabled) {
    this.identity = identity;
    this.electionEnabled = electionEnabled;
  }

  void leading() {
    role = Role.LEADER;
    leaderIdentity = identity;
    generation = null;
    phase = null;
    syncedAt = null;
    problem = null;
  }

  void standingBy() {
    role = Role.STANDBY;
    generation = null;
    phase = null;
    syncedAt = null;
    problem = null;
  }

  void leader(String holder) {
    leaderIdentity = holder == null || holder.isEmpty() ? null : holder;
  }

  void syncing(String newGeneration) {
    generation = newGeneration;
    phase = SyncMarker.Phase.SYNCING;
    syncedAt = null;
  }

  void synced(Instant at) {
    phase = SyncMarker.Phase.SYNCED;
    syncedAt = at;
    problem = null;
  }

  void problem(String text) {
    problem = text;
  }

  /** This replica's holder identity. */
  public String identity() {
    return identity;
  }

  /** False when leader election is disabled and this replica always leads. */
  public boolean electionEnabled() {
    return electionEnabled;
  }

  public Role role() {
    return role;
  }

  /** The identity of the replica holding the lease, as last observed; {@code null} when none. */
  public String leaderIdentity() {
    return leaderIdentity;
  }

  /** The generation of the current leadership term, {@code null} when standing by. */
  public String generation() {
    return generation;
  }

  /** The phase announced for the current generation, {@code null} before the first marker. */
  public SyncMarker.Phase phase() {
    return phase;
  }

  /** When SYNCED was published for the current generation, {@code null} before. */
  public Instant syncedAt() {
    return syncedAt;
  }

  /** Why the current term is stuck (Kafka unreachable, a newer schema on a topic), or null. */
  public String problem() {
    return problem;
  }

  /** True when this replica leads and has published SYNCED for its current generation. */
  public boolean leaderSynced() {
    return role == Role.LEADER && phase == SyncMarker.Phase.SYNCED;
  }
}
