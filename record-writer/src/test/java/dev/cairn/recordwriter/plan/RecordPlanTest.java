package dev.cairn.recordwriter.plan;

import static dev.cairn.recordwriter.plan.PlanFixtures.NOW;
import static dev.cairn.recordwriter.plan.PlanFixtures.a;
import static dev.cairn.recordwriter.plan.PlanFixtures.complete;
import static dev.cairn.recordwriter.plan.PlanFixtures.endpointA;
import static dev.cairn.recordwriter.plan.PlanFixtures.incomplete;
import static dev.cairn.recordwriter.plan.PlanFixtures.route;
import static dev.cairn.recordwriter.plan.PlanFixtures.written;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.plan.Changes.Create;
import dev.cairn.recordwriter.plan.Changes.Delete;
import dev.cairn.recordwriter.plan.Changes.Update;
import dev.cairn.recordwriter.plan.Outcome.StaleSinceReset.Cause;
import dev.cairn.recordwriter.plan.Outcome.State;
import dev.cairn.recordwriter.plan.PlanFixtures.Current;
import dev.cairn.recordwriter.plan.PlanFixtures.Decision;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Modelled on external-dns's {@code plan_test.go}: named fixtures, then current and desired state,
 * then the expected changes.
 */
class RecordPlanTest {

  private final RecordPlan planner = new RecordPlan(Duration.ofMinutes(5));

  // Fixtures.
  private final Decision web = route("shop", "web");
  private final Decision api = route("shop", "api");
  private final DnsRecord webV1 = a("web.example.com", "192.0.2.1", "192.0.2.2");
  private final DnsRecord webV2 = a("web.example.com", "192.0.2.3");
  private final Endpoint webV1Published = endpointA("web.example.com", "192.0.2.1", "192.0.2.2");

  private Plan plan(List<CurrentRecord> current, DesiredState desired) {
    return planner.plan(current, desired, NOW);
  }

  private static List<ObjectKey> keys(List<? extends Changes.Change> changes) {
    return changes.stream().map(Changes.Change::key).toList();
  }

  @Nested
  class Publishing {

    @Test
    void createsTheRecordOfANewDecision() {
      Plan p = plan(List.of(), complete(web.publish(webV1)));

      assertThat(keys(p.changes().creates())).containsExactly(web.key());
      assertThat(p.changes().updates()).isEmpty();
      assertThat(p.changes().deletes()).isEmpty();
      DesiredRecord created = p.changes().creates().get(0).desired();
      assertThat(created.endpoints()).containsExactly(webV1Published);
      assertThat(created.labels()).containsEntry("app.kubernetes.io/managed-by", "cairn");
      assertThat(created.source()).isEqualTo("HTTPRoute/shop/web");
      assertThat(created.controller())
          .isEqualTo(new ControllerRef(PlanFixtures.ROUTE_API, "HTTPRoute", "web", "uid-web"));
      assertThat(created.staleSince()).isNull();
      assertThat(p.outcomes().get(web.key()).state()).isEqualTo(State.PUBLISHED);
    }

    @Test
    void updatesWhenTheTargetsChange() {
      CurrentRecord current = web.owned(webV1Published).build();

      Plan p = plan(List.of(current), complete(web.publish(webV2)));

      assertThat(p.changes().creates()).isEmpty();
      assertThat(p.changes().updates()).hasSize(1);
      Update u = p.changes().updates().get(0);
      assertThat(u.current()).isEqualTo(current);
      assertThat(u.desired().endpoints())
          .containsExactly(endpointA("web.example.com", "192.0.2.3"));
      assertThat(u.reason()).isEqualTo(ChangeReason.PUBLISH);
    }

    @Test
    void changesNothingWhenThePublishedRecordMatchesAfterNormalising() {
      CurrentRecord current =
          web.owned(
                  Endpoint.of("WEB.Example.com", "a", 30, List.of("192.0.2.2", "192.0.2.1")),
                  Endpoint.of("web.example.com", "AAAA", 0, List.of("2001:DB8:0:0::1")))
              .build();
      DnsRecord v6 = DnsRecord.of("web.example.com", "AAAA", 0, List.of("2001:db8::1"));

      Plan p = plan(List.of(current), complete(web.publish(webV1, v6)));

      assertThat(p.changes().isEmpty()).isTrue();
      assertThat(p.outcomes().get(web.key()).state()).isEqualTo(State.PUBLISHED);
      assertThat(p.outcomes().get(web.key()).change()).isNull();
    }

    @Test
    void isIdempotent() {
      TargetDecision d = web.publish(webV1);
      Plan first = plan(List.of(), complete(d));
      CurrentRecord afterwards = written(first.changes().creates().get(0).desired());

      Plan second = plan(List.of(afterwards), complete(d));

      assertThat(second.changes().isEmpty()).isTrue();
    }

    @Test
    void rewritesANameWithATrailingDotTheCoreDnsPluginWouldNotMatch() {
      CurrentRecord current =
          web.owned(endpointA("web.example.com.", "192.0.2.1", "192.0.2.2")).build();

      Plan p = plan(List.of(current), complete(web.publish(webV1)));

      assertThat(keys(p.changes().updates())).containsExactly(web.key());
    }

    @Test
    void repairsAManualEditOfAnOwnedObject() {
      CurrentRecord edited =
          web.owned(endpointA("web.example.com", "203.0.113.66")).label("team", "x").build();

      Plan p = plan(List.of(edited), complete(web.publish(webV1)));

      Update u = p.changes().updates().get(0);
      assertThat(u.desired().endpoints()).containsExactly(webV1Published);
      assertThat(u.desired().labels()).doesNotContainKey("team");
    }

    @Test
    void movesTheRecordWhenTheDecisionNamesAnotherObject() {
      CurrentRecord old = web.owned(webV1Published).build();
      Decision moved = route("shop", "web").named("web-renamed");

      Plan p = plan(List.of(old), complete(moved.publish(webV1)));

      assertThat(keys(p.changes().creates())).containsExactly(moved.key());
      assertThat(keys(p.changes().deletes())).containsExactly(web.key());
      assertThat(p.changes().deletes().get(0).reason()).isEqualTo(ChangeReason.SOURCE_GONE);
    }
  }

  @Nested
  class Deleting {

    @Test
    void deletesAtOnceOnWithdraw() {
      CurrentRecord current = web.owned(webV1Published).build();

      Plan p = plan(List.of(current), complete(web.withdraw()));

      assertThat(p.changes().deletes())
          .containsExactly(new Delete(current, ChangeReason.WITHDRAWN));
      assertThat(p.changes().creates()).isEmpty();
    }

    @Test
    void deletesAnOrphanOnceTheDecisionsAreComplete() {
      CurrentRecord orphan = web.owned(webV1Published).build();

      Plan p = plan(List.of(orphan), complete());

      assertThat(p.changes().deletes())
          .containsExactly(new Delete(orphan, ChangeReason.SOURCE_GONE));
      assertThat(p.outcomes().get(web.key()).state()).isEqualTo(State.REMOVED);
    }

    @Test
    void deletesNothingBeforeTheDecisionsAreComplete() {
      CurrentRecord orphan = web.owned(webV1Published).build();
      CurrentRecord withdrawn = api.owned(endpointA("api.example.com", "192.0.2.9")).build();

      Plan p = plan(List.of(orphan, withdrawn), incomplete(api.withdraw()));

      assertThat(p.changes().isEmpty()).isTrue();
      assertThat(p.outcomes().get(web.key()).state()).isEqualTo(State.DEFERRED);
      assertThat(p.outcomes().get(api.key()).state()).isEqualTo(State.DEFERRED);
    }

    @Test
    void stillCreatesAndUpdatesBeforeTheDecisionsAreComplete() {
      Plan p = plan(List.of(), incomplete(web.publish(webV1)));

      assertThat(keys(p.changes().creates())).containsExactly(web.key());
    }

    @Test
    void deletesAnOwnedObjectWithoutSourceAnnotationThatNobodyClaims() {
      CurrentRecord anonymous =
          web.owned(webV1Published).withoutAnnotation(Ownership.SOURCE_ANNOTATION).build();

      Plan p = plan(List.of(anonymous), complete());

      assertThat(keys(p.changes().deletes())).containsExactly(web.key());
    }
  }

  @Nested
  class Owning {

    @Test
    void neverWritesAForeignObjectAndNamesBothOwners() {
      CurrentRecord foreign = Current.foreign(web.key(), "k8s-direct-dns", webV1Published).build();

      Plan p = plan(List.of(foreign), complete(web.publish(webV2)));

      assertThat(p.changes().isEmpty()).isTrue();
      Outcome o = p.outcomes().get(web.key());
      assertThat(o.state()).isEqualTo(State.CONFLICT);
      assertThat(o.conflicts())
          .containsExactly(
              new Conflict(
                  web.key(),
                  "HTTPRoute/shop/web",
                  "app.kubernetes.io/managed-by=k8s-direct-dns",
                  Conflict.Kind.FOREIGN_OBJECT));
      assertThat(o.conflicts().get(0).describe())
          .contains("HTTPRoute/shop/web")
          .contains("k8s-direct-dns");
    }

    @Test
    void neverDeletesAForeignObjectEvenOnWithdraw() {
      CurrentRecord foreign = Current.foreign(web.key(), null, webV1Published).build();

      Plan p = plan(List.of(foreign), complete(web.withdraw()));

      assertThat(p.changes().isEmpty()).isTrue();
      assertThat(p.outcomes().get(web.key()).conflicts().get(0).holder())
          .contains("no app.kubernetes.io/managed-by label");
    }

    @Test
    void ignoresAForeignObjectNobodyWants() {
      CurrentRecord foreign = Current.foreign(web.key(), "someone", webV1Published).build();

      Plan p = plan(List.of(foreign), complete());

      assertThat(p.changes().isEmpty()).isTrue();
      assertThat(p.outcomes()).isEmpty();
    }

    @Test
    void keepsTheObjectWithTheSourceThatHoldsItWhenASecondSourceWantsTheSameName() {
      CurrentRecord held = web.owned(webV1Published).build();
      Decision intruder = route("shop", "intruder").named(web.key().name());

      Plan p =
          plan(
              List.of(held),
              complete(web.publish(webV1), intruder.publish(a("x.example.com", "192.0.2.7"))));

      assertThat(p.changes().isEmpty()).isTrue();
      assertThat(p.outcomes().get(web.key()).conflicts())
          .extracting(Conflict::claimant, Conflict::kind)
          .containsExactly(tuple("HTTPRoute/shop/intruder", Conflict.Kind.CLAIMED_BY_OTHER_SOURCE));
    }

    @Test
    void givesANewNameToTheSourceThatSortsFirst() {
      Decision second = route("shop", "zz").named(web.key().name());

      Plan p = plan(List.of(), complete(second.publish(webV2), web.publish(webV1)));

      assertThat(p.changes().creates()).hasSize(1);
      assertThat(p.changes().creates().get(0).desired().source()).isEqualTo("HTTPRoute/shop/web");
      assertThat(p.outcomes().get(web.key()).conflicts()).hasSize(1);
    }

    @Test
    void waitsForAllDecisionsBeforeTakingAnObjectFromAnotherSource() {
      CurrentRecord heldByOld =
          route("shop", "old").named(web.key().name()).owned(webV1Published).build();

      Plan before = plan(List.of(heldByOld), incomplete(web.publish(webV2)));
      Plan after = plan(List.of(heldByOld), complete(web.publish(webV2)));

      assertThat(before.changes().isEmpty()).isTrue();
      assertThat(before.outcomes().get(web.key()).conflicts().get(0).kind())
          .isEqualTo(Conflict.Kind.PENDING_SYNC);
      assertThat(after.changes().updates()).hasSize(1);
      assertThat(after.changes().updates().get(0).reason()).isEqualTo(ChangeReason.ADOPT);
      assertThat(after.changes().updates().get(0).desired().source())
          .isEqualTo("HTTPRoute/shop/web");
    }

    @Test
    void adoptsAnOwnedObjectWithoutSourceAnnotation() {
      CurrentRecord migrated =
          web.owned(webV1Published).withoutAnnotation(Ownership.SOURCE_ANNOTATION).build();

      Plan p = plan(List.of(migrated), incomplete(web.publish(webV1)));

      assertThat(p.changes().updates()).hasSize(1);
      assertThat(p.changes().updates().get(0).desired().source()).isEqualTo("HTTPRoute/shop/web");
    }

    @Test
    void setsNoOwnerReferenceAcrossNamespaces() {
      Decision elsewhere = route("shop", "web").inNamespace("dns");

      Plan p = plan(List.of(), complete(elsewhere.publish(webV1)));

      Create c = p.changes().creates().get(0);
      assertThat(c.desired().controller()).isNull();
      assertThat(p.outcomes().get(elsewhere.key()).notes())
          .anySatisfy(n -> assertThat(n.reason()).contains("cannot cross namespaces"));
    }

    @Test
    void keepsAMatchingOwnerReferenceWhenTheUidIsUnknown() {
      CurrentRecord current = web.owned(webV1Published).build();
      Decision noUid = route("shop", "web").uid(null);

      Plan p = plan(List.of(current), complete(noUid.publish(webV1)));

      assertThat(p.changes().isEmpty()).isTrue();
    }

    @Test
    void dropsAnOwnerReferenceToAnotherObjectWhenTheUidIsUnknown() {
      CurrentRecord current =
          web.owned(webV1Published)
              .controller(new ControllerRef(PlanFixtures.ROUTE_API, "HTTPRoute", "other", "u1"))
              .build();
      Decision noUid = route("shop", "web").uid(null);

      Plan p = plan(List.of(current), complete(noUid.publish(webV1)));

      assertThat(p.changes().updates().get(0).desired().controller()).isNull();
    }

    @Test
    void writesObjectLabelsAsValidLabelValuesAndKeepsTheOwnershipLabel() {
      String longValue = "x".repeat(80);
      Decision labelled =
          route("shop", "web")
              .labels(
                  Map.of(
                      "k8gb.io/dnstype", "local",
                      "team", longValue,
                      "app.kubernetes.io/managed-by", "someone-else",
                      "bad key!", "v"));

      Plan p = plan(List.of(), complete(labelled.publish(webV1)));

      Map<String, String> labels = p.changes().creates().get(0).desired().labels();
      assertThat(labels)
          .containsEntry("k8gb.io/dnstype", "local")
          .containsEntry("app.kubernetes.io/managed-by", "cairn")
          .doesNotContainKey("bad key!");
      assertThat(labels.get("team")).hasSizeLessThanOrEqualTo(63).isNotEqualTo(longValue);
      assertThat(LabelValues.isValidValue(labels.get("team"))).isTrue();
      assertThat(p.outcomes().get(labelled.key()).notes()).hasSize(3);
    }
  }

  @Nested
  class Grace {

    @Test
    void startsTheGracePeriodByRecordingItsStart() {
      CurrentRecord current = web.owned(webV1Published).build();

      Plan p = plan(List.of(current), complete(web.noTargets()));

      assertThat(p.changes().updates()).hasSize(1);
      Update u = p.changes().updates().get(0);
      assertThat(u.reason()).isEqualTo(ChangeReason.GRACE_START);
      assertThat(u.desired().staleSince()).isEqualTo("2026-03-14T12:00:00Z");
      assertThat(u.desired().endpoints()).isEqualTo(current.endpoints());
      assertThat(p.graceWindows().get(web.key()).expiresAt())
          .isEqualTo(NOW.plus(Duration.ofMinutes(5)));
    }

    @Test
    void keepsTheRecordWithoutWritesDuringTheGracePeriod() {
      CurrentRecord current = web.owned(webV1Published).staleSince("2026-03-14T11:58:00Z").build();

      Plan p = plan(List.of(current), complete(web.noTargets()));

      assertThat(p.changes().isEmpty()).isTrue();
      Outcome o = p.outcomes().get(web.key());
      assertThat(o.state()).isEqualTo(State.IN_GRACE);
      assertThat(o.grace().expiresAt()).isEqualTo(at("2026-03-14T12:03:00Z"));
    }

    @Test
    void readsAStartWithAnOffsetAndAFraction() {
      CurrentRecord current =
          web.owned(webV1Published).staleSince(" 2026-03-14T13:58:00.25+02:00 ").build();

      Plan p = plan(List.of(current), complete(web.noTargets()));

      assertThat(p.changes().isEmpty()).isTrue();
      assertThat(p.outcomes().get(web.key()).grace().staleSince())
          .isEqualTo(at("2026-03-14T11:58:00.25Z"));
    }

    @Test
    void deletesTheRecordWhenTheGracePeriodEnds() {
      CurrentRecord current = web.owned(webV1Published).staleSince("2026-03-14T11:55:00Z").build();

      Plan p = plan(List.of(current), complete(web.noTargets()));

      assertThat(p.changes().deletes())
          .containsExactly(new Delete(current, ChangeReason.GRACE_EXPIRED));
    }

    @Test
    void usesTheGracePeriodOfTheDecision() {
      CurrentRecord current = web.owned(webV1Published).staleSince("2026-03-14T11:58:00Z").build();
      Decision shortGrace = route("shop", "web").grace(60);

      Plan p = plan(List.of(current), complete(shortGrace.noTargets()));

      assertThat(p.changes().deletes()).hasSize(1);
    }

    /**
     * A grace period no route annotation can give (the engine allows 10 years at most; a decision
     * sent by hand) is reported, naming the field, and the writer's default is used. It used to
     * overflow the expiry instant, so every plan of the object failed with an exception that named
     * no field.
     */
    @Test
    void anEndlessGracePeriodIsReportedAndTheDefaultIsUsed() {
      CurrentRecord current = web.owned(webV1Published).staleSince("2026-03-14T11:58:00Z").build();
      Decision endless = route("shop", "web").grace(Long.MAX_VALUE);

      Plan p = plan(List.of(current), complete(endless.noTargets()));

      Outcome o = p.outcomes().get(web.key());
      assertThat(o.state()).isEqualTo(State.IN_GRACE);
      assertThat(o.grace().expiresAt()).isEqualTo(at("2026-03-14T12:03:00Z"));
      assertThat(o.notes()).extracting(Problem::field).containsExactly("gracePeriodSeconds");
    }

    /** A Gslb keeps its host records through the grace period, never its localtargets records. */
    @Test
    void aGslbWithoutTargetsWithdrawsItsLocalTargetsAtOnceAndKeepsItsHostRecords() {
      Decision gslb = new Decision(ObjectRef.of("Gslb", "shop", "app"), "shop", "app");
      Endpoint host = endpointA("app.cloud.example.com", "192.0.2.10");
      Endpoint local = endpointA("localtargets-app.cloud.example.com", "192.0.2.10");
      CurrentRecord current = gslb.owned(host, local).build();

      Plan p = plan(List.of(current), complete(gslb.noTargets()));

      Update u = p.changes().updates().get(0);
      assertThat(u.reason()).isEqualTo(ChangeReason.GRACE_START);
      assertThat(u.desired().endpoints()).containsExactly(host);
      assertThat(p.outcomes().get(gslb.key()).state()).isEqualTo(State.IN_GRACE);

      // a grace period begun before: its localtargets records go at the next plan
      CurrentRecord inGrace = gslb.owned(host, local).staleSince("2026-03-14T11:58:00Z").build();
      Update later = plan(List.of(inGrace), complete(gslb.noTargets())).changes().updates().get(0);
      assertThat(later.reason()).isEqualTo(ChangeReason.LOCAL_TARGETS_WITHDRAWN);
      assertThat(later.desired().endpoints()).containsExactly(host);
      assertThat(later.desired().staleSince()).isEqualTo("2026-03-14T11:58:00Z");

      // nothing but localtargets records: nothing to keep
      CurrentRecord onlyLocal = gslb.owned(local).build();
      assertThat(plan(List.of(onlyLocal), complete(gslb.noTargets())).changes().deletes())
          .containsExactly(new Delete(onlyLocal, ChangeReason.LOCAL_TARGETS_WITHDRAWN));
    }

    @Test
    void aRouteKeepsEveryRecordThroughItsGracePeriodWhateverItsName() {
      Endpoint named = endpointA("localtargets-blog.example.com", "192.0.2.10");
      CurrentRecord current = web.owned(named).build();

      Plan p = plan(List.of(current), complete(web.noTargets()));

      assertThat(p.changes().updates().get(0).desired().endpoints()).containsExactly(named);
    }

    @Test
    void deletesAtOnceWhenTheGracePeriodIsZero() {
      CurrentRecord current = web.owned(webV1Published).build();
      RecordPlan noGrace = new RecordPlan(Duration.ZERO);

      Plan p = noGrace.plan(List.of(current), complete(web.noTargets()), NOW);

      assertThat(p.changes().deletes())
          .containsExactly(new Delete(current, ChangeReason.GRACE_DISABLED));
    }

    @Test
    void deletesAtOnceWhenThereIsNothingToKeep() {
      CurrentRecord empty = web.owned().build();

      Plan p = plan(List.of(empty), complete(web.noTargets()));

      assertThat(p.changes().deletes())
          .containsExactly(new Delete(empty, ChangeReason.NOTHING_TO_KEEP));
    }

    @Test
    void createsNothingWithoutTargets() {
      Plan p = plan(List.of(), complete(web.noTargets()));

      assertThat(p.changes().isEmpty()).isTrue();
      assertThat(p.outcomes().get(web.key()).state()).isEqualTo(State.ABSENT);
    }

    @Test
    void restoresAtOnceWhenTargetsReturn() {
      CurrentRecord current = web.owned(webV1Published).staleSince("2026-03-14T11:58:00Z").build();

      Plan p = plan(List.of(current), complete(web.publish(webV1)));

      Update u = p.changes().updates().get(0);
      assertThat(u.reason()).isEqualTo(ChangeReason.RESTORE);
      assertThat(u.desired().staleSince()).isNull();
      assertThat(u.desired().endpoints()).containsExactly(webV1Published);
    }

    @Test
    void resetsAStartInTheFutureToNowAndReportsIt() {
      CurrentRecord current = web.owned(webV1Published).staleSince("2027-01-01T00:00:00Z").build();

      Plan p = plan(List.of(current), complete(web.noTargets()));

      Update u = p.changes().updates().get(0);
      assertThat(u.reason()).isEqualTo(ChangeReason.GRACE_RESET);
      assertThat(u.desired().staleSince()).isEqualTo("2026-03-14T12:00:00Z");
      Outcome o = p.outcomes().get(web.key());
      assertThat(o.staleSinceReset().cause()).isEqualTo(Cause.FUTURE);
      assertThat(o.staleSinceReset().found()).isEqualTo("2027-01-01T00:00:00Z");
      assertThat(o.grace().expiresAt()).isEqualTo(NOW.plus(Duration.ofMinutes(5)));
    }

    @Test
    void resetsAnUnreadableStartToNowAndReportsIt() {
      CurrentRecord current = web.owned(webV1Published).staleSince("yesterday").build();

      Plan p = plan(List.of(current), complete(web.noTargets()));

      assertThat(p.changes().updates().get(0).desired().staleSince())
          .isEqualTo("2026-03-14T12:00:00Z");
      assertThat(p.outcomes().get(web.key()).staleSinceReset().cause())
          .isEqualTo(Cause.UNPARSEABLE);
    }

    @Test
    void keepsAGraceTimerAcrossARestartOfThePlanner() {
      CurrentRecord started =
          written(
              plan(List.of(web.owned(webV1Published).build()), complete(web.noTargets()))
                  .changes()
                  .updates()
                  .get(0)
                  .desired());
      RecordPlan restarted = new RecordPlan(Duration.ofMinutes(5));

      Plan later =
          restarted.plan(List.of(started), complete(web.noTargets()), NOW.plusSeconds(299));
      Plan expired =
          restarted.plan(List.of(started), complete(web.noTargets()), NOW.plusSeconds(300));

      assertThat(later.changes().isEmpty()).isTrue();
      assertThat(keys(expired.changes().deletes())).containsExactly(web.key());
    }

    @Test
    void defersTheExpiryDeleteUntilTheDecisionsAreComplete() {
      CurrentRecord current = web.owned(webV1Published).staleSince("2026-03-14T11:00:00Z").build();

      Plan p = plan(List.of(current), incomplete(web.noTargets()));

      assertThat(p.changes().isEmpty()).isTrue();
      assertThat(p.outcomes().get(web.key()).state()).isEqualTo(State.DEFERRED);
    }

    private static Instant at(String text) {
      return Instant.parse(text);
    }
  }

  @Nested
  class Validation {

    @Test
    void rejectsInvalidEndpointsAndWritesTheValidRest() {
      DnsRecord v6InA = a("v6.example.com", "2001:db8::1");
      DnsRecord twoCnames =
          DnsRecord.of("c.example.com", "CNAME", 30, List.of("a.example.net", "b.example.net"));

      Plan p = plan(List.of(), complete(web.publish(webV1, v6InA, twoCnames)));

      assertThat(p.changes().creates().get(0).desired().endpoints())
          .containsExactly(webV1Published);
      Outcome o = p.outcomes().get(web.key());
      assertThat(o.rejected())
          .extracting(Problem::field)
          .containsExactly("records[1].targets[0]", "records[2].targets");
    }

    @Test
    void leavesThePublishedRecordAloneWhenEveryEndpointIsInvalid() {
      CurrentRecord current = web.owned(webV1Published).build();

      Plan p = plan(List.of(current), complete(web.publish(a("web.example.com", "not-an-ip"))));

      assertThat(p.changes().isEmpty()).isTrue();
      assertThat(p.outcomes().get(web.key()).state()).isEqualTo(State.INVALID);
      assertThat(p.outcomes().get(web.key()).rejected()).hasSize(1);
    }

    @Test
    void rejectsADecisionThatNamesNoValidObjectAndKeepsWhatItsSourceHolds() {
      CurrentRecord held = web.owned(webV1Published).build();
      TargetDecision bad = route("shop", "web").named("Not_A_Name").publish(webV1);

      Plan p = plan(List.of(held), complete(bad));

      assertThat(p.changes().isEmpty()).isTrue();
      assertThat(p.invalidDecisions()).containsKey("HTTPRoute/shop/web");
      assertThat(p.invalidDecisions().get("HTTPRoute/shop/web").field()).isEqualTo("name");
      assertThat(p.outcomes().get(web.key()).state()).isEqualTo(State.INVALID);
    }

    @Test
    void rejectsADecisionKeyedUnderAnotherSource() {
      TargetDecision d = web.publish(webV1);
      DesiredState desired =
          new DesiredState(Map.of(ObjectRef.of("HTTPRoute", "shop", "other").key(), d), true);

      Plan p = plan(List.of(), desired);

      assertThat(p.changes().isEmpty()).isTrue();
      assertThat(p.invalidDecisions().get("HTTPRoute/shop/other").field()).isEqualTo("source");
    }
  }

  @Test
  void plansManyObjectsIndependently() {
    List<CurrentRecord> current = new ArrayList<>();
    List<TargetDecision> decisions = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      Decision d = route("ns" + (i % 5), "r" + i);
      DnsRecord r = a("r" + i + ".example.com", "192.0.2." + (i + 1));
      decisions.add(d.publish(r));
      if (i % 2 == 0) {
        current.add(d.owned(Endpoint.of("r" + i + ".example.com", "A", 30, r.targets())).build());
      }
    }

    Plan p = plan(current, complete(decisions.toArray(TargetDecision[]::new)));

    assertThat(p.changes().creates()).hasSize(25);
    assertThat(p.changes().updates()).isEmpty();
    assertThat(p.changes().deletes()).isEmpty();
    assertThat(p.outcomes()).hasSize(50);
  }

  /** One DNSEndpoint per DNS name: a name another DNSEndpoint keeps is left out. */
  @Nested
  class NamesHeldElsewhere {

    private final Decision other = route("blog", "web");
    private final DnsRecord localA = a("localtargets-web.example.com", "192.0.2.1");

    private DesiredState held(boolean complete, Map<DnsName, ObjectKey> names, TargetDecision d) {
      return new DesiredState(Map.of(d.source().key(), d), complete, Map.of(web.key(), names));
    }

    @Test
    void leavesOutTheNameAndWritesTheRest() {
      TargetDecision d = web.publish(webV1, localA);

      Plan p =
          plan(List.of(), held(true, Map.of(new DnsName("WEB.example.com.", "a"), other.key()), d));

      assertThat(p.changes().creates())
          .singleElement()
          .satisfies(
              c ->
                  assertThat(c.desired().endpoints())
                      .containsExactly(endpointA("localtargets-web.example.com", "192.0.2.1")));
      Outcome o = p.outcomes().get(web.key());
      assertThat(o.state()).isEqualTo(State.PUBLISHED);
      assertThat(o.conflicts())
          .singleElement()
          .satisfies(
              c -> {
                assertThat(c.kind()).isEqualTo(Conflict.Kind.NAME_HELD_ELSEWHERE);
                assertThat(c.name()).isEqualTo(new DnsName("web.example.com", "A"));
                assertThat(c.describe())
                    .isEqualTo(
                        "A web.example.com wanted by HTTPRoute/shop/web in DNSEndpoint"
                            + " shop/httproute-web is declared by DNSEndpoint blog/httproute-web,"
                            + " which keeps it; it is left out of shop/httproute-web");
              });
    }

    @Test
    void createsNothingWhenEveryNameIsKeptElsewhere() {
      Plan p =
          plan(
              List.of(),
              held(
                  true,
                  Map.of(new DnsName("web.example.com", "A"), other.key()),
                  web.publish(webV1)));

      assertThat(p.changes().creates()).isEmpty();
      assertThat(p.outcomes().get(web.key()).state()).isEqualTo(State.CONFLICT);
    }

    @Test
    void deletesTheObjectWhenEveryNameIsKeptElsewhereOnceTheDecisionsAreComplete() {
      CurrentRecord current = web.owned(webV1Published).build();
      Map<DnsName, ObjectKey> names = Map.of(new DnsName("web.example.com", "A"), other.key());

      Plan complete = plan(List.of(current), held(true, names, web.publish(webV1)));
      Plan incomplete = plan(List.of(current), held(false, names, web.publish(webV1)));

      assertThat(complete.changes().deletes())
          .singleElement()
          .satisfies(d -> assertThat(d.reason()).isEqualTo(ChangeReason.NAMES_HELD_ELSEWHERE));
      assertThat(complete.outcomes().get(web.key()).state()).isEqualTo(State.REMOVED);
      assertThat(incomplete.changes().deletes()).isEmpty();
      assertThat(incomplete.outcomes().get(web.key()).state()).isEqualTo(State.DEFERRED);
    }

    @Test
    void updatesAnObjectThatStillDeclaresTheName() {
      CurrentRecord current =
          web.owned(webV1Published, endpointA("localtargets-web.example.com", "192.0.2.1")).build();

      Plan p =
          plan(
              List.of(current),
              held(
                  true,
                  Map.of(new DnsName("web.example.com", "A"), other.key()),
                  web.publish(webV1, localA)));

      assertThat(p.changes().updates())
          .singleElement()
          .satisfies(
              u ->
                  assertThat(u.desired().endpoints())
                      .containsExactly(endpointA("localtargets-web.example.com", "192.0.2.1")));
    }

    @Test
    void aRecordInItsGracePeriodLeavesOutANameKeptElsewhereAndKeepsTheRest() {
      Endpoint local = endpointA("localtargets-web.example.com", "192.0.2.1");
      CurrentRecord current =
          web.owned(webV1Published, local).staleSince("2026-03-14T11:58:00Z").build();

      Plan p =
          plan(
              List.of(current),
              held(
                  true, Map.of(new DnsName("web.example.com", "A"), other.key()), web.noTargets()));

      assertThat(p.changes().updates())
          .singleElement()
          .satisfies(
              u -> {
                assertThat(u.reason()).isEqualTo(ChangeReason.NAMES_HELD_ELSEWHERE);
                assertThat(u.desired().endpoints()).containsExactly(local);
                assertThat(u.desired().staleSince()).isEqualTo("2026-03-14T11:58:00Z");
              });
      Outcome o = p.outcomes().get(web.key());
      assertThat(o.state()).isEqualTo(State.IN_GRACE);
      assertThat(o.conflicts())
          .singleElement()
          .satisfies(c -> assertThat(c.kind()).isEqualTo(Conflict.Kind.NAME_HELD_ELSEWHERE));
    }

    @Test
    void aRecordInItsGracePeriodWhoseEveryNameIsKeptElsewhereIsDeletedOnceComplete() {
      CurrentRecord current = web.owned(webV1Published).staleSince("2026-03-14T11:58:00Z").build();
      Map<DnsName, ObjectKey> names = Map.of(new DnsName("web.example.com", "A"), other.key());

      Plan complete = plan(List.of(current), held(true, names, web.noTargets()));
      Plan incomplete = plan(List.of(current), held(false, names, web.noTargets()));

      assertThat(complete.changes().deletes())
          .containsExactly(new Delete(current, ChangeReason.NAMES_HELD_ELSEWHERE));
      assertThat(incomplete.changes().deletes()).isEmpty();
      assertThat(incomplete.outcomes().get(web.key()).state()).isEqualTo(State.DEFERRED);
    }

    @Test
    void aRecordInItsGracePeriodKeepsEveryNameNoOneElseKeeps() {
      CurrentRecord current = web.owned(webV1Published).staleSince("2026-03-14T11:58:00Z").build();

      Plan p =
          plan(
              List.of(current),
              held(
                  true,
                  Map.of(new DnsName("web.example.com", "AAAA"), other.key()),
                  web.noTargets()));

      assertThat(p.changes().isEmpty()).isTrue();
      assertThat(p.outcomes().get(web.key()).state()).isEqualTo(State.IN_GRACE);
      assertThat(p.outcomes().get(web.key()).conflicts()).isEmpty();
    }

    @Test
    void aNameOfAnotherTypeIsNotHeld() {
      Plan p =
          plan(
              List.of(),
              held(
                  true,
                  Map.of(new DnsName("web.example.com", "AAAA"), other.key()),
                  web.publish(webV1)));

      assertThat(p.changes().creates())
          .singleElement()
          .satisfies(c -> assertThat(c.desired().endpoints()).containsExactly(webV1Published));
      assertThat(p.outcomes().get(web.key()).conflicts()).isEmpty();
    }
  }
}
