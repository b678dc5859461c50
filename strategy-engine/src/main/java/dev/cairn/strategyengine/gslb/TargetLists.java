package dev.cairn.strategyengine.gslb;

import java.util.Arrays;
import java.util.List;

/**
 * Small unmodifiable target lists built without intermediate sets: a decision handles a handful of
 * addresses per host, where sorting an array beats a {@code TreeSet}.
 */
final class TargetLists {

  private TargetLists() {}

  /**
   * The first {@code count} items, string-sorted and without duplicates, as an unmodifiable list;
   * {@code items} is reordered.
   */
  static List<String> sortedDistinct(String[] items, int count) {
    if (count == 0) {
      return List.of();
    }
    if (count == 1) {
      return List.of(items[0]);
    }
    Arrays.sort(items, 0, count);
    int distinct = 1;
    for (int i = 1; i < count; i++) {
      if (!items[i].equals(items[distinct - 1])) {
        items[distinct++] = items[i];
      }
    }
    switch (distinct) {
      case 1:
        return List.of(items[0]);
      case 2:
        return List.of(items[0], items[1]);
      case 3:
        return List.of(items[0], items[1], items[2]);
      default:
        return List.of(Arrays.copyOf(items, distinct));
    }
  }

  /** An unmodifiable copy of a short list, without the intermediate array of {@code copyOf}. */
  static <T> List<T> immutable(List<T> list) {
    switch (list.size()) {
      case 0:
        return List.of();
      case 1:
        return List.of(list.get(0));
      case 2:
        return List.of(list.get(0), list.get(1));
      default:
        return List.copyOf(list);
    }
  }

  /**
   * An unmodifiable list's items string-sorted and without duplicates: the list itself when it is
   * so already (peer targets are), else a sorted copy.
   */
  static List<String> sortedDistinct(List<String> unmodifiable) {
    for (int i = 1; i < unmodifiable.size(); i++) {
      if (unmodifiable.get(i - 1).compareTo(unmodifiable.get(i)) >= 0) {
        return sortedDistinct(unmodifiable.toArray(new String[0]), unmodifiable.size());
      }
    }
    return unmodifiable;
  }

  /** Two unmodifiable lists one after the other, as an unmodifiable list. */
  static <T> List<T> concat(List<T> first, List<T> second) {
    if (second.isEmpty()) {
      return first;
    }
    if (first.isEmpty()) {
      return second;
    }
    Object[] all = new Object[first.size() + second.size()];
    int i = 0;
    for (T item : first) {
      all[i++] = item;
    }
    for (T item : second) {
      all[i++] = item;
    }
    @SuppressWarnings("unchecked")
    List<T> list = (List<T>) List.of(all);
    return list;
  }
}
