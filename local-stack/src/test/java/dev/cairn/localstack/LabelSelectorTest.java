package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class LabelSelectorTest {

  private static final AttributeSet GOLD_EU =
      new AttributeSet(
          new Attribute("labels:tier", "gold"),
          new Attribute("labels:region", "eu"),
          new Attribute("labels:app.kubernetes.io/name", "cairn"));
  private static final AttributeSet UNLABELLED = new AttributeSet(new Attribute("name", "x"));

  @Test
  void matchesEqualityAndExistenceRequirements() {
    assertThat(selects("tier=gold,region==eu", GOLD_EU)).isTrue();
    assertThat(selects("tier=silver", GOLD_EU)).isFalse();
    assertThat(selects("tier!=silver", GOLD_EU)).isTrue();
    assertThat(selects("tier!=silver", UNLABELLED)).isTrue();
    assertThat(selects("app.kubernetes.io/name", GOLD_EU)).isTrue();
    assertThat(selects("!app.kubernetes.io/name", GOLD_EU)).isFalse();
    assertThat(selects("!tier", UNLABELLED)).isTrue();
  }

  @Test
  void matchesSetRequirementsThatFabric8Ignores() {
    assertThat(selects("tier in (silver, gold),region", GOLD_EU)).isTrue();
    assertThat(selects("tier in (silver,bronze)", GOLD_EU)).isFalse();
    assertThat(selects("tier in (gold)", UNLABELLED)).isFalse();
    assertThat(selects("region notin (us,ap)", GOLD_EU)).isTrue();
    assertThat(selects("region notin (eu)", GOLD_EU)).isFalse();
    assertThat(selects("region notin (eu)", UNLABELLED)).isTrue();
  }

  @Test
  void anEmptySelectorSelectsEverything() {
    assertThat(LabelSelector.parse("")).isEmpty();
    assertThat(LabelSelector.parse(" , ")).isEmpty();
  }

  @Test
  void rejectsWhatIsNotALabelRequirementNamingIt() {
    assertThatThrownBy(() -> LabelSelector.parse("tier=gold,tier in gold"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"tier in gold\"");
    assertThatThrownBy(() -> LabelSelector.parse("tier in (gold"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LabelSelector.parse("tier in (go ld)"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static boolean selects(String selector, AttributeSet object) {
    List<Attribute> requirements = LabelSelector.parse(selector);
    return object.matches(new AttributeSet(requirements));
  }
}
