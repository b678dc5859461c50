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
 * input no one reads. Most inputs have one dependent (a Gslb's peer answers, its Service), so an
 * input's dependents are held as that one key, and as a set only from the second on: a set per
 * input was most of the index's memory.
 */
final class ReverseIndex {

  /** Input key to its dependent ({@code String}) or dependents ({@code Set<String>}, 2 or more). */
  private final Map<String, Object> dependents = new HashMap<>();

  /** The dependents of one input, in key order (so recomputation order is deterministic). */
  @SuppressWarnings("unchecked")
  List<String> dependents(String inputKey) {
    Object found = dependents.get(inputKey);
    if (found == null) {
      return List.of();
    }
    if (found instanceof String only) {
      return List.of(only);
    }
    List<String> sorted = new ArrayList<>((Set<String>) found);
    sorted.sort(null);
    return sorted;
  }

  /** Replaces a dependent's inputs: removes it from those it no longer reads, adds the new ones. */
  void replace(String dependentKey, Set<String> oldInputs, Set<String> newInputs) {
    for (String stale : oldInputs) {
      if (!newInputs.contains(stale)) {
        remove(stale, dependentKey);
      }
    }
    for (String fresh : newInputs) {
      if (!oldInputs.contains(fresh)) {
        add(fresh, dependentKey);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private void add(String input, String dependent) {
    Object found = dependents.putIfAbsent(input, dependent);
    if (found == null || found.equals(dependent)) {
      return;
    }
    if (found instanceof String only) {
      Set<String> both = new HashSet<>(4);
      both.add(only);
      both.add(dependent);
      dependents.put(input, both);
    } else {
      ((Set<String>) found).add(dependent);
    }
  }

  @SuppressWarnings("unchecked")
  private void remove(String input, String dependent) {
    Object found = dependents.get(input);
    if (found == null) {
      return;
    }
    if (found instanceof String only) {
      if (only.equals(dependent)) {
        dependents.remove(input);
      }
      return;
    }
    Set<String> set = (Set<String>) found;
    if (set.remove(dependent) && set.size() == 1) {
      dependents.put(input, set.iterator().next());
    }
  }
}
