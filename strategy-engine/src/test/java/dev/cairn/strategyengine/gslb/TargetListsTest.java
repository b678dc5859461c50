package dev.cairn.strategyengine.gslb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TargetListsTest {

  @Test
  void sortsAndDropsDuplicatesLikeATreeSet() {
    Random random = new Random(7);
    for (int i = 0; i < 2_000; i++) {
      int count = random.nextInt(8);
      String[] items = new String[count + 2];
      List<String> copy = new ArrayList<>();
      for (int j = 0; j < count; j++) {
        items[j] = "198.51.100." + random.nextInt(5);
        copy.add(items[j]);
      }
      List<String> sorted = TargetLists.sortedDistinct(items, count);
      assertThat(sorted).isEqualTo(List.copyOf(new TreeSet<>(copy)));
      assertThatThrownBy(() -> sorted.add("x")).isInstanceOf(UnsupportedOperationException.class);
    }
  }

  @Test
  void keepsAListThatIsSortedAlready() {
    List<String> sorted = List.of("192.0.2.1", "192.0.2.2");
    assertThat(TargetLists.sortedDistinct(sorted)).isSameAs(sorted);
    assertThat(TargetLists.sortedDistinct(List.of("b", "a", "b"))).containsExactly("a", "b");
  }

  @Test
  void concatenatesWithoutCopyingAnEmptySide() {
    List<String> a = List.of("a");
    assertThat(TargetLists.concat(a, List.of())).isSameAs(a);
    assertThat(TargetLists.concat(List.of(), a)).isSameAs(a);
    assertThat(TargetLists.concat(a, List.of("b", "c"))).containsExactly("a", "b", "c");
  }

  @Test
  void copiesShortListsUnmodifiably() {
    for (int size = 0; size < 5; size++) {
      List<Integer> list = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        list.add(i);
      }
      List<Integer> copy = TargetLists.immutable(list);
      list.add(99);
      assertThat(copy).hasSize(size);
      assertThatThrownBy(() -> copy.add(1)).isInstanceOf(UnsupportedOperationException.class);
    }
  }
}
