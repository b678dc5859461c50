package dev.cairn.strategyengine.gslb;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The targets of one record that already carry a label, so that a target two geo tags share is
 * labelled once. A record holds a few targets, which a short array scan checks faster than a hash
 * set costs to build; past {@value #SCAN_LIMIT} targets it becomes a set.
 */
final class LabelledTargets {

  private static final int SCAN_LIMIT = 16;

  private String[] few = new String[4];
  private int size;
  private Set<String> many;

  /** Adds a target; false when it was labelled already. */
  boolean add(String target) {
    if (many != null) {
      return many.add(target);
    }
    for (int i = 0; i < size; i++) {
      if (few[i].equals(target)) {
        return false;
      }
    }
    if (size == SCAN_LIMIT) {
      many = new HashSet<>(List.of(few));
      return many.add(target);
    }
    if (size == few.length) {
      few = Arrays.copyOf(few, SCAN_LIMIT);
    }
    few[size++] = target;
    return true;
  }
}
