package dev.cairn.commonmodel.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.commonmodel.topology.GslbResourceRef.LabelSelectorRequirement;
import dev.cairn.commonmodel.validation.Problem;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LabelSelectorsTest {

  private static GslbResourceRef ref(
      Map<String, String> matchLabels, List<LabelSelectorRequirement> expressions) {
    return new GslbResourceRef(
        "networking.k8s.io/v1", "Ingress", null, null, matchLabels, expressions);
  }

  private static LabelSelectorRequirement expr(String key, String operator, String... values) {
    return new LabelSelectorRequirement(key, operator, List.of(values));
  }

  @Test
  void matchLabelsNeedsEveryPairWithItsValue() {
    GslbResourceRef ref = ref(Map.of("app", "web", "tier", "front"), List.of());

    assertThat(LabelSelectors.matches(ref, Map.of("app", "web", "tier", "front", "x", "y")))
        .isTrue();
    assertThat(LabelSelectors.matches(ref, Map.of("app", "web"))).isFalse();
    assertThat(LabelSelectors.matches(ref, Map.of("app", "web", "tier", "back"))).isFalse();
    assertThat(LabelSelectors.matches(ref, Map.of())).isFalse();
  }

  @ParameterizedTest(name = "{0} {1} [{2}] on {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        // operator | values | labels (k=v;...) | expected
        "In           | a,b | tier=a       | true",
        "In           | a,b | tier=c       | false",
        "In           | a,b | other=a      | false",
        "NotIn        | a,b | tier=c       | true",
        "NotIn        | a,b | tier=a       | false",
        "NotIn        | a,b | other=a      | true",
        "Exists       |     | tier=        | true",
        "Exists       |     | other=x      | false",
        "DoesNotExist |     | other=x      | true",
        "DoesNotExist |     | tier=x       | false",
      })
  void everyOperatorHasKubernetesMeaning(
      String operator, String values, String labels, boolean expected) {
    String[] vs = values == null ? new String[0] : values.split(",");
    GslbResourceRef ref = ref(Map.of(), List.of(expr("tier", operator, vs)));

    assertThat(LabelSelectors.matches(ref, labels(labels))).isEqualTo(expected);
  }

  @Test
  void matchLabelsAndExpressionsMustAllHold() {
    GslbResourceRef ref =
        ref(Map.of("app", "web"), List.of(expr("canary", "DoesNotExist"), expr("tier", "Exists")));

    assertThat(LabelSelectors.matches(ref, labels("app=web;tier=a"))).isTrue();
    assertThat(LabelSelectors.matches(ref, labels("app=web;tier=a;canary=yes"))).isFalse();
    assertThat(LabelSelectors.matches(ref, labels("app=api;tier=a"))).isFalse();
  }

  @Test
  void anUnknownOperatorSelectsNothing() {
    GslbResourceRef ref = ref(Map.of(), List.of(expr("tier", "Gt", "1")));

    assertThat(LabelSelectors.matches(ref, labels("tier=2"))).isFalse();
  }

  @Test
  void selectReturnsTheMatchesSortedByName() {
    record Obj(String name, Map<String, String> labels) {}
    List<Obj> objects =
        List.of(
            new Obj("zeta", Map.of("app", "web")),
            new Obj("alpha", Map.of("app", "web")),
            new Obj("mid", Map.of("app", "api")));

    List<Obj> selected =
        LabelSelectors.select(
            ref(Map.of("app", "web"), List.of()), objects, Obj::labels, Obj::name);

    assertThat(selected).extracting(Obj::name).containsExactly("alpha", "zeta");
    assertThat(
            LabelSelectors.select(
                ref(Map.of("app", "db"), List.of()), objects, Obj::labels, Obj::name))
        .isEmpty();
  }

  @Test
  void selectsByLabelsOnlyWithoutANameAndWithASelector() {
    assertThat(LabelSelectors.selectsByLabels(ref(Map.of("app", "web"), List.of()))).isTrue();
    assertThat(LabelSelectors.selectsByLabels(ref(Map.of(), List.of(expr("a", "Exists")))))
        .isTrue();
    assertThat(LabelSelectors.selectsByLabels(ref(Map.of(), List.of()))).isFalse();
    assertThat(
            LabelSelectors.selectsByLabels(
                new GslbResourceRef("v1", "Service", null, "web", Map.of("app", "web"), null)))
        .isFalse();
    assertThat(LabelSelectors.selectsByLabels(null)).isFalse();
  }

  @Test
  void checkNamesTheFieldOfEachProblem() {
    String f = "spec.resourceRef.matchExpressions[1]";

    assertThat(LabelSelectors.check(f, "tier", "In", List.of("a"))).isEmpty();
    assertThat(LabelSelectors.check(f, "tier", "Exists", List.of())).isEmpty();
    assertThat(LabelSelectors.check(f, "tier", "In", List.of()))
        .extracting(Problem::field)
        .containsExactly(f + ".values");
    assertThat(LabelSelectors.check(f, "tier", "DoesNotExist", List.of("a")))
        .extracting(Problem::field, Problem::value)
        .containsExactly(tuple(f + ".values", "[a]"));
    assertThat(LabelSelectors.check(f, "tier", "Gt", List.of("1")))
        .extracting(Problem::field, Problem::value)
        .containsExactly(tuple(f + ".operator", "Gt"));
    assertThat(LabelSelectors.check(f, "", "Exists", null))
        .extracting(Problem::field)
        .containsExactly(f + ".key");
  }

  @Test
  void describeListsPairsThenExpressions() {
    GslbResourceRef ref =
        ref(Map.of("app", "web"), List.of(expr("tier", "In", "a", "b"), expr("canary", "Exists")));

    assertThat(LabelSelectors.describe(ref)).isEqualTo("app=web, tier In [a, b], canary Exists");
  }

  private static Map<String, String> labels(String text) {
    Map<String, String> m = new HashMap<>();
    for (String pair : text.split(";")) {
      String[] kv = pair.split("=", -1);
      m.put(kv[0], kv[1]);
    }
    return m;
  }
}
