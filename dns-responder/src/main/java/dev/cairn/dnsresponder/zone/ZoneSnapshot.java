package dev.cairn.dnsresponder.zone;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An immutable, indexed view of every record this server answers from: a map from lower-case owner
 * name (no trailing dot) to the {@link Node} at that name. Lookups are one hash lookup; nothing is
 * scanned per query. Built by {@link SnapshotBuilder}, swapped atomically by the zone cache.
 *
 * <p>Every zone apex has a node (its SOA and NS come from the {@link ZoneSpec}); every name between
 * a record's owner and its zone apex has a node, empty when it is an empty non-terminal.
 */
public final class ZoneSnapshot {

  private static final AtomicLong IDS = new AtomicLong();

  private final long id = IDS.incrementAndGet();
  private final Zones zones;
  private final PersistentMap<String, Node> nodes;
  private final Map<String, Node> nodesView;
  private final List<EndpointInput> given;
  private final List<SourcedProblem> problems;
  private final Instant builtAt;
  private final long serial;
  private final int recordCount;
  private final SnapshotBuilder.Index index;
  private final long basisId;
  private final Set<String> changedNames;
  private volatile List<EndpointInput> inputs;

  /**
   * @param nodes the nodes
   * @param inputs the endpoints built from, or {@code null} when {@code index} holds them
   * @param basis the snapshot this one was built from by changing {@code changedNames}, or {@code
   *     null} when built from nothing
   */
  ZoneSnapshot(
      Zones zones,
      PersistentMap<String, Node> nodes,
      List<EndpointInput> inputs,
      List<SourcedProblem> problems,
      Instant builtAt,
      int recordCount,
      SnapshotBuilder.Index index,
      ZoneSnapshot basis,
      Set<String> changedNames) {
    this.zones = Objects.requireNonNull(zones, "zones");
    this.nodes = Objects.requireNonNull(nodes, "nodes");
    this.nodesView = nodes.asMap();
    if (inputs == null && index == null) {
      throw new IllegalArgumentException("a snapshot needs its inputs or an index holding them");
    }
    this.given = inputs == null ? null : List.copyOf(inputs);
    this.problems = List.copyOf(problems);
    this.builtAt = Objects.requireNonNull(builtAt, "builtAt");
    this.serial = builtAt.getEpochSecond() & 0xFFFF_FFFFL;
    this.recordCount = recordCount;
    this.index = index;
    this.basisId = basis == null ? 0 : basis.id;
    this.changedNames = basis == null ? null : Set.copyOf(changedNames);
  }

  /** What the build worked out, for the next build to start from ({@link SnapshotBuilder}). */
  SnapshotBuilder.Index index() {
    return index;
  }

  /** The nodes, for the next build to edit a copy of ({@link SnapshotBuilder}). */
  PersistentMap<String, Node> nodeMap() {
    return nodes;
  }

  /**
   * The names whose node differs from that of {@code other} (added, removed or replaced), when this
   * snapshot was built from {@code other}; {@code null} when it was not (then anything may differ).
   * Every other name has the very same {@link Node} object in both.
   */
  public Set<String> changedSince(ZoneSnapshot other) {
    return other != null && basisId == other.id ? changedNames : null;
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
    return nodesView;
  }

  /** Number of names, empty non-terminals and apexes included. */
  public int nameCount() {
    return nodes.size();
  }

  /** Number of records (targets) over all sets. */
  public int recordCount() {
    return recordCount;
  }

  /**
   * The inputs the snapshot was built from, in the builder's precedence order (collected and sorted
   * on first use: only the snapshot file needs them).
   */
  public List<EndpointInput> inputs() {
    List<EndpointInput> sorted = inputs;
    if (sorted == null) {
      List<EndpointInput> copy = new ArrayList<>(given != null ? given : index.inputs());
      copy.sort(SnapshotBuilder.PRECEDENCE);
      sorted = List.copyOf(copy);
      inputs = sorted;
    }
    return sorted;
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
