package dev.cairn.commonmodel;

import java.util.List;
import java.util.Map;

/**
 * Defensive copies for record constructors: {@code null} becomes empty, maps are sorted by key so
 * that equal state always serialises to equal bytes.
 */
public final class Copies {

  private Copies() {}

  /** An unmodifiable copy of the list, empty for {@code null}. */
  public static <T> List<T> list(List<T> list) {
    return list == null ? List.of() : List.copyOf(list);
  }

  /**
   * An unmodifiable key-sorted copy of the map, empty for {@code null}; a map this method returned
   * is returned as it is (it cannot change).
   *
   * @throws NullPointerException if a key is {@code null}
   */
  public static <V> Map<String, V> sortedMap(Map<String, V> map) {
    if (map == null || map.isEmpty()) {
      return Map.of();
    }
    if (map instanceof SortedArrayMap<V> copy) {
      return copy;
    }
    return SortedArrayMap.copyOf(map);
  }
}
