package dev.cairn.strategyengine.gslb;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a strategy chose for one host: k8gb's {@code final} map, geo tag to targets, and the branch
 * of the decision table taken.
 *
 * @param branch the row of the decision table
 * @param chosen geo tag to targets, sorted by tag; only tags with at least one target
 */
record Selection(Branch branch, SortedMap<String, TagTargets> chosen) {

  /**
   * Takes over {@code chosen}, which a strategy builds for this selection alone; only when some tag
   * has no target is it copied without those tags.
   */
  Selection {
    Objects.requireNonNull(branch, "branch");
    chosen = Collections.unmodifiableSortedMap(withTargets(chosen));
  }

  private static SortedMap<String, TagTargets> withTargets(SortedMap<String, TagTargets> chosen) {
    for (TagTargets targets : chosen.values()) {
      if (targets.isEmpty()) {
        TreeMap<String, TagTargets> copy = new TreeMap<>();
        chosen.forEach(
            (tag, some) -> {
              if (!some.isEmpty()) {
                copy.put(tag, some);
              }
            });
        return copy;
      }
    }
    return chosen;
  }
}
