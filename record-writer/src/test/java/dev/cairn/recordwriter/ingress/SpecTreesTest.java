package dev.cairn.recordwriter.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class SpecTreesTest {

  /** One rule routing {@code /} of the host to the storefront Service on that port. */
  static Map<String, Object> rule(String host, Number port) {
    return IngressTrees.rule(host, "storefront", port);
  }

  /** The Gslb's spec.ingress: one rule for app.cloud.example.com to port 80. */
  static Map<String, Object> spec(Number port) {
    return Map.of("rules", List.of(rule("app.cloud.example.com", port)));
  }

  /** A mutable copy of a map, one level deep. */
  static Map<String, Object> copy(Map<String, Object> m) {
    return new LinkedHashMap<>(m);
  }

  @Nested
  class Same {

    @Test
    void integerEqualsLong() {
      assertThat(SpecTrees.same(80, 80L)).isTrue();
      assertThat(SpecTrees.same(spec(80), spec(80L))).isTrue();
    }

    @Test
    void integerEqualsDoubleOfTheSameValue() {
      assertThat(SpecTrees.same(80, 80.0d)).isTrue();
      assertThat(SpecTrees.same(80, 80.5d)).isFalse();
    }

    @Test
    void differentNumbersDiffer() {
      assertThat(SpecTrees.same(spec(80), spec(8080L))).isFalse();
    }

    @Test
    void numberDiffersFromItsString() {
      assertThat(SpecTrees.same(80, "80")).isFalse();
    }

    @Test
    void mapsInAnotherOrderAreTheSame() {
      Map<String, Object> a = new LinkedHashMap<>();
      a.put("ingressClassName", "nginx");
      a.put("rules", List.of(rule("app.cloud.example.com", 80)));
      Map<String, Object> b = new LinkedHashMap<>();
      b.put("rules", List.of(rule("app.cloud.example.com", 80L)));
      b.put("ingressClassName", "nginx");

      assertThat(SpecTrees.same(a, b)).isTrue();
    }

    @Test
    void mapsOfDifferentSizeDiffer() {
      Map<String, Object> bigger = copy(spec(80));
      bigger.put("ingressClassName", "nginx");

      assertThat(SpecTrees.same(spec(80), bigger)).isFalse();
      assertThat(SpecTrees.same(bigger, spec(80))).isFalse();
    }

    @Test
    void mapsWithOtherKeysOfTheSameSizeDiffer() {
      assertThat(SpecTrees.same(Map.of("a", 1), Map.of("b", 1))).isFalse();
    }

    @Test
    void aNullValueDiffersFromAnAbsentKey() {
      Map<String, Object> withNull = new LinkedHashMap<>();
      withNull.put("tls", null);

      assertThat(SpecTrees.same(withNull, Map.of("rules", List.of()))).isFalse();
      assertThat(SpecTrees.same(withNull, new LinkedHashMap<>(withNull))).isTrue();
    }

    @Test
    void nestedListOrderMatters() {
      Map<String, Object> ab =
          Map.of(
              "rules",
              List.of(rule("app.cloud.example.com", 80), rule("shop.cloud.example.com", 80)));
      Map<String, Object> ba =
          Map.of(
              "rules",
              List.of(rule("shop.cloud.example.com", 80), rule("app.cloud.example.com", 80)));

      assertThat(SpecTrees.same(ab, ba)).isFalse();
      assertThat(SpecTrees.same(ab, ab)).isTrue();
    }

    @Test
    void listsOfDifferentLengthDiffer() {
      Map<String, Object> two =
          Map.of(
              "rules",
              List.of(rule("app.cloud.example.com", 80), rule("app.cloud.example.com", 80)));

      assertThat(SpecTrees.same(spec(80), two)).isFalse();
    }

    @Test
    void mapDiffersFromListAndScalar() {
      assertThat(SpecTrees.same(spec(80), List.of(spec(80)))).isFalse();
      assertThat(SpecTrees.same(spec(80), "rules")).isFalse();
      assertThat(SpecTrees.same(spec(80), null)).isFalse();
      assertThat(SpecTrees.same(null, spec(80))).isFalse();
    }

    @Test
    void nullEqualsNull() {
      assertThat(SpecTrees.same(null, null)).isTrue();
    }
  }

  @Nested
  class Covers {

    @Test
    void liveWithAnExtraFieldCoversDesired() {
      Map<String, Object> live = copy(spec(80L));
      live.put("ingressClassName", "nginx");

      assertThat(SpecTrees.covers(live, spec(80))).isTrue();
    }

    @Test
    void extraFieldsDeepInsideListItemsDoNotCount() {
      Map<String, Object> path = new LinkedHashMap<>();
      path.put("path", "/");
      path.put("pathType", "Prefix");
      path.put(
          "backend",
          Map.of("service", Map.of("name", "storefront", "port", Map.of("number", 80L))));
      path.put("extra", "set by a webhook");
      Map<String, Object> live =
          Map.of(
              "rules",
              List.of(
                  Map.of("host", "app.cloud.example.com", "http", Map.of("paths", List.of(path)))));

      assertThat(SpecTrees.covers(live, spec(80))).isTrue();
    }

    @Test
    void aDifferingValueFails() {
      Map<String, Object> live = copy(spec(8080));
      live.put("ingressClassName", "nginx");

      assertThat(SpecTrees.covers(live, spec(80))).isFalse();
    }

    @Test
    void aDifferingHostFails() {
      Map<String, Object> live = Map.of("rules", List.of(rule("evil.example.com", 80)));

      assertThat(SpecTrees.covers(live, spec(80))).isFalse();
    }

    @Test
    void aMissingFieldFails() {
      Map<String, Object> desired = copy(spec(80));
      desired.put("ingressClassName", "nginx");

      assertThat(SpecTrees.covers(spec(80), desired)).isFalse();
    }

    @Test
    void aListOfAnotherLengthFails() {
      Map<String, Object> longer =
          Map.of(
              "rules",
              List.of(rule("app.cloud.example.com", 80), rule("shop.cloud.example.com", 80)));

      assertThat(SpecTrees.covers(longer, spec(80))).isFalse();
      assertThat(SpecTrees.covers(spec(80), longer)).isFalse();
    }

    @Test
    void listItemsAreComparedInOrder() {
      Map<String, Object> ab =
          Map.of(
              "rules",
              List.of(rule("app.cloud.example.com", 80), rule("shop.cloud.example.com", 80)));
      Map<String, Object> ba =
          Map.of(
              "rules",
              List.of(rule("shop.cloud.example.com", 80), rule("app.cloud.example.com", 80)));

      assertThat(SpecTrees.covers(ab, ba)).isFalse();
    }

    @Test
    void aDesiredNullRequiresLiveNullOrAbsent() {
      Map<String, Object> desired = copy(spec(80));
      desired.put("ingressClassName", null);

      Map<String, Object> liveAbsent = copy(spec(80));
      Map<String, Object> liveNull = copy(spec(80));
      liveNull.put("ingressClassName", null);
      Map<String, Object> liveSet = copy(spec(80));
      liveSet.put("ingressClassName", "nginx");

      assertThat(SpecTrees.covers(liveAbsent, desired)).isTrue();
      assertThat(SpecTrees.covers(liveNull, desired)).isTrue();
      assertThat(SpecTrees.covers(liveSet, desired)).isFalse();
    }

    @Test
    void aMapIsNotCoveredByAListOrNothing() {
      assertThat(SpecTrees.covers(null, spec(80))).isFalse();
      assertThat(SpecTrees.covers(List.of(spec(80)), spec(80))).isFalse();
      assertThat(SpecTrees.covers(Map.of("rules", "app.cloud.example.com"), spec(80))).isFalse();
    }

    @Test
    void anEmptyDesiredMapIsCoveredByAnyMap() {
      assertThat(SpecTrees.covers(spec(80), Map.of())).isTrue();
    }

    @Test
    void scalarsCompareAsNumbers() {
      assertThat(SpecTrees.covers(80L, 80)).isTrue();
      assertThat(SpecTrees.covers("nginx", "nginx")).isTrue();
      assertThat(SpecTrees.covers("nginx", "traefik")).isFalse();
    }
  }

  @Nested
  class ThreeWay {

    @Test
    void aFieldSetByOthersIsKept() {
      Map<String, Object> live = copy(spec(80L));
      live.put("ingressClassName", "nginx");

      Object merged = SpecTrees.threeWay(live, spec(80), spec(80));

      assertThat(merged)
          .isEqualTo(Map.of("ingressClassName", "nginx", "rules", spec(80).get("rules")));
    }

    @Test
    void aFieldInLastAppliedButNotDesiredIsRemoved() {
      List<Object> tls =
          List.of(Map.of("hosts", List.of("app.cloud.example.com"), "secretName", "app-tls"));
      Map<String, Object> lastApplied = copy(spec(80));
      lastApplied.put("tls", tls);
      Map<String, Object> live = copy(lastApplied);
      live.put("ingressClassName", "nginx");

      Object merged = SpecTrees.threeWay(live, lastApplied, spec(80));

      assertThat(merged)
          .asInstanceOf(MAP)
          .doesNotContainKey("tls")
          .containsEntry("ingressClassName", "nginx")
          .containsEntry("rules", spec(80).get("rules"));
    }

    @Test
    void aNullLastAppliedKeepsEveryLiveOnlyField() {
      List<Object> tls =
          List.of(Map.of("hosts", List.of("app.cloud.example.com"), "secretName", "app-tls"));
      Map<String, Object> live = copy(spec(80L));
      live.put("tls", tls);
      live.put("ingressClassName", "nginx");

      Object merged = SpecTrees.threeWay(live, null, spec(80));

      assertThat(merged)
          .isEqualTo(
              Map.of("ingressClassName", "nginx", "tls", tls, "rules", spec(80).get("rules")));
    }

    @Test
    void desiredValuesWin() {
      Map<String, Object> live = copy(spec(8080));
      live.put("ingressClassName", "nginx");
      Map<String, Object> desired = copy(spec(80));
      desired.put("ingressClassName", "traefik");

      Object merged = SpecTrees.threeWay(live, spec(8080), desired);

      assertThat(merged)
          .isEqualTo(Map.of("ingressClassName", "traefik", "rules", spec(80).get("rules")));
    }

    @Test
    void listsAreReplacedWhole() {
      Map<String, Object> livePath = new LinkedHashMap<>();
      livePath.put("path", "/");
      livePath.put("pathType", "Prefix");
      livePath.put(
          "backend", Map.of("service", Map.of("name", "storefront", "port", Map.of("number", 80))));
      livePath.put("extra", "set by a webhook");
      Map<String, Object> live =
          Map.of(
              "rules",
              List.of(
                  Map.of(
                      "host", "app.cloud.example.com", "http", Map.of("paths", List.of(livePath))),
                  rule("old.cloud.example.com", 80)));

      Object merged = SpecTrees.threeWay(live, null, spec(80));

      // no item of the live list survives, not even its extra field
      assertThat(merged).isEqualTo(spec(80));
    }

    @Test
    void nestedMapsAreMergedRecursively() {
      Map<String, Object> liveBackend = new LinkedHashMap<>();
      liveBackend.put("service", Map.of("name", "storefront", "port", Map.of("number", 80)));
      liveBackend.put("resource", Map.of("kind", "StorageBucket", "name", "assets"));
      Map<String, Object> live = new LinkedHashMap<>();
      live.put("defaultBackend", liveBackend);
      live.put("ingressClassName", "nginx");
      Map<String, Object> lastApplied =
          Map.of(
              "defaultBackend",
              Map.of("service", Map.of("name", "storefront", "port", Map.of("number", 80))));
      Map<String, Object> desired =
          Map.of(
              "defaultBackend",
              Map.of("service", Map.of("name", "storefront-v2", "port", Map.of("number", 8080))));

      Object merged = SpecTrees.threeWay(live, lastApplied, desired);

      assertThat(merged)
          .isEqualTo(
              Map.of(
                  "ingressClassName",
                  "nginx",
                  "defaultBackend",
                  Map.of(
                      "resource",
                      Map.of("kind", "StorageBucket", "name", "assets"),
                      "service",
                      Map.of("name", "storefront-v2", "port", Map.of("number", 8080)))));
    }

    @Test
    void nestedFieldsOnceAppliedAreRemovedInsideMaps() {
      Map<String, Object> live =
          Map.of(
              "defaultBackend",
              Map.of(
                  "service",
                  Map.of("name", "storefront", "port", Map.of("number", 80, "name", "http"))));
      Map<String, Object> lastApplied = live;
      Map<String, Object> desired =
          Map.of(
              "defaultBackend",
              Map.of("service", Map.of("name", "storefront", "port", Map.of("number", 80))));

      assertThat(SpecTrees.threeWay(live, lastApplied, desired)).isEqualTo(desired);
    }

    @Test
    void aMissingLiveTreeGivesDesired() {
      assertThat(SpecTrees.threeWay(null, null, spec(80))).isEqualTo(spec(80));
      assertThat(SpecTrees.threeWay(List.of(), spec(80), spec(80))).isEqualTo(spec(80));
    }

    @Test
    void theMergeCoversDesired() {
      Map<String, Object> live = copy(spec(8080L));
      live.put("ingressClassName", "nginx");

      Object merged = SpecTrees.threeWay(live, spec(8080), spec(80));

      assertThat(SpecTrees.covers(merged, spec(80))).isTrue();
    }

    @Test
    void doesNotModifyItsInputs() {
      Map<String, Object> live = copy(spec(80L));
      live.put("ingressClassName", "nginx");
      live.put("tls", new ArrayList<>(Arrays.asList("x")));
      Map<String, Object> before = new LinkedHashMap<>(live);
      Map<String, Object> lastApplied = copy(spec(80));
      lastApplied.put("tls", List.of("x"));

      SpecTrees.threeWay(live, lastApplied, spec(80));

      assertThat(live).isEqualTo(before);
    }
  }
}
