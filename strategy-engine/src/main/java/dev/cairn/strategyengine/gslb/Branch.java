package dev.cairn.strategyengine.gslb;

/**
 * The row of k8gb's strategy decision table (k8gb.md §6) a host's decision took. Notation: {@code
 * S} = this cluster serves the host (Healthy with at least one local target), {@code L} = its local
 * targets, {@code E} = the peers that serve the host, {@code P} = {@code primaryGeoTag}.
 */
public enum Branch {
  /** roundRobin/geoip, E empty: {@code {me: L}} if S, else nothing. */
  NO_PEERS("no peer serves the host: own targets only, if serving"),
  /** roundRobin/geoip, E non-empty: ({@code {me: L}} if S) ∪ E. */
  ALL_CLUSTERS("own targets (if serving) plus every serving peer's"),
  /** failover, primary, S: {@code {me: L}}; E is ignored. */
  PRIMARY_SERVING("primary and serving: own targets only, peers ignored"),
  /** failover, primary, not S, E non-empty: E. */
  PRIMARY_FAILED_OVER("primary but not serving: every serving secondary"),
  /** failover, primary, not S, E empty: nothing. */
  PRIMARY_DOWN_NO_PEERS("primary, not serving, and no secondary serves: no record"),
  /** failover, secondary, P ∈ E: {@code {P: E[P]}}, whatever S is. */
  SECONDARY_FOLLOWS_PRIMARY("secondary and the primary serves: the primary's targets only"),
  /** failover, secondary, P ∉ E, E non-empty: ({@code {me: L}} if S) ∪ E. */
  SECONDARY_PRIMARY_ABSENT(
      "secondary and the primary does not serve: own targets (if serving) plus every other"
          + " serving secondary's"),
  /** failover, secondary, E empty: {@code {me: L}} if S, else nothing. */
  SECONDARY_NO_PEERS("secondary and no peer serves: own targets only, if serving");

  private final String description;

  Branch(String description) {
    this.description = description;
  }

  /** The rule in one phrase. */
  public String description() {
    return description;
  }
}
