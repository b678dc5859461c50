package dev.cairn.recordwriter.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.status.StatusPlan.Action;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GslbStatusPlanTest {

  private static final ObjectKey KEY = ObjectKey.of("shop", "storefront");

  private static LiveGslb live(String uid, Object status) {
    return new LiveGslb(KEY, uid, "42", status);
  }

  @Test
  void readsGslbKeys() {
    assertThat(GslbStatusPlan.keyOf("Gslb/shop/storefront")).contains(KEY);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"HTTPRoute/shop/storefront", "Gslb/storefront", "Gslb/Shop/storefront", "Gslb"})
  void refusesKeysThatNameNoGslb(String key) {
    assertThat(GslbStatusPlan.keyOf(key)).isEmpty();
  }

  @Test
  void writesAStatusToAGslbWithoutOne() {
    StatusPlan plan = GslbStatusPlan.plan(KEY, GslbStatusFormTest.golden(), live("uid-1", null));

    assertThat(plan.action()).isEqualTo(Action.WRITE);
    assertThat(plan.version()).isEqualTo("42");
    assertThat(plan.status())
        .isEqualTo(GslbStatusForm.render(GslbStatusFormTest.golden()).fields());
    assertThat(plan.detail()).contains("no status yet");
  }

  @Test
  void writesNothingWhenTheStatusIsTheSameInAnotherOrder() {
    StatusPlan plan =
        GslbStatusPlan.plan(
            KEY, GslbStatusFormTest.golden(), live("uid-1", GslbStatusFormTest.storedLikeGolden()));

    assertThat(plan.action()).isEqualTo(Action.IN_SYNC);
    assertThat(plan.status()).isNull();
  }

  @Test
  void writesTheWholeStatusWhenOneFieldDiffersAndNamesIt() {
    Map<String, Object> stored = new HashMap<>(GslbStatusFormTest.storedLikeGolden());
    stored.put("geoTag", "us");

    StatusPlan plan = GslbStatusPlan.plan(KEY, GslbStatusFormTest.golden(), live("uid-1", stored));

    assertThat(plan.action()).isEqualTo(Action.WRITE);
    assertThat(plan.status()).containsEntry("geoTag", "eu").containsKey("servers");
    assertThat(plan.detail()).isEqualTo("the status differs in geoTag");
  }

  @Test
  void skipsAMissingGslb() {
    StatusPlan plan = GslbStatusPlan.plan(KEY, GslbStatusFormTest.golden(), null);

    assertThat(plan.action()).isEqualTo(Action.MISSING_GSLB);
    assertThat(plan.skipped()).isTrue();
    assertThat(plan.status()).isNull();
    assertThat(plan.detail()).contains("never creates");
  }

  @Test
  void skipsAStatusDecidedForAnotherUid() {
    StatusPlan plan = GslbStatusPlan.plan(KEY, GslbStatusFormTest.golden(), live("uid-2", null));

    assertThat(plan.action()).isEqualTo(Action.UID_MISMATCH);
    assertThat(plan.detail()).contains("uid-1").contains("uid-2");
  }

  @Test
  void appliesAStatusWithoutUidToTheObjectOfThatName() {
    GslbStatus g = GslbStatusFormTest.golden();
    GslbStatus noUid =
        new GslbStatus(
            g.namespace(),
            g.name(),
            null,
            g.geoTag(),
            g.serviceHealth(),
            g.healthyRecords(),
            g.hosts(),
            g.exposedIps(),
            g.servers(),
            g.problems());

    assertThat(GslbStatusPlan.plan(KEY, noUid, live("uid-9", null)).action())
        .isEqualTo(Action.WRITE);
  }

  @Test
  void refusesAStatusThatNamesAnotherGslbThanItsKey() {
    StatusPlan plan =
        GslbStatusPlan.plan(
            ObjectKey.of("shop", "other"), GslbStatusFormTest.golden(), live("uid-1", null));

    assertThat(plan.action()).isEqualTo(Action.INVALID);
    assertThat(plan.problems())
        .singleElement()
        .satisfies(p -> assertThat(p.value()).isEqualTo("shop/storefront"));
  }

  @Test
  void keepsUnknownStatusFieldsWhenWriting() {
    Map<String, Object> stored = new HashMap<>();
    stored.put("conditions", List.of());

    StatusPlan plan = GslbStatusPlan.plan(KEY, GslbStatusFormTest.golden(), live("uid-1", stored));

    assertThat(plan.action()).isEqualTo(Action.WRITE);
    assertThat(plan.status()).containsEntry("conditions", List.of());
  }

  @Test
  void planningTheWrittenStatusAgainWritesNothing() {
    StatusPlan first = GslbStatusPlan.plan(KEY, GslbStatusFormTest.golden(), live("uid-1", null));

    StatusPlan again =
        GslbStatusPlan.plan(KEY, GslbStatusFormTest.golden(), live("uid-1", first.status()));

    assertThat(again.action()).isEqualTo(Action.IN_SYNC);
  }
}
