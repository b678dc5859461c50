package dev.cairn.recordwriter.ingress;

import static dev.cairn.recordwriter.ingress.GslbFromIngressPlan.DNS_TTL_SECONDS;
import static dev.cairn.recordwriter.ingress.GslbFromIngressPlan.EXPOSED_IPS;
import static dev.cairn.recordwriter.ingress.GslbFromIngressPlan.PRIMARY_GEO_TAG;
import static dev.cairn.recordwriter.ingress.GslbFromIngressPlan.STRATEGY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.recordwriter.ingress.GslbFromIngressPlan.Action;
import dev.cairn.recordwriter.ingress.LiveIngress.OwnerRef;
import dev.cairn.recordwriter.plan.ObjectKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GslbFromIngressPlanTest {

  private static final ObjectKey KEY = ObjectKey.of("shop", "storefront");
  private static final String INGRESS_UID = "9a2e77b1-ingress";
  private static final String GSLB_UID = "5f1c0d2e-gslb";
  private static final String VERSION = "1234";

  private static final OwnerRef INGRESS_CONTROLLER =
      new OwnerRef("networking.k8s.io/v1", "Ingress", "storefront", INGRESS_UID, true, true);
  private static final OwnerRef ARGO_APP =
      new OwnerRef("argoproj.io/v1alpha1", "Application", "shop", "argo-uid", false, false);

  private static LiveIngress ingress(Map<String, String> annotations, OwnerRef... owners) {
    return new LiveIngress(
        KEY, INGRESS_UID, "77", Map.of(), annotations, List.of(owners), Map.of(), null);
  }

  private static Map<String, String> annotated(String... keysAndValues) {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("kubernetes.io/ingress.class", "nginx");
    for (int i = 0; i < keysAndValues.length; i += 2) {
      a.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return a;
  }

  private static LiveGslbObject gslb(
      Map<String, Object> spec, Map<String, String> annotations, OwnerRef... owners) {
    return new LiveGslbObject(
        KEY, GSLB_UID, VERSION, Map.of("team", "shop"), annotations, List.of(owners), spec);
  }

  /** What the plan creates for roundRobin with the default TTL, as the API then shows it. */
  private static Map<String, Object> createdSpec(Number ttl) {
    Map<String, Object> strategy = new LinkedHashMap<>();
    strategy.put("type", "roundRobin");
    strategy.put("dnsTtlSeconds", ttl);
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put(
        "resourceRef",
        Map.of("apiVersion", "networking.k8s.io/v1", "kind", "Ingress", "name", "storefront"));
    spec.put("strategy", strategy);
    return spec;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> strategy(GslbFromIngressPlan plan) {
    return (Map<String, Object>) plan.body().spec().get("strategy");
  }

  // ---------------------------------------------------------------- nothing to do

  @Test
  void noIngressAndNoAnnotationPlanNothing() {
    assertThat(GslbFromIngressPlan.plan(KEY, null, null).action()).isEqualTo(Action.NONE);
    GslbFromIngressPlan plain = GslbFromIngressPlan.plan(KEY, ingress(annotated()), null);
    assertThat(plain.action()).isEqualTo(Action.NONE);
    assertThat(plain.detail()).contains("no k8gb.io/strategy annotation");
  }

  @Test
  void aGslbsOwnIngressIsNotTurnedIntoAnotherGslb() {
    OwnerRef gslbOwner = new OwnerRef("k8gb.io/v1beta1", "Gslb", "storefront", "g", true, true);

    GslbFromIngressPlan plan =
        GslbFromIngressPlan.plan(KEY, ingress(annotated(STRATEGY, "roundRobin"), gslbOwner), null);

    assertThat(plan.action()).isEqualTo(Action.NONE);
    assertThat(plan.detail()).contains("embedded ingress");
  }

  @Test
  void aGslbAsTheAnnotationsSayIsLeftAlone() {
    GslbFromIngressPlan plan =
        GslbFromIngressPlan.plan(
            KEY,
            ingress(annotated(STRATEGY, "roundRobin")),
            gslb(createdSpec(30L), Map.of(), INGRESS_CONTROLLER));

    assertThat(plan.action()).as(plan.detail()).isEqualTo(Action.NONE);
    assertThat(plan.writes()).isFalse();
  }

  // ---------------------------------------------------------------- create

  @Test
  void anAnnotatedIngressGetsAGslbItControls() {
    GslbFromIngressPlan plan =
        GslbFromIngressPlan.plan(KEY, ingress(annotated(STRATEGY, "roundRobin"), ARGO_APP), null);

    assertThat(plan.action()).isEqualTo(Action.CREATE);
    assertThat(plan.version()).isNull();
    assertThat(plan.body().spec()).isEqualTo(createdSpec(30));
    assertThat(plan.body().owners()).containsExactly(INGRESS_CONTROLLER);
    assertThat(plan.body().annotations()).isEmpty();
    assertThat(plan.body().labels()).isEmpty();
  }

  @Test
  void theTtlPrimaryAndExposedIpsComeFromTheAnnotations() {
    GslbFromIngressPlan plan =
        GslbFromIngressPlan.plan(
            KEY,
            ingress(
                annotated(
                    STRATEGY, "failover",
                    DNS_TTL_SECONDS, "10",
                    PRIMARY_GEO_TAG, "eu-west-1",
                    EXPOSED_IPS, "203.0.113.5")),
            null);

    assertThat(plan.action()).isEqualTo(Action.CREATE);
    assertThat(strategy(plan))
        .containsEntry("type", "failover")
        .containsEntry("dnsTtlSeconds", 10)
        .containsEntry("primaryGeoTag", "eu-west-1");
    assertThat(plan.body().annotations()).containsExactly(Map.entry(EXPOSED_IPS, "203.0.113.5"));
  }

  @ParameterizedTest(name = "TTL \"{0}\" is {1} s")
  @CsvSource(
      delimiter = '|',
      value = {"+15 | 15", "' 20 ' | 20", "0 | 0", "2147483647 | 2147483647"})
  void aTtlIsAWholeNumberAsGoParsesIt(String ttl, int seconds) {
    GslbFromIngressPlan plan =
        GslbFromIngressPlan.plan(
            KEY, ingress(annotated(STRATEGY, "geoip", DNS_TTL_SECONDS, ttl)), null);

    assertThat(strategy(plan)).containsEntry("dnsTtlSeconds", seconds);
  }

  // ---------------------------------------------------------------- invalid

  @ParameterizedTest(name = "{0}={1} is refused at {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "k8gb.io/strategy        | RoundRobin  | metadata.annotations[k8gb.io/strategy]",
        "k8gb.io/strategy        | ''          | metadata.annotations[k8gb.io/strategy]",
        "k8gb.io/strategy        | weighted    | metadata.annotations[k8gb.io/strategy]",
        "k8gb.io/dns-ttl-seconds | thirty      | metadata.annotations[k8gb.io/dns-ttl-seconds]",
        "k8gb.io/dns-ttl-seconds | -5          | metadata.annotations[k8gb.io/dns-ttl-seconds]",
        "k8gb.io/dns-ttl-seconds | 2147483648  | metadata.annotations[k8gb.io/dns-ttl-seconds]",
        "k8gb.io/dns-ttl-seconds | 1.5         | metadata.annotations[k8gb.io/dns-ttl-seconds]",
      })
  void annotationsThatCannotBeUsedWriteNothingAndNameTheAnnotation(
      String annotation, String value, String field) {
    Map<String, String> a = annotated(STRATEGY, "roundRobin");
    a.put(annotation, value);

    GslbFromIngressPlan plan =
        GslbFromIngressPlan.plan(
            KEY, ingress(a), gslb(createdSpec(30), Map.of(), INGRESS_CONTROLLER));

    assertThat(plan.action()).isEqualTo(Action.INVALID);
    assertThat(plan.writes()).isFalse();
    assertThat(plan.problem().field()).isEqualTo(field);
    assertThat(plan.problem().value()).isEqualTo(value);
    assertThat(plan.detail()).contains(field);
  }

  @Test
  void failoverNeedsAPrimary() {
    for (Map<String, String> a :
        List.of(
            annotated(STRATEGY, "failover"),
            annotated(STRATEGY, "failover", PRIMARY_GEO_TAG, " "))) {
      GslbFromIngressPlan plan = GslbFromIngressPlan.plan(KEY, ingress(a), null);

      assertThat(plan.action()).isEqualTo(Action.INVALID);
      assertThat(plan.problem().field()).isEqualTo("metadata.annotations[k8gb.io/primary-geotag]");
      assertThat(plan.problem().reason()).contains("required by the failover strategy");
    }
  }

  // ---------------------------------------------------------------- update

  @Test
  void anUpdateChangesOnlyWhatTheAnnotationsSay() {
    Map<String, Object> spec = createdSpec(30L);
    @SuppressWarnings("unchecked")
    Map<String, Object> s = (Map<String, Object>) spec.get("strategy");
    s.put("weight", Map.of("eu", 60L, "us", 40L));
    s.put("splitBrainThresholdSeconds", 600L);
    spec.put("serviceHealthPolicy", "All");
    spec.put("ingress", Map.of());
    LiveGslbObject live =
        gslb(spec, Map.of("team.example.com/contact", "shop@example.com"), INGRESS_CONTROLLER);

    GslbFromIngressPlan plan =
        GslbFromIngressPlan.plan(
            KEY, ingress(annotated(STRATEGY, "roundRobin", DNS_TTL_SECONDS, "5")), live);

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(plan.version()).isEqualTo(VERSION);
    assertThat(strategy(plan))
        .containsEntry("dnsTtlSeconds", 5)
        .containsEntry("weight", Map.of("eu", 60L, "us", 40L))
        .containsEntry("splitBrainThresholdSeconds", 600L);
    assertThat(plan.body().spec())
        .containsEntry("serviceHealthPolicy", "All")
        .doesNotContainKey("ingress");
    assertThat(plan.body().labels()).containsEntry("team", "shop");
    assertThat(plan.body().annotations())
        .containsEntry("team.example.com/contact", "shop@example.com");
  }

  @Test
  void aRemovedPrimaryOrExposedIpAnnotationIsRemovedFromTheGslb() {
    Map<String, Object> spec = createdSpec(30L);
    @SuppressWarnings("unchecked")
    Map<String, Object> s = (Map<String, Object>) spec.get("strategy");
    s.put("primaryGeoTag", "eu");
    LiveGslbObject live = gslb(spec, Map.of(EXPOSED_IPS, "203.0.113.5"), INGRESS_CONTROLLER);

    GslbFromIngressPlan plan =
        GslbFromIngressPlan.plan(KEY, ingress(annotated(STRATEGY, "roundRobin")), live);

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(strategy(plan)).doesNotContainKey("primaryGeoTag");
    assertThat(plan.body().annotations()).doesNotContainKey(EXPOSED_IPS);
  }

  @Test
  void aGslbOfARecreatedIngressFollowsTheNewIngress() {
    OwnerRef oldIngress =
        new OwnerRef("networking.k8s.io/v1", "Ingress", "storefront", "old-uid", true, true);

    GslbFromIngressPlan plan =
        GslbFromIngressPlan.plan(
            KEY,
            ingress(annotated(STRATEGY, "roundRobin")),
            gslb(createdSpec(30L), Map.of(), ARGO_APP, oldIngress));

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(plan.body().owners()).containsExactly(ARGO_APP, INGRESS_CONTROLLER);
  }

  // ---------------------------------------------------------------- conflict

  @Test
  void aGslbTheIngressDoesNotControlIsLeftAloneAndReported() {
    OwnerRef otherController =
        new OwnerRef("apps/v1", "Deployment", "storefront", "deploy-uid", true, true);
    for (LiveGslbObject live :
        List.of(
            gslb(createdSpec(30L), Map.of()),
            gslb(createdSpec(30L), Map.of(), ARGO_APP),
            gslb(createdSpec(30L), Map.of(), otherController))) {
      GslbFromIngressPlan plan =
          GslbFromIngressPlan.plan(
              KEY, ingress(annotated(STRATEGY, "failover", PRIMARY_GEO_TAG, "eu")), live);

      assertThat(plan.action()).isEqualTo(Action.CONFLICT);
      assertThat(plan.writes()).isFalse();
      assertThat(plan.problem().field()).isEqualTo("metadata.annotations[k8gb.io/strategy]");
      assertThat(plan.problem().reason())
          .contains("Gslb shop/storefront exists and this Ingress does not control it");
    }
  }
}
