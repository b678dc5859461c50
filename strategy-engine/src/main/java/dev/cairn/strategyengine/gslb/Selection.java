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

  Selection {
    Objects.requireNonNull(branch, "branch");
    TreeMap<String, TagTargets> copy = new TreeMap<>();
    chosen.forEach(
        (tag, targets) -> {
          if (!targets.isEmpty()) {
            copy.put(tag, targets);
          }
        });
    chosen = Collections.unmodifiableSortedMap(copy);
  }
}
