package dev.cairn.strategyengine.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@link ReverseIndex}: who depends on an input, as dependents gain and lose inputs. */
class ReverseIndexTest {

  private final ReverseIndex index = new ReverseIndex();

  @Test
  void anInputNoOneReadsHasNoDependents() {
    assertThat(index.dependents("Service/shop/web")).isEmpty();
  }

  @Test
  void dependentsAreListedInKeyOrderAndFollowTheirInputs() {
    index.replace("Gslb/shop/b", Set.of(), Set.of("Service/shop/web", "app|us"));
    index.replace("Gslb/shop/a", Set.of(), Set.of("Service/shop/web"));

    assertThat(index.dependents("Service/shop/web")).containsExactly("Gslb/shop/a", "Gslb/shop/b");
    assertThat(index.dependents("app|us")).containsExactly("Gslb/shop/b");

    index.replace("Gslb/shop/b", Set.of("Service/shop/web", "app|us"), Set.of("app|us", "app|eu"));

    assertThat(index.dependents("Service/shop/web")).containsExactly("Gslb/shop/a");
    assertThat(index.dependents("app|us")).containsExactly("Gslb/shop/b");
    assertThat(index.dependents("app|eu")).containsExactly("Gslb/shop/b");

    index.replace("Gslb/shop/a", Set.of("Service/shop/web"), Set.of());
    index.replace("Gslb/shop/b", Set.of("app|us", "app|eu"), Set.of());

    assertThat(index.dependents("Service/shop/web")).isEmpty();
    assertThat(index.dependents("app|us")).isEmpty();
    assertThat(index.dependents("app|eu")).isEmpty();
  }

  @Test
  void losingAnInputItNeverHadOrGainingOneTwiceChangesNothing() {
    index.replace("Gslb/shop/a", Set.of(), Set.of("app|us"));
    index.replace("Gslb/shop/a", Set.of(), Set.of("app|us"));
    index.replace("Gslb/shop/b", Set.of("app|us"), Set.of());

    assertThat(index.dependents("app|us")).containsExactly("Gslb/shop/a");
  }

  @Test
  void agreesWithASetPerInputOverRandomChanges() {
    Random random = new Random(11);
    Map<String, Set<String>> inputsOf = new HashMap<>();
    for (int step = 0; step < 20_000; step++) {
      String dependent = "Gslb/ns/g" + random.nextInt(40);
      Set<String> next = new HashSet<>();
      int count = random.nextInt(4);
      for (int i = 0; i < count; i++) {
        next.add("input-" + random.nextInt(12));
      }
      Set<String> old = inputsOf.getOrDefault(dependent, Set.of());
      index.replace(dependent, old, next);
      inputsOf.put(dependent, next);

      if (step % 97 == 0) {
        for (int i = 0; i < 12; i++) {
          String input = "input-" + i;
          TreeSet<String> expected = new TreeSet<>();
          inputsOf.forEach(
              (who, inputs) -> {
                if (inputs.contains(input)) {
                  expected.add(who);
                }
              });
          assertThat(index.dependents(input)).isEqualTo(List.copyOf(expected));
        }
      }
    }
  }
}
