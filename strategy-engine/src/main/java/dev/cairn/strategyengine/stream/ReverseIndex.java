package dev.cairn.strategyengine.stream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reverse index: who depends on an input (the input keys of {@link DependencyIndex}), kept up
 * to date as dependents are recomputed. Derived by deciding, so it lives in the task's memory only:
 * a task decides everything it holds when it starts, which rebuilds it, and it costs no
 * serialisation and no store layer per change.
 *
 * <p>A hash map from input key to its dependents: a dependent's change touches only the inputs it
 * gained or lost, each in constant time, and looking up an input's dependents costs nothing for an
 * input no one reads.
 */
final class ReverseIndex {

  private final Map<String, Set<String>> dependents = new HashMap<>();

  /** The dependents of one input, in key order (so recomputation order is deterministic). */
  List<String> dependents(String inputKey) {
    Set<String> found = dependents.get(inputKey);
    if (found == null) {
      return List.of();
    }
    List<String> sorted = new ArrayList<>(found);
    if (sorted.size() > 1) {
      sorted.sort(null);
    }
    return sorted;
  }

  /** Replaces a dependent's inputs: removes it from those it no longer reads, adds the new ones. */
  void replace(String dependentKey, Set<String> oldInputs, Set<String> newInputs) {
    for (String stale : oldInputs) {
      if (!newInputs.contains(stale)) {
        Set<String> of = dependents.get(stale);
        if (of != null && of.remove(dependentKey) && of.isEmpty()) {
          dependents.remove(stale);
        }
      }
    }
    for (String fresh : newInputs) {
      if (!oldInputs.contains(fresh)) {
        dependents.computeIfAbsent(fresh, input -> new HashSet<>(4)).add(dependentKey);
      }
    }
  }
}
