package dev.cairn.dnsresponder.zone;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * The data at one owner name. A node without record sets is an empty non-terminal: the name exists
 * because names below it exist (RFC 8020), so it answers NODATA, never NXDOMAIN.
 */
public final class Node {

  private static final Node EMPTY = new Node(new EnumMap<>(RecordKind.class));

  private final Map<RecordKind, RecordSet> sets;

  private Node(EnumMap<RecordKind, RecordSet> sets) {
    this.sets = Collections.unmodifiableMap(sets);
  }

  /** A node with the given sets (copied). */
  public static Node of(Map<RecordKind, RecordSet> sets) {
    if (sets.isEmpty()) {
      return EMPTY;
    }
    return new Node(new EnumMap<>(sets));
  }

  /** The empty non-terminal node. */
  public static Node emptyNonTerminal() {
    return EMPTY;
  }

  /** The set of the given type, or {@code null}. */
  public RecordSet get(RecordKind kind) {
    return sets.get(kind);
  }

  /** All sets at this name. */
  public Map<RecordKind, RecordSet> sets() {
    return sets;
  }

  /** True when the name has no records of its own. */
  public boolean isEmptyNonTerminal() {
    return sets.isEmpty();
  }

  @Override
  public String toString() {
    return sets.isEmpty() ? "Node[empty non-terminal]" : "Node" + sets;
  }
}
