package dev.cairn.commonmodel;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.BiConsumer;

/**
 * An unmodifiable map with String keys in their natural order, held in two arrays: what {@link
 * Copies#sortedMap} returns. It iterates, compares ({@link Map#equals}, {@link Map#hashCode}) and
 * prints like the {@code TreeMap} behind {@code Collections.unmodifiableMap} it replaces, in a
 * fraction of the memory (no entry objects, no cached views) and without a comparison tree to
 * build: the records hold several small maps each, and the services hold many records.
 *
 * <p>Keys are never {@code null} (a {@code null} key is rejected, as a {@code TreeMap} rejects it);
 * values may be. Every mutator throws {@link UnsupportedOperationException}.
 *
 * <p>It is a {@link SortedMap} (natural order, no comparator) so that Jackson, which Cairn has
 * write map entries sorted by key ({@code SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS}), writes
 * it as it is instead of copying it into a {@code TreeMap} first, on every record it encodes. The
 * sub-maps are copies, not views: the map never changes, so a copy reads the same.
 *
 * @param <V> the value type
 */
final class SortedArrayMap<V> extends AbstractMap<String, V> implements SortedMap<String, V> {

  private final String[] keys;
  private final Object[] values;

  private SortedArrayMap(String[] keys, Object[] values) {
    this.keys = keys;
    this.values = values;
  }

  /**
   * A sorted copy of a non-empty map.
   *
   * @throws NullPointerException if a key is {@code null}
   */
  static <V> SortedArrayMap<V> copyOf(Map<String, ? extends V> map) {
    int size = map.size();
    String[] keys = new String[size];
    Object[] values = new Object[size];
    int i = 0;
    boolean sorted = true;
    for (Map.Entry<String, ? extends V> entry : map.entrySet()) {
      String key = Objects.requireNonNull(entry.getKey(), "a map key");
      if (i > 0 && keys[i - 1].compareTo(key) >= 0) {
        sorted = false;
      }
      keys[i] = key;
      values[i] = entry.getValue();
      i++;
    }
    if (i != size) {
      throw new IllegalStateException("the map changed while it was copied");
    }
    if (!sorted) {
      Integer[] order = new Integer[size];
      Arrays.setAll(order, n -> n);
      String[] unsorted = keys;
      Arrays.sort(order, (a, b) -> unsorted[a].compareTo(unsorted[b]));
      String[] sortedKeys = new String[size];
      Object[] sortedValues = new Object[size];
      for (int n = 0; n < size; n++) {
        sortedKeys[n] = unsorted[order[n]];
        sortedValues[n] = values[order[n]];
      }
      keys = sortedKeys;
      values = sortedValues;
    }
    return new SortedArrayMap<>(keys, values);
  }

  private int indexOf(Object key) {
    if (key == null) {
      throw new NullPointerException("a null key");
    }
    return key instanceof String text ? Arrays.binarySearch(keys, text) : -1;
  }

  @Override
  public int size() {
    return keys.length;
  }

  @Override
  public boolean isEmpty() {
    return keys.length == 0;
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  @SuppressWarnings("unchecked")
  public V get(Object key) {
    int index = indexOf(key);
    return index >= 0 ? (V) values[index] : null;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void forEach(BiConsumer<? super String, ? super V> action) {
    for (int i = 0; i < keys.length; i++) {
      action.accept(keys[i], (V) values[i]);
    }
  }

  /** The keys in order; a new view each call, so that no view is kept with the map. */
  @Override
  public Set<String> keySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<String> iterator() {
        return Arrays.asList(keys).iterator();
      }

      @Override
      public boolean contains(Object key) {
        return containsKey(key);
      }

      @Override
      public int size() {
        return keys.length;
      }
    };
  }

  /** The values in key order; a new view each call, so that no view is kept with the map. */
  @Override
  @SuppressWarnings("unchecked")
  public Collection<V> values() {
    return (List<V>) Collections.unmodifiableList(Arrays.asList(values));
  }

  @Override
  public Set<Map.Entry<String, V>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, V>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < keys.length;
          }

          @Override
          @SuppressWarnings("unchecked")
          public Map.Entry<String, V> next() {
            if (next >= keys.length) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return new AbstractMap.SimpleImmutableEntry<>(keys[i], (V) values[i]);
          }
        };
      }

      @Override
      public int size() {
        return keys.length;
      }
    };
  }

  // ------------------------------------------------------------------ SortedMap

  /** {@code null}: the keys' natural order. */
  @Override
  public java.util.Comparator<? super String> comparator() {
    return null;
  }

  @Override
  public String firstKey() {
    if (keys.length == 0) {
      throw new NoSuchElementException("an empty map has no first key");
    }
    return keys[0];
  }

  @Override
  public String lastKey() {
    if (keys.length == 0) {
      throw new NoSuchElementException("an empty map has no last key");
    }
    return keys[keys.length - 1];
  }

  /** The entries from {@code fromKey} (inclusive) to {@code toKey} (exclusive), as a copy. */
  @Override
  public SortedMap<String, V> subMap(String fromKey, String toKey) {
    if (Objects.requireNonNull(fromKey, "fromKey").compareTo(toKey) > 0) {
      throw new IllegalArgumentException("fromKey " + fromKey + " is after toKey " + toKey);
    }
    return range(from(fromKey), from(toKey));
  }

  /** The entries before {@code toKey}, as a copy. */
  @Override
  public SortedMap<String, V> headMap(String toKey) {
    return range(0, from(toKey));
  }

  /** The entries from {@code fromKey} on, as a copy. */
  @Override
  public SortedMap<String, V> tailMap(String fromKey) {
    return range(from(fromKey), keys.length);
  }

  /** The index of the first key at or after {@code key}. */
  private int from(String key) {
    int index = Arrays.binarySearch(keys, Objects.requireNonNull(key, "a null key"));
    return index >= 0 ? index : -index - 1;
  }

  private SortedMap<String, V> range(int from, int to) {
    if (from == 0 && to == keys.length) {
      return this;
    }
    return new SortedArrayMap<>(
        Arrays.copyOfRange(keys, from, to), Arrays.copyOfRange(values, from, to));
  }
}
