package dev.cairn.commonmodel;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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

  /** An unmodifiable key-sorted copy of the map, empty for {@code null}. */
  public static <V> Map<String, V> sortedMap(Map<String, V> map) {
    if (map == null || map.isEmpty()) {
      return Map.of();
    }
    return Collections.unmodifiableMap(new TreeMap<>(map));
  }
}
