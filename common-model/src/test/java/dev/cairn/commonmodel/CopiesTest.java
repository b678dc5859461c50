package dev.cairn.commonmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link Copies}: the sorted map copies behave as the unmodifiable {@code TreeMap} they replace.
 */
class CopiesTest {

  @Test
  void nullAndEmptyBecomeTheEmptyMap() {
    assertThat(Copies.sortedMap(null)).isEmpty();
    assertThat(Copies.sortedMap(Map.of())).isEmpty();
    assertThat(Copies.<String>list(null)).isEmpty();
  }

  @Test
  void aCopyIteratesInKeyOrderAndReadsLikeTheMapItCopies() {
    Map<String, Integer> source = new LinkedHashMap<>();
    source.put("weight-us-0-30", 30);
    source.put("k8gb.io/dnstype", 1);
    source.put("a", 2);
    source.put("Z", 3);

    Map<String, Integer> copy = Copies.sortedMap(source);

    assertThat(copy.keySet()).containsExactly("Z", "a", "k8gb.io/dnstype", "weight-us-0-30");
    assertThat(copy.values()).containsExactly(3, 2, 1, 30);
    assertThat(copy.get("a")).isEqualTo(2);
    assertThat(copy.get("b")).isNull();
    assertThat(copy.get(42)).isNull();
    assertThat(copy.containsKey("Z")).isTrue();
    assertThat(copy.containsKey("z")).isFalse();
    assertThat(copy.containsValue(30)).isTrue();
    assertThat(copy).hasSize(4).isNotEmpty();
    StringBuilder visited = new StringBuilder();
    copy.forEach((k, v) -> visited.append(k).append('=').append(v).append(';'));
    assertThat(visited).hasToString("Z=3;a=2;k8gb.io/dnstype=1;weight-us-0-30=30;");
  }

  @Test
  void aCopyEqualsHashesAndPrintsAsATreeMapOfTheSameEntries() {
    Random random = new Random(7);
    for (int round = 0; round < 500; round++) {
      Map<String, String> source = new HashMap<>();
      int size = 1 + random.nextInt(12);
      for (int i = 0; i < size; i++) {
        source.put(
            Integer.toString(random.nextInt(1000), 36), random.nextBoolean() ? "v" + i : null);
      }
      Map<String, String> copy = Copies.sortedMap(source);
      Map<String, String> tree = Collections.unmodifiableMap(new TreeMap<>(source));

      assertThat(copy).isEqualTo(tree);
      assertThat(tree).isEqualTo(copy);
      assertThat(copy).isEqualTo(source);
      assertThat(copy.hashCode()).isEqualTo(tree.hashCode());
      assertThat(copy).hasToString(tree.toString());
      assertThat(List.copyOf(copy.entrySet())).isEqualTo(List.copyOf(tree.entrySet()));
    }
  }

  @Test
  void aCopyOfACopyIsTheSameMapAndTheCopyIgnoresLaterChangesToItsSource() {
    Map<String, Integer> source = new HashMap<>(Map.of("b", 2, "a", 1));
    Map<String, Integer> copy = Copies.sortedMap(source);

    source.put("c", 3);

    assertThat(Copies.sortedMap(copy)).isSameAs(copy);
    assertThat(copy).containsOnlyKeys("a", "b");
  }

  @Test
  void aCopyCannotBeChanged() {
    Map<String, Integer> copy = Copies.sortedMap(Map.of("b", 2, "a", 1));

    assertThatThrownBy(() -> copy.put("c", 3)).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> copy.remove("a")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(copy::clear).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> copy.putAll(Map.of("d", 4)))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> copy.replaceAll((k, v) -> v + 1))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> copy.entrySet().iterator().next().setValue(9))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> copy.keySet().remove("a"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(copy).containsOnlyKeys("a", "b");
  }

  @Test
  void aNullKeyIsRejectedAsATreeMapRejectsIt() {
    Map<String, Integer> withNull = new HashMap<>();
    withNull.put(null, 1);
    withNull.put("a", 2);

    assertThatThrownBy(() -> Copies.sortedMap(withNull)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> Copies.sortedMap(Map.of("a", 1)).get(null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void entriesAreImmutableSnapshots() {
    Map<String, Integer> copy = Copies.sortedMap(Map.of("a", 1));

    assertThat(copy.entrySet()).containsExactly(new AbstractMap.SimpleImmutableEntry<>("a", 1));
    assertThat(copy.entrySet().iterator()).toIterable().hasSize(1);
  }

  @Test
  void aCopyIsASortedMapWhoseRangesReadAsATreeMapsDo() {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      TreeMap<String, Integer> tree = new TreeMap<>();
      int size = 1 + random.nextInt(8);
      while (tree.size() < size) {
        tree.put(Character.toString('a' + random.nextInt(12)), random.nextInt(100));
      }
      SortedMap<String, Integer> copy = (SortedMap<String, Integer>) Copies.sortedMap(tree);
      assertThat(copy.comparator()).isNull();
      assertThat(copy.firstKey()).isEqualTo(tree.firstKey());
      assertThat(copy.lastKey()).isEqualTo(tree.lastKey());
      // Bounds inside, between, before and after the keys.
      String from = Character.toString('a' + random.nextInt(14) - 1);
      String to = Character.toString(from.charAt(0) + random.nextInt(6));
      assertThat(copy.subMap(from, to)).containsExactlyEntriesOf(tree.subMap(from, to));
      assertThat(copy.headMap(to)).containsExactlyEntriesOf(tree.headMap(to));
      assertThat(copy.tailMap(from)).containsExactlyEntriesOf(tree.tailMap(from));
      assertThat(copy.headMap(to)).isEqualTo(tree.headMap(to));
    }
    SortedMap<String, Integer> copy = (SortedMap<String, Integer>) Copies.sortedMap(Map.of("b", 1));
    assertThatThrownBy(() -> copy.subMap("c", "a")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> copy.headMap(null)).isInstanceOf(NullPointerException.class);
    SortedMap<String, Integer> none = copy.headMap("a");
    assertThat(none).isEmpty();
    assertThatThrownBy(none::firstKey).isInstanceOf(java.util.NoSuchElementException.class);
    assertThatThrownBy(none::lastKey).isInstanceOf(java.util.NoSuchElementException.class);
    assertThatThrownBy(() -> copy.tailMap("a").put("c", 3))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
