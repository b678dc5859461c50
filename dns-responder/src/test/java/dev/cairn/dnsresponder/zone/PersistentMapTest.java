package dev.cairn.dnsresponder.zone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PersistentMapTest {

  /** A key whose hash is chosen, so that collisions and shared hash prefixes are common. */
  private record Key(int hash, int id) {
    @Override
    public int hashCode() {
      return hash;
    }
  }

  private static Key randomKey(Random random, int hashBits) {
    // Few distinct hashes (collisions), hashes that differ only in high bits (deep tries).
    int hash =
        switch (random.nextInt(3)) {
          case 0 -> random.nextInt(1 << hashBits);
          case 1 -> random.nextInt(4) << 30 | 7;
          default -> random.nextInt();
        };
    return new Key(hash, random.nextInt(40));
  }

  private static <K, V> void assertSame(PersistentMap<K, V> map, Map<K, V> expected) {
    assertThat(map.size()).isEqualTo(expected.size());
    assertThat(map.asMap()).isEqualTo(expected);
    Map<K, V> iterated = new HashMap<>();
    map.forEach(iterated::put);
    assertThat(iterated).isEqualTo(expected);
    List<K> viaEntries = new ArrayList<>();
    map.asMap().entrySet().forEach(e -> viaEntries.add(e.getKey()));
    assertThat(viaEntries).hasSize(expected.size()).doesNotHaveDuplicates();
    for (Map.Entry<K, V> e : expected.entrySet()) {
      assertThat(map.get(e.getKey())).isEqualTo(e.getValue());
    }
  }

  @Test
  void editsMatchAHashMapAndEveryEarlierVersionStaysAsItWas() {
    for (int seed = 0; seed < 20; seed++) {
      Random random = new Random(seed);
      PersistentMap<Key, Integer> map = PersistentMap.empty();
      Map<Key, Integer> expected = new HashMap<>();
      List<PersistentMap<Key, Integer>> versions = new ArrayList<>();
      List<Map<Key, Integer>> expectedVersions = new ArrayList<>();
      for (int round = 0; round < 60; round++) {
        PersistentMap.Editor<Key, Integer> editor = map.edit();
        int ops = random.nextInt(round % 10 == 0 ? 400 : 12);
        for (int i = 0; i < ops; i++) {
          Key key = randomKey(random, 1 + seed % 6);
          if (random.nextInt(3) == 0) {
            editor.remove(key);
            expected.remove(key);
          } else {
            int value = random.nextInt(5);
            editor.put(key, value);
            expected.put(key, value);
          }
          assertThat(editor.get(key)).isEqualTo(expected.get(key));
          assertThat(editor.size()).isEqualTo(expected.size());
        }
        map = editor.done();
        versions.add(map);
        expectedVersions.add(new HashMap<>(expected));
        assertSame(map, expected);
        // One-off copies never change the map they come from.
        Key key = randomKey(random, 3);
        PersistentMap<Key, Integer> with = map.with(key, 99);
        PersistentMap<Key, Integer> without = map.without(key);
        assertThat(with.get(key)).isEqualTo(99);
        assertThat(without.containsKey(key)).isFalse();
        assertSame(map, expected);
      }
      for (int i = 0; i < versions.size(); i++) {
        assertSame(versions.get(i), expectedVersions.get(i));
      }
    }
  }

  @Test
  void removingEverythingLeavesTheEmptyMap() {
    Random random = new Random(7);
    PersistentMap<Key, Integer> map = PersistentMap.empty();
    List<Key> keys = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      Key key = randomKey(random, 4);
      keys.add(key);
      map = map.with(key, i);
    }
    PersistentMap.Editor<Key, Integer> editor = map.edit();
    keys.forEach(editor::remove);
    PersistentMap<Key, Integer> empty = editor.done();
    assertThat(empty.isEmpty()).isTrue();
    assertThat(empty).isSameAs(PersistentMap.empty());
    assertThat(empty.asMap()).isEmpty();
    assertThat((long) map.size()).isEqualTo(keys.stream().distinct().count());
  }

  @Test
  void unchangedEditsGiveTheSameNodesAndSay() {
    PersistentMap<String, String> map = PersistentMap.<String, String>empty().with("a", "1");
    String one = map.get("a");
    assertThat(map.with("a", one)).isSameAs(map);
    assertThat(map.without("b")).isSameAs(map);
    PersistentMap.Editor<String, String> editor = map.edit();
    editor.put("a", one);
    editor.remove("zzz");
    assertThat(editor.changed()).isFalse();
    editor.put("a", "2");
    assertThat(editor.changed()).isTrue();
  }

  @Test
  void aDoneEditorRefusesFurtherEditsAndNullsAreRefused() {
    PersistentMap.Editor<String, String> editor = PersistentMap.<String, String>empty().edit();
    editor.put("a", "1");
    PersistentMap<String, String> done = editor.done();
    assertThatThrownBy(() -> editor.put("b", "2")).isInstanceOf(IllegalStateException.class);
    assertThat(done.asMap()).containsExactly(Map.entry("a", "1"));
    PersistentMap.Editor<String, String> next = done.edit();
    assertThatThrownBy(() -> next.put(null, "x")).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> next.put("x", null)).isInstanceOf(NullPointerException.class);
    assertThat(done.get(null)).isNull();
  }
}
