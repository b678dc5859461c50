package dev.cairn.recordwriter.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.recordwriter.ingress.IngressPlan.Action;
import dev.cairn.recordwriter.ingress.IngressPlan.Body;
import dev.cairn.recordwriter.ingress.LiveIngress.OwnerRef;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Ownership;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class IngressPlanTest {

  private static final ObjectKey KEY = ObjectKey.of("shop", "storefront");
  private static final String GSLB_UID = "5f1c0d2e-gslb";
  private static final String INGRESS_UID = "9a2e77b1-ingress";
  private static final String VERSION = "1234";

  private static final OwnerRef ARGO_APP =
      new OwnerRef("argoproj.io/v1alpha1", "Application", "shop", "argo-uid", false, false);
  private static final OwnerRef DEPLOYMENT =
      new OwnerRef("apps/v1", "Deployment", "storefront", "deploy-uid", true, true);

  private static final String LAST_APPLIED_JSON =
      "{\"rules\":[{\"host\":\"app.cloud.example.com\"}]}";
  private static final String CONTACT_ANNOTATION = "team.example.com/contact";

  // ---------------------------------------------------------------- trees

  private static Map<String, Object> rule(String host, String service, Number port) {
    return IngressTrees.rule(host, service, port);
  }

  /** The Gslb's spec.ingress as the API gives it: numbers as Integers. */
  private static Map<String, Object> desired() {
    return Map.of("rules", List.of(rule("app.cloud.example.com", "storefront", 80)));
  }

  /** The same spec.ingress read back from the annotation's JSON: numbers as Longs. */
  private static Map<String, Object> desiredAsParsed() {
    return Map.of("rules", List.of(rule("app.cloud.example.com", "storefront", 80L)));
  }

  private static List<Object> tls() {
    return List.of(Map.of("hosts", List.of("app.cloud.example.com"), "secretName", "app-tls"));
  }

  /** The live spec: what Cairn applied plus the default IngressClass's ingressClassName. */
  private static Map<String, Object> admitted(Map<String, Object> applied) {
    Map<String, Object> spec = new LinkedHashMap<>(applied);
    spec.put("ingressClassName", "nginx");
    return spec;
  }

  // ---------------------------------------------------------------- objects

  private static EmbeddingGslb embedding(Object ingress) {
    return new EmbeddingGslb(KEY, GSLB_UID, false, false, ingress);
  }

  private static EmbeddingGslb referencing(boolean ownIngress) {
    return new EmbeddingGslb(KEY, GSLB_UID, true, ownIngress, null);
  }

  private static OwnerRef gslbOwner(String uid) {
    return new OwnerRef(IngressPlan.GSLB_API_VERSION, "Gslb", KEY.name(), uid, true, true);
  }

  private static Map<String, String> ourLabels() {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(IngressPlan.K8GB_MANAGED_BY_LABEL, IngressPlan.K8GB_MANAGED_BY_VALUE);
    labels.put(Ownership.MANAGED_BY_LABEL, Ownership.MANAGED_BY_VALUE);
    labels.put("team", "shop");
    return labels;
  }

  private static Map<String, String> ourAnnotations() {
    return Map.of(
        IngressPlan.LAST_APPLIED_ANNOTATION,
        LAST_APPLIED_JSON,
        CONTACT_ANNOTATION,
        "shop@example.com");
  }

  private static LiveIngress live(
      Map<String, String> labels, List<OwnerRef> owners, Object spec, Object lastApplied) {
    return new LiveIngress(
        KEY, INGRESS_UID, VERSION, labels, ourAnnotations(), owners, spec, lastApplied);
  }

  /** An Ingress Cairn created for the Gslb and that is still as the Gslb wants it. */
  private static LiveIngress oursInSync() {
    return live(
        ourLabels(), List.of(gslbOwner(GSLB_UID)), admitted(desiredAsParsed()), desiredAsParsed());
  }

  /** An Ingress of the Gslb's name with these owners and Cairn's labels. */
  private static LiveIngress ownedBy(OwnerRef... owners) {
    return live(ourLabels(), List.of(owners), admitted(desiredAsParsed()), desiredAsParsed());
  }

  private static LiveIngress asWritten(IngressPlan plan) {
    Body b = plan.body();
    return new LiveIngress(
        KEY,
        INGRESS_UID,
        "1235",
        b.labels(),
        b.annotations(),
        b.owners(),
        b.spec(),
        b.lastApplied());
  }

  // ---------------------------------------------------------------- CREATE

  @Test
  void createsTheIngressWhenNoneExists() {
    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), null);

    assertThat(plan.action()).isEqualTo(Action.CREATE);
    assertThat(plan.key()).isEqualTo(KEY);
    assertThat(plan.writes()).isTrue();
    assertThat(plan.version()).isNull();
    assertThat(plan.uid()).isNull();
    assertThat(plan.problem()).isNull();
    assertThat(plan.detail()).contains("creating");
    Body body = plan.body();
    assertThat(body.labels())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("app.k8gb.io/managed-by", "gslb", "app.kubernetes.io/managed-by", "cairn"));
    assertThat(body.annotations()).isEmpty();
    assertThat(body.owners())
        .containsExactly(
            new OwnerRef("k8gb.io/v1beta1", "Gslb", "storefront", GSLB_UID, true, true));
    assertThat(body.spec()).isEqualTo(desired());
    assertThat(body.lastApplied()).isEqualTo(desired());
  }

  @Test
  void aCreatedIngressIsInSyncWhenReadBack() {
    IngressPlan created = IngressPlan.plan(KEY, embedding(desired()), null);

    IngressPlan again = IngressPlan.plan(KEY, embedding(desired()), asWritten(created));

    assertThat(again.action()).isEqualTo(Action.IN_SYNC);
  }

  // ---------------------------------------------------------------- IN_SYNC

  @Test
  void isInSyncWhenOnlyServerSetFieldsAndNumberTypesDiffer() {
    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), oursInSync());

    assertThat(plan.action()).isEqualTo(Action.IN_SYNC);
    assertThat(plan.body()).isNull();
    assertThat(plan.writes()).isFalse();
    assertThat(plan.version()).isNull();
    assertThat(plan.uid()).isNull();
    assertThat(plan.problem()).isNull();
    assertThat(plan.detail()).isEqualTo("the Ingress matches spec.ingress");
  }

  @Test
  void isInSyncWithOtherOwnersBesideTheGslb() {
    IngressPlan plan =
        IngressPlan.plan(KEY, embedding(desired()), ownedBy(ARGO_APP, gslbOwner(GSLB_UID)));

    assertThat(plan.action()).isEqualTo(Action.IN_SYNC);
  }

  // ---------------------------------------------------------------- UPDATE

  @Test
  void updatesTheOwnerReferenceOfARecreatedGslb() {
    LiveIngress live = ownedBy(gslbOwner("old-gslb-uid"));

    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), live);

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(plan.detail()).isEqualTo("the Ingress differs from spec.ingress (owner reference)");
    assertThat(plan.writes()).isTrue();
    assertThat(plan.version()).isEqualTo(VERSION);
    assertThat(plan.uid()).isNull();
    assertThat(plan.problem()).isNull();
    assertThat(plan.body().owners()).containsExactly(gslbOwner(GSLB_UID));
    assertThat(plan.body().spec()).isEqualTo(admitted(desired()));
    assertThat(plan.body().lastApplied()).isEqualTo(desired());
  }

  @Test
  void replacesAnOwnerReferenceToAnotherVersionOfTheGslb() {
    OwnerRef v1 = new OwnerRef("k8gb.io/v1", "Gslb", KEY.name(), "old-gslb-uid", true, false);

    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), ownedBy(v1));

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(plan.body().owners()).containsExactly(gslbOwner(GSLB_UID));
  }

  @ParameterizedTest
  @ValueSource(strings = {IngressPlan.K8GB_MANAGED_BY_LABEL, Ownership.MANAGED_BY_LABEL})
  void restoresAMissingLabel(String missing) {
    Map<String, String> labels = ourLabels();
    labels.remove(missing);
    LiveIngress live =
        live(labels, List.of(gslbOwner(GSLB_UID)), admitted(desiredAsParsed()), desiredAsParsed());

    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), live);

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(plan.detail()).isEqualTo("the Ingress differs from spec.ingress (labels)");
    assertThat(plan.body().labels()).isEqualTo(ourLabels());
  }

  @Test
  void restoresALabelOfAnotherValue() {
    Map<String, String> labels = ourLabels();
    labels.put(Ownership.MANAGED_BY_LABEL, "helm");
    LiveIngress live =
        live(labels, List.of(gslbOwner(GSLB_UID)), admitted(desiredAsParsed()), desiredAsParsed());

    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), live);

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(plan.body().labels()).containsEntry(Ownership.MANAGED_BY_LABEL, "cairn");
  }

  @Test
  void aChangedSpecIngressRemovesWhatItDroppedAndKeepsWhatAdmissionSet() {
    Map<String, Object> before = new LinkedHashMap<>(desiredAsParsed());
    before.put("tls", tls());
    LiveIngress live = live(ourLabels(), List.of(gslbOwner(GSLB_UID)), admitted(before), before);

    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), live);

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(plan.detail())
        .isEqualTo("the Ingress differs from spec.ingress (spec.ingress changed)");
    assertThat(plan.body().spec())
        .isEqualTo(Map.of("ingressClassName", "nginx", "rules", desired().get("rules")));
    assertThat(plan.body().lastApplied()).isEqualTo(desired());
    assertThat(plan.body().labels()).isEqualTo(ourLabels());
    assertThat(plan.body().owners()).containsExactly(gslbOwner(GSLB_UID));
    assertThat(plan.body().annotations()).isEqualTo(Map.of(CONTACT_ANNOTATION, "shop@example.com"));
    assertThat(plan.version()).isEqualTo(VERSION);
  }

  @Test
  void aChangedValueInSpecIngressIsWrittenAndNamedTwice() {
    Map<String, Object> wanted =
        Map.of("rules", List.of(rule("app.cloud.example.com", "storefront-v2", 8080)));

    IngressPlan plan = IngressPlan.plan(KEY, embedding(wanted), oursInSync());

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(plan.detail())
        .isEqualTo("the Ingress differs from spec.ingress (spec.ingress changed, spec)");
    assertThat(plan.body().spec()).isEqualTo(admitted(wanted));
    assertThat(plan.body().lastApplied()).isEqualTo(wanted);
  }

  @Test
  void repairsAHandEditOfTheLiveSpec() {
    Map<String, Object> edited =
        admitted(Map.of("rules", List.of(rule("evil.example.com", "storefront", 80L))));
    LiveIngress live = live(ourLabels(), List.of(gslbOwner(GSLB_UID)), edited, desiredAsParsed());

    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), live);

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(plan.detail()).isEqualTo("the Ingress differs from spec.ingress (spec)");
    assertThat(plan.body().spec()).isEqualTo(admitted(desired()));
    assertThat(plan.body().lastApplied()).isEqualTo(desired());
  }

  @Test
  void withoutALastAppliedAnnotationKeepsEveryLiveOnlyField() {
    Map<String, Object> spec = admitted(desiredAsParsed());
    spec.put("tls", tls());
    LiveIngress live = live(ourLabels(), List.of(gslbOwner(GSLB_UID)), spec, null);

    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), live);

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(plan.detail()).contains("spec.ingress changed");
    assertThat(plan.body().spec())
        .isEqualTo(
            Map.of("ingressClassName", "nginx", "tls", tls(), "rules", desired().get("rules")));
    assertThat(plan.body().lastApplied()).isEqualTo(desired());
  }

  @Test
  void namesEveryDifference() {
    Map<String, String> labels = ourLabels();
    labels.remove(IngressPlan.K8GB_MANAGED_BY_LABEL);
    Map<String, Object> edited =
        admitted(Map.of("rules", List.of(rule("evil.example.com", "storefront", 80L))));
    LiveIngress live = live(labels, List.of(gslbOwner("old-gslb-uid")), edited, null);

    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), live);

    assertThat(plan.detail())
        .isEqualTo(
            "the Ingress differs from spec.ingress (owner reference, labels, spec.ingress changed,"
                + " spec)");
  }

  @Test
  void keepsOtherOwnerReferencesOnUpdate() {
    OwnerRef otherGslb =
        new OwnerRef(IngressPlan.GSLB_API_VERSION, "Gslb", "checkout", "other-uid", false, false);
    LiveIngress live = ownedBy(ARGO_APP, gslbOwner("old-gslb-uid"), otherGslb);

    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), live);

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(plan.body().owners()).containsExactly(ARGO_APP, otherGslb, gslbOwner(GSLB_UID));
  }

  @Test
  void anUpdatedIngressIsInSyncWhenReadBack() {
    Map<String, Object> before = new LinkedHashMap<>(desiredAsParsed());
    before.put("tls", tls());
    LiveIngress live =
        live(ourLabels(), List.of(gslbOwner("old-gslb-uid")), admitted(before), before);
    IngressPlan updated = IngressPlan.plan(KEY, embedding(desired()), live);

    IngressPlan again = IngressPlan.plan(KEY, embedding(desired()), asWritten(updated));

    assertThat(updated.action()).isEqualTo(Action.UPDATE);
    assertThat(again.action()).isEqualTo(Action.IN_SYNC);
  }

  // ---------------------------------------------------------------- CONFLICT

  static Stream<Arguments> foreignIngresses() {
    return Stream.of(
        Arguments.of(List.of(), "it has no controller"),
        Arguments.of(List.of(ARGO_APP), "it has no controller"),
        Arguments.of(
            List.of(
                new OwnerRef(
                    IngressPlan.GSLB_API_VERSION, "Gslb", KEY.name(), GSLB_UID, false, true)),
            "it has no controller"),
        Arguments.of(List.of(DEPLOYMENT), "its controller is Deployment storefront (apps/v1)"),
        Arguments.of(
            List.of(
                new OwnerRef(
                    IngressPlan.GSLB_API_VERSION, "Gslb", "checkout", "other-uid", true, true)),
            "its controller is Gslb checkout (k8gb.io/v1beta1)"),
        Arguments.of(
            List.of(new OwnerRef("example.com/v1", "Gslb", KEY.name(), GSLB_UID, true, true)),
            "its controller is Gslb storefront (example.com/v1)"));
  }

  @ParameterizedTest
  @MethodSource("foreignIngresses")
  void leavesAForeignIngressAloneAndReportsIt(List<OwnerRef> owners, String holder) {
    LiveIngress live =
        live(
            ourLabels(),
            owners,
            Map.of("rules", List.of(rule("other.example.com", "x", 81))),
            null);

    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), live);

    assertThat(plan.action()).isEqualTo(Action.CONFLICT);
    assertThat(plan.body()).isNull();
    assertThat(plan.writes()).isFalse();
    assertThat(plan.version()).isNull();
    assertThat(plan.uid()).isNull();
    assertThat(plan.detail()).contains(holder);
    assertThat(plan.problem()).isNotNull();
    assertThat(plan.problem().field()).isEqualTo("spec.ingress");
    assertThat(plan.problem().value()).isEqualTo("Ingress shop/storefront");
    assertThat(plan.problem().reason()).contains(holder).contains("spec.resourceRef");
  }

  // ---------------------------------------------------------------- RELEASE

  @Test
  void releasesTheOwnIngressNamedByTheResourceRef() {
    Map<String, Object> spec = admitted(desiredAsParsed());
    LiveIngress live =
        live(ourLabels(), List.of(ARGO_APP, gslbOwner(GSLB_UID)), spec, desiredAsParsed());

    IngressPlan plan = IngressPlan.plan(KEY, referencing(true), live);

    assertThat(plan.action()).isEqualTo(Action.RELEASE);
    assertThat(plan.writes()).isTrue();
    assertThat(plan.version()).isEqualTo(VERSION);
    assertThat(plan.uid()).isNull();
    assertThat(plan.problem()).isNull();
    assertThat(plan.detail()).contains("releasing");
    Body body = plan.body();
    assertThat(body.labels()).isEqualTo(Map.of("team", "shop"));
    assertThat(body.annotations())
        .isEqualTo(
            Map.of(
                CONTACT_ANNOTATION,
                "shop@example.com",
                IngressPlan.RELEASED_FROM_ANNOTATION,
                GSLB_UID));
    assertThat(body.owners()).containsExactly(ARGO_APP);
    assertThat(body.spec()).isSameAs(spec);
    assertThat(body.spec()).isEqualTo(admitted(desiredAsParsed()));
    assertThat(body.lastApplied()).isNull();
  }

  @Test
  void releasingKeepsAManagedByLabelOfAnotherValue() {
    Map<String, String> labels = ourLabels();
    labels.put(Ownership.MANAGED_BY_LABEL, "argocd");
    LiveIngress live =
        live(labels, List.of(gslbOwner(GSLB_UID)), admitted(desiredAsParsed()), desiredAsParsed());

    IngressPlan plan = IngressPlan.plan(KEY, referencing(true), live);

    assertThat(plan.action()).isEqualTo(Action.RELEASE);
    assertThat(plan.body().labels())
        .isEqualTo(Map.of("team", "shop", Ownership.MANAGED_BY_LABEL, "argocd"));
  }

  @Test
  void releasesEvenWithoutTheK8gbLabel() {
    Map<String, String> labels = ourLabels();
    labels.remove(IngressPlan.K8GB_MANAGED_BY_LABEL);
    LiveIngress live =
        live(labels, List.of(gslbOwner(GSLB_UID)), admitted(desiredAsParsed()), desiredAsParsed());

    IngressPlan plan = IngressPlan.plan(KEY, referencing(true), live);

    assertThat(plan.action()).isEqualTo(Action.RELEASE);
    assertThat(plan.body().labels()).isEqualTo(Map.of("team", "shop"));
  }

  /** What a RELEASE leaves: no controller, no Cairn labels, the releasing Gslb's uid. */
  private static LiveIngress released(String releasedBy) {
    Map<String, String> labels = new LinkedHashMap<>(Map.of("team", "shop"));
    return new LiveIngress(
        KEY,
        INGRESS_UID,
        VERSION,
        labels,
        Map.of(IngressPlan.RELEASED_FROM_ANNOTATION, releasedBy, CONTACT_ANNOTATION, "x"),
        List.of(ARGO_APP),
        admitted(desiredAsParsed()),
        null);
  }

  @Test
  void theGslbThatReleasedItsIngressTakesItBackWhenItEmbedsItAgain() {
    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), released(GSLB_UID));

    assertThat(plan.action()).isEqualTo(Action.UPDATE);
    assertThat(plan.detail()).contains("owner reference").contains("released before");
    Body body = plan.body();
    assertThat(body.owners()).containsExactly(ARGO_APP, gslbOwner(GSLB_UID));
    assertThat(body.labels())
        .containsEntry(IngressPlan.K8GB_MANAGED_BY_LABEL, IngressPlan.K8GB_MANAGED_BY_VALUE)
        .containsEntry(Ownership.MANAGED_BY_LABEL, Ownership.MANAGED_BY_VALUE);
    assertThat(body.annotations())
        .doesNotContainKey(IngressPlan.RELEASED_FROM_ANNOTATION)
        .containsEntry(CONTACT_ANNOTATION, "x");
    assertThat(body.lastApplied()).isEqualTo(desired());
  }

  @Test
  void anIngressAnotherGslbReleasedIsSomeoneElses() {
    IngressPlan plan = IngressPlan.plan(KEY, embedding(desired()), released("uid-of-another-gslb"));

    assertThat(plan.action()).isEqualTo(Action.CONFLICT);
    assertThat(plan.problem().field()).isEqualTo("spec.ingress");
  }

  @Test
  void aReleasedIngressIsNeverDeleted() {
    assertThat(IngressPlan.plan(KEY, referencing(false), released(GSLB_UID)).action())
        .isEqualTo(Action.NONE);
    assertThat(IngressPlan.plan(KEY, null, released(GSLB_UID)).action()).isEqualTo(Action.NONE);
  }

  // ---------------------------------------------------------------- DELETE

  @Test
  void deletesTheIngressOfAGslbThatIsGone() {
    IngressPlan plan = IngressPlan.plan(KEY, null, oursInSync());

    assertThat(plan.action()).isEqualTo(Action.DELETE);
    assertThat(plan.body()).isNull();
    assertThat(plan.writes()).isTrue();
    assertThat(plan.version()).isEqualTo(VERSION);
    assertThat(plan.uid()).isEqualTo(INGRESS_UID);
    assertThat(plan.problem()).isNull();
    assertThat(plan.detail()).contains("the Gslb is gone");
  }

  @Test
  void deletesTheIngressOfAGslbThatReferencesAnotherObject() {
    IngressPlan plan = IngressPlan.plan(KEY, referencing(false), oursInSync());

    assertThat(plan.action()).isEqualTo(Action.DELETE);
    assertThat(plan.body()).isNull();
    assertThat(plan.writes()).isTrue();
    assertThat(plan.version()).isEqualTo(VERSION);
    assertThat(plan.uid()).isEqualTo(INGRESS_UID);
    assertThat(plan.detail()).contains("references another object");
  }

  @Test
  void deletesEvenWhenTheOwnerReferenceNamesAnOlderGslb() {
    IngressPlan plan = IngressPlan.plan(KEY, null, ownedBy(gslbOwner("old-gslb-uid")));

    assertThat(plan.action()).isEqualTo(Action.DELETE);
  }

  static Stream<EmbeddingGslb> goneOrReferencing() {
    return Stream.of(null, referencing(false));
  }

  @ParameterizedTest
  @MethodSource("goneOrReferencing")
  void deletesNothingWithoutTheK8gbLabel(EmbeddingGslb gslb) {
    Map<String, String> labels = ourLabels();
    labels.remove(IngressPlan.K8GB_MANAGED_BY_LABEL);
    LiveIngress live =
        live(labels, List.of(gslbOwner(GSLB_UID)), admitted(desiredAsParsed()), desiredAsParsed());

    IngressPlan plan = IngressPlan.plan(KEY, gslb, live);

    assertThat(plan.action()).isEqualTo(Action.NONE);
    assertThat(plan.writes()).isFalse();
    assertThat(plan.version()).isNull();
    assertThat(plan.uid()).isNull();
    assertThat(plan.detail()).contains("lacks the label app.k8gb.io/managed-by=gslb");
  }

  // ---------------------------------------------------------------- NONE (reference)

  static Stream<Arguments> referenceCasesWithAForeignIngress() {
    return Stream.of(
        Arguments.of(null, List.of()),
        Arguments.of(null, List.of(DEPLOYMENT)),
        Arguments.of(referencing(false), List.of(DEPLOYMENT)),
        Arguments.of(referencing(true), List.of(DEPLOYMENT)),
        Arguments.of(referencing(true), List.of()),
        Arguments.of(
            referencing(true),
            List.of(
                new OwnerRef(
                    IngressPlan.GSLB_API_VERSION, "Gslb", "checkout", "other-uid", true, true))));
  }

  @ParameterizedTest
  @MethodSource("referenceCasesWithAForeignIngress")
  void touchesNoForeignIngressWhenNoEmbeddedIngressIsWanted(
      EmbeddingGslb gslb, List<OwnerRef> owners) {
    LiveIngress live = live(ourLabels(), owners, admitted(desiredAsParsed()), null);

    IngressPlan plan = IngressPlan.plan(KEY, gslb, live);

    assertThat(plan.action()).isEqualTo(Action.NONE);
    assertThat(plan.body()).isNull();
    assertThat(plan.writes()).isFalse();
    assertThat(plan.problem()).isNull();
  }

  @Test
  void doesNothingWithoutGslbOrIngress() {
    IngressPlan plan = IngressPlan.plan(KEY, null, null);

    assertThat(plan.action()).isEqualTo(Action.NONE);
    assertThat(plan.detail()).isEqualTo("no Gslb of this name");
    assertThat(plan.writes()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void doesNothingForAReferencingGslbWithoutIngress(boolean ownIngress) {
    IngressPlan plan = IngressPlan.plan(KEY, referencing(ownIngress), null);

    assertThat(plan.action()).isEqualTo(Action.NONE);
    assertThat(plan.detail()).isEqualTo("the Gslb references an object");
    assertThat(plan.writes()).isFalse();
  }

  @Test
  void aResourceRefWinsOverSpecIngress() {
    EmbeddingGslb both = new EmbeddingGslb(KEY, GSLB_UID, true, false, desired());

    assertThat(both.shape()).isEqualTo(EmbeddingGslb.Shape.REFERENCE);
    assertThat(IngressPlan.plan(KEY, both, oursInSync()).action()).isEqualTo(Action.DELETE);
    assertThat(IngressPlan.plan(KEY, both, null).action()).isEqualTo(Action.NONE);
  }

  // ---------------------------------------------------------------- invalid Gslb

  static Stream<Object> unusableIngresses() {
    return Stream.of(null, "rules: []", List.of(desired()), 42, Map.of());
  }

  @ParameterizedTest
  @MethodSource("unusableIngresses")
  void keepsTheOwnedIngressOfAnInvalidGslb(Object ingress) {
    EmbeddingGslb gslb = embedding(ingress);

    IngressPlan plan = IngressPlan.plan(KEY, gslb, oursInSync());

    assertThat(gslb.shape()).isEqualTo(EmbeddingGslb.Shape.INVALID);
    assertThat(plan.action()).isEqualTo(Action.KEEP);
    assertThat(plan.body()).isNull();
    assertThat(plan.writes()).isFalse();
    assertThat(plan.version()).isNull();
    assertThat(plan.uid()).isNull();
    assertThat(plan.problem()).isNull();
    assertThat(plan.detail()).contains("kept as it is");
  }

  @ParameterizedTest
  @MethodSource("unusableIngresses")
  void keepsEvenAnOutdatedOwnedIngressOfAnInvalidGslb(Object ingress) {
    IngressPlan plan =
        IngressPlan.plan(KEY, embedding(ingress), ownedBy(gslbOwner("old-gslb-uid")));

    assertThat(plan.action()).isEqualTo(Action.KEEP);
  }

  @ParameterizedTest
  @MethodSource("unusableIngresses")
  void doesNothingForAnInvalidGslbWithoutIngress(Object ingress) {
    IngressPlan plan = IngressPlan.plan(KEY, embedding(ingress), null);

    assertThat(plan.action()).isEqualTo(Action.NONE);
    assertThat(plan.detail()).isEqualTo("the Gslb embeds no usable ingress");
    assertThat(plan.writes()).isFalse();
  }

  @ParameterizedTest
  @MethodSource("unusableIngresses")
  void doesNothingForAnInvalidGslbWithAForeignIngress(Object ingress) {
    IngressPlan plan = IngressPlan.plan(KEY, embedding(ingress), ownedBy(DEPLOYMENT));

    assertThat(plan.action()).isEqualTo(Action.NONE);
    assertThat(plan.problem()).isNull();
  }

  // ---------------------------------------------------------------- no uid yet

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", "  "})
  void doesNothingForAGslbWithoutUid(String uid) {
    EmbeddingGslb gslb = new EmbeddingGslb(KEY, uid, false, false, desired());

    IngressPlan none = IngressPlan.plan(KEY, gslb, null);
    IngressPlan withOurs = IngressPlan.plan(KEY, gslb, ownedBy(gslbOwner("old-gslb-uid")));

    assertThat(none.action()).isEqualTo(Action.NONE);
    assertThat(none.detail()).isEqualTo("the Gslb has no uid yet");
    assertThat(none.writes()).isFalse();
    assertThat(withOurs.action()).isEqualTo(Action.NONE);
  }

  // ---------------------------------------------------------------- the record

  private static Body someBody() {
    return new Body(ourLabels(), Map.of(), List.of(gslbOwner(GSLB_UID)), desired(), desired());
  }

  @ParameterizedTest
  @EnumSource(
      value = Action.class,
      names = {"CREATE", "UPDATE", "RELEASE"})
  void writesWithABody(Action action) {
    IngressPlan plan = new IngressPlan(KEY, action, someBody(), VERSION, null, "why", null);

    assertThat(plan.writes()).isTrue();
  }

  @Test
  void deleteWritesWithoutABody() {
    IngressPlan plan = new IngressPlan(KEY, Action.DELETE, null, VERSION, INGRESS_UID, "why", null);

    assertThat(plan.writes()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(
      value = Action.class,
      names = {"IN_SYNC", "KEEP", "CONFLICT", "NONE"})
  void writesNothingOtherwise(Action action) {
    IngressPlan plan = new IngressPlan(KEY, action, null, null, null, "why", null);

    assertThat(plan.writes()).isFalse();
  }

  @ParameterizedTest
  @EnumSource(
      value = Action.class,
      names = {"DELETE", "IN_SYNC", "KEEP", "CONFLICT", "NONE"})
  void refusesABodyWithAnActionThatSendsNone(Action action) {
    assertThatThrownBy(
            () -> new IngressPlan(KEY, action, someBody(), VERSION, INGRESS_UID, "why", null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @EnumSource(
      value = Action.class,
      names = {"CREATE", "UPDATE", "RELEASE"})
  void refusesAWriteWithoutABody(Action action) {
    assertThatThrownBy(() -> new IngressPlan(KEY, action, null, VERSION, null, "why", null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theBodyIsACopy() {
    Map<String, String> labels = ourLabels();
    Body body = new Body(labels, Map.of(), List.of(), desired(), null);
    labels.put("later", "x");

    assertThat(body.labels()).doesNotContainKey("later");
    assertThatThrownBy(() -> body.labels().put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
