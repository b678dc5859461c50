package dev.cairn.topologywatcher.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GslbNormalizerTest {

  private static final Meta META =
      new Meta(
          "shop",
          "web",
          "uid",
          Map.of(),
          Map.of("k8gb.io/exposed-ip-addresses", "203.0.113.1", "other.io/x", "y"));

  private static Map<String, Object> ingressSpec(Object strategy) {
    return Map.of(
        "ingress",
        Map.of(
            "rules",
            List.of(
                Map.of(
                    "host",
                    "app.cloud.example.com",
                    "http",
                    Map.of(
                        "paths",
                        List.of(
                            Map.of(
                                "path",
                                "/",
                                "backend",
                                Map.of(
                                    "service",
                                    Map.of("name", "web", "port", Map.of("number", 80)))),
                            Map.of(
                                "path",
                                "/api",
                                "backend",
                                Map.of(
                                    "service",
                                    Map.of("name", "api", "port", Map.of("name", "http"))))))))),
        "strategy",
        strategy);
  }

  @Test
  void readsEmbeddedIngressRulesAndTheStrategyAsWritten() {
    GslbState gslb =
        GslbNormalizer.normalize(
            META,
            ingressSpec(
                Map.of(
                    "type",
                    "roundRobin",
                    "dnsTtlSeconds",
                    0,
                    "weight",
                    Map.of("eu", 60, "us", 40))));

    assertThat(gslb.ref().key()).isEqualTo("Gslb/shop/web");
    assertThat(gslb.resourceRef()).isNull();
    assertThat(gslb.ingressRules()).hasSize(1);
    assertThat(gslb.ingressRules().get(0).host()).isEqualTo("app.cloud.example.com");
    assertThat(gslb.ingressRules().get(0).backends())
        .containsExactly(
            new BackendRef(null, null, null, "web", 80, null),
            new BackendRef(null, null, null, "api", null, null));
    assertThat(gslb.strategy().type()).isEqualTo("roundRobin");
    assertThat(gslb.strategy().dnsTtlSeconds()).isZero();
    assertThat(gslb.strategy().weight()).containsExactly(Map.entry("eu", 60), Map.entry("us", 40));
    assertThat(gslb.serviceHealthPolicy()).isNull();
    assertThat(gslb.annotations()).containsOnlyKeys("k8gb.io/exposed-ip-addresses");
    assertThat(gslb.problems()).isEmpty();
  }

  @Test
  void keepsCairnsHttpRouteTargetsAnnotationAndNamesABadValue() {
    Map<String, Object> spec = ingressSpec(Map.of("type", "roundRobin"));
    GslbState good =
        GslbNormalizer.normalize(
            new Meta(
                "shop",
                "web",
                "uid",
                Map.of(),
                Map.of("cairn.dev/http-route-targets", " Gateway", "cairn.dev/other", "x")),
            spec);
    GslbState bad =
        GslbNormalizer.normalize(
            new Meta("shop", "web", "uid", Map.of(), Map.of("cairn.dev/http-route-targets", "lb")),
            spec);

    assertThat(good.annotations())
        .containsOnly(Map.entry("cairn.dev/http-route-targets", " Gateway"));
    assertThat(good.problems()).isEmpty();
    assertThat(bad.annotations()).containsOnly(Map.entry("cairn.dev/http-route-targets", "lb"));
    assertThat(bad.problems())
        .containsExactly(
            new Problem(
                "metadata.annotations[cairn.dev/http-route-targets]",
                "lb",
                "must be node-aware or gateway"));
  }

  @Test
  void readsAResourceRefWithASelector() {
    GslbState gslb =
        GslbNormalizer.normalize(
            META,
            Map.of(
                "resourceRef",
                Map.of(
                    "apiVersion",
                    "gateway.networking.k8s.io/v1",
                    "kind",
                    "HTTPRoute",
                    "matchLabels",
                    Map.of("app", "web"),
                    "matchExpressions",
                    List.of(Map.of("key", "tier", "operator", "In", "values", List.of("a", "b")))),
                "strategy",
                Map.of("type", "failover", "primaryGeoTag", "eu"),
                "serviceHealthPolicy",
                "All"));

    assertThat(gslb.resourceRef())
        .isEqualTo(
            new GslbResourceRef(
                "gateway.networking.k8s.io/v1",
                "HTTPRoute",
                null,
                null,
                Map.of("app", "web"),
                List.of(
                    new GslbResourceRef.LabelSelectorRequirement(
                        "tier", "In", List.of("a", "b")))));
    assertThat(gslb.serviceHealthPolicy()).isEqualTo("All");
    assertThat(gslb.problems()).isEmpty();
  }

  @Test
  void aSelectorTermKubernetesWouldRejectIsNamedAndLeftOut() {
    GslbState gslb =
        GslbNormalizer.normalize(
            META,
            Map.of(
                "resourceRef",
                Map.of(
                    "apiVersion",
                    "networking.k8s.io/v1",
                    "kind",
                    "Ingress",
                    "matchLabels",
                    Map.of("app", "web"),
                    "matchExpressions",
                    List.of(
                        Map.of("key", "tier", "operator", "In"),
                        Map.of("key", "canary", "operator", "DoesNotExist", "values", List.of("x")),
                        Map.of("key", "zone", "operator", "Exists"))),
                "strategy",
                Map.of("type", "roundRobin")));

    assertThat(gslb.resourceRef().matchExpressions())
        .containsExactly(new GslbResourceRef.LabelSelectorRequirement("zone", "Exists", List.of()));
    assertThat(gslb.problems())
        .extracting(Problem::field)
        .containsExactly(
            "spec.resourceRef.matchExpressions[0].values",
            "spec.resourceRef.matchExpressions[1].values");
  }

  @Test
  void namesWhatK8gbWouldRejectAndFieldsOfTheWrongType() {
    GslbState gslb =
        GslbNormalizer.normalize(
            META,
            Map.of(
                "resourceRef",
                Map.of("kind", "Ingress"),
                "strategy",
                Map.of(
                    "type", "random",
                    "dnsTtlSeconds", "thirty",
                    "primaryGeoTag", "eu west",
                    "weight", Map.of("eu", 2000, "us_east", 5)),
                "serviceHealthPolicy",
                "Most"));

    assertThat(gslb.strategy().type()).isEqualTo("random");
    assertThat(gslb.strategy().dnsTtlSeconds()).isNull();
    assertThat(gslb.strategy().weight()).isEmpty();
    assertThat(gslb.problems())
        .extracting(Problem::field)
        .containsExactlyInAnyOrder(
            "spec.resourceRef",
            "spec.strategy.type",
            "spec.strategy.dnsTtlSeconds",
            "spec.strategy.primaryGeoTag",
            "spec.strategy.weight[eu]",
            "spec.strategy.weight[us_east]",
            "spec.serviceHealthPolicy");
  }

  @Test
  void namesWeightsOnAnotherStrategyWithTheWeightsAsTheEngineRendersThem() {
    GslbState gslb =
        GslbNormalizer.normalize(
            META,
            Map.of(
                "resourceRef",
                Map.of("apiVersion", "networking.k8s.io/v1", "kind", "Ingress", "name", "app"),
                "strategy",
                Map.of(
                    "type",
                    "failover",
                    "primaryGeoTag",
                    "eu",
                    "weight",
                    Map.of("us", 30, "eu", 70))));

    // The strategy-engine reports the same rule with this field and value; the two are one problem.
    assertThat(gslb.problems())
        .containsExactly(
            new Problem(
                "spec.strategy.weight",
                String.valueOf(gslb.strategy().weight()),
                "weights are only allowed with the roundRobin strategy, not failover"));
    assertThat(gslb.problems().get(0).value()).isEqualTo("{eu=70, us=30}");
  }

  @Test
  void namesAMissingStrategyAndNothingToBalance() {
    GslbState gslb = GslbNormalizer.normalize(META, null);

    assertThat(gslb.strategy()).isNull();
    assertThat(gslb.problems()).extracting(Problem::field).containsExactly("spec", "spec.strategy");
  }

  @Test
  void leavesOutIngressRulesWithoutOrWithABadHost() {
    GslbState gslb =
        GslbNormalizer.normalize(
            META,
            Map.of(
                "ingress",
                Map.of(
                    "rules",
                    List.of(Map.of("http", Map.of()), Map.of("host", "a b.example.com"), "x")),
                "strategy",
                Map.of("type", "failover")));

    assertThat(gslb.ingressRules()).isEmpty();
    assertThat(gslb.problems())
        .extracting(Problem::field)
        .containsExactly(
            "spec.ingress.rules[0].host",
            "spec.ingress.rules[1].host",
            "spec.ingress.rules[2]",
            "spec.ingress.rules[2].host",
            "spec");
  }
}
