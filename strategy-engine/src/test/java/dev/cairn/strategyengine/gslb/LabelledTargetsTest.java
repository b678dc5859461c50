package dev.cairn.strategyengine.gslb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LabelledTargetsTest {

  @Test
  void answersLikeASetBeforeAndAfterItGrowsIntoOne() {
    Random random = new Random(11);
    for (int run = 0; run < 200; run++) {
      LabelledTargets labelled = new LabelledTargets();
      Set<String> expected = new HashSet<>();
      for (int i = 0; i < 60; i++) {
        String target = "2001:db8::" + random.nextInt(40);
        assertThat(labelled.add(target)).as(target).isEqualTo(expected.add(target));
      }
    }
  }
}
