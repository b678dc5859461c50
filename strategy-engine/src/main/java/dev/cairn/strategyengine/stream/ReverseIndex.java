package dev.cairn.strategyengine.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * The reverse index (keys from {@link DependencyIndex}): who depends on an input, kept up to date
 * as dependents are recomputed. Derived by deciding, so it lives in the task's memory only: a task
 * decides everything it holds when it starts, which rebuilds it, and it costs no serialisation and
 * no store layer per change.
 */
final class ReverseIndex {

  private final TreeMap<String, String> entries = new TreeMap<>();

  /** The dependents under {@code prefix} (one input), in key order. */
  List<String> dependents(String prefix) {
    // Keys are ASCII (names, hosts and the DependencyIndex separators), so String order is the
    // byte order a store would give.
    return new ArrayList<>(
        entries.subMap(prefix, true, prefix + Character.MAX_VALUE, false).values());
  }

  /** Replaces a dependent's index keys: removes those no longer wanted, adds the new ones. */
  void replace(String dependentKey, Set<String> oldKeys, Set<String> newKeys) {
    for (String stale : oldKeys) {
      if (!newKeys.contains(stale)) {
        entries.remove(stale);
      }
    }
    for (String fresh : newKeys) {
      if (!oldKeys.contains(fresh)) {
        entries.put(fresh, dependentKey);
      }
    }
  }
}
