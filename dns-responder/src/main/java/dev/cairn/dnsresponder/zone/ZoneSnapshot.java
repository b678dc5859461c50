package dev.cairn.dnsresponder.zone;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable, indexed view of every record this server answers from: a map from lower-case owner
 * name (no trailing dot) to the {@link Node} at that name. Lookups are one hash lookup; nothing is
 * scanned per query. Built by {@link SnapshotBuilder}, swapped atomically by the zone cache.
 *
 * <p>Every zone apex has a node (its SOA and NS come from the {@link ZoneSpec}); every name between
 * a record's owner and its zone apex has a node, empty when it is an empty non-terminal.
 */
public final class ZoneSnapshot {

  private final Zones zones;
  private final Map<String, Node> nodes;
  private final List<EndpointInput> inputs;
  private final List<SourcedProblem> problems;
  private final Instant builtAt;
  private final long serial;
  private final int recordCount;
  private final SnapshotBuilder.Reuse derived;

  ZoneSnapshot(
      Zones zones,
      Map<String, Node> nodes,
      List<EndpointInput> inputs,
      List<SourcedProblem> problems,
      Instant builtAt,
      int recordCount,
      SnapshotBuilder.Reuse derived) {
    this.zones = Objects.requireNonNull(zones, "zones");
    this.nodes = Map.copyOf(nodes);
    this.inputs = List.copyOf(inputs);
    this.problems = List.copyOf(problems);
    this.builtAt = Objects.requireNonNull(builtAt, "builtAt");
    this.serial = builtAt.getEpochSecond() & 0xFFFF_FFFFL;
    this.recordCount = recordCount;
    this.derived = derived;
  }

  /** What the build derived per endpoint, for the next build to reuse ({@link SnapshotBuilder}). */
  SnapshotBuilder.Reuse derived() {
    return derived;
  }

  /** The configured zones. */
  public Zones zones() {
    return zones;
  }

  /**
   * The node at {@code name}.
   *
   * @param name a lower-case name without trailing dot
   * @return the node, or {@code null} when the name does not exist
   */
  public Node node(String name) {
    return nodes.get(name);
  }

  /** Every name with its node (immutable), for indexes compiled from the snapshot. */
  public Map<String, Node> nodes() {
    return nodes;
  }

  /** Number of names, empty non-terminals and apexes included. */
  public int nameCount() {
    return nodes.size();
  }

  /** Number of records (targets) over all sets. */
  public int recordCount() {
    return recordCount;
  }

  /** The inputs the snapshot was built from, in the builder's precedence order. */
  public List<EndpointInput> inputs() {
    return inputs;
  }

  /** What was wrong with the inputs; each problem dropped a label, a target or an endpoint. */
  public List<SourcedProblem> problems() {
    return problems;
  }

  /** When the snapshot was built. */
  public Instant builtAt() {
    return builtAt;
  }

  /** The SOA serial: the build time in seconds since the epoch, modulo 2^32 (RFC 1982). */
  public long serial() {
    return serial;
  }
}
