package dev.cairn.dnsresponder.zone;

import static dev.cairn.dnsresponder.zone.ZoneFixtures.EARLIER;
import static dev.cairn.dnsresponder.zone.ZoneFixtures.NOW;
import static dev.cairn.dnsresponder.zone.ZoneFixtures.endpoint;
import static dev.cairn.dnsresponder.zone.ZoneFixtures.labelled;
import static dev.cairn.dnsresponder.zone.ZoneFixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnapshotBuilderTest {

  private static List<String> values(RecordSet set) {
    return set.targets().stream().map(Target::value).toList();
  }

  private static List<String> problemFields(ZoneSnapshot s) {
    return s.problems().stream().map(p -> p.source() + " " + p.problem().field()).toList();
  }

  @Test
  void indexesNamesCaseInsensitivelyWithoutTrailingDot() {
    ZoneSnapshot s = snapshot(endpoint("a", 0, "App.Cloud.Example.COM.", "A", 30, "192.0.2.1"));

    RecordSet set = s.node("app.cloud.example.com").get(RecordKind.A);
    assertThat(values(set)).containsExactly("192.0.2.1");
    assertThat(set.ttlSeconds()).isEqualTo(30);
    assertThat(s.problems()).isEmpty();
  }

  @Test
  void usesTheDefaultTtlWhenRecordTtlIsZeroOrOutOfRange() {
    ZoneSnapshot s =
        snapshot(
            endpoint("a", 0, "zero.cloud.example.com", "A", 0, "192.0.2.1"),
            endpoint("a", 1, "huge.cloud.example.com", "A", 4_000_000_000L, "192.0.2.2"));

    assertThat(s.node("zero.cloud.example.com").get(RecordKind.A).ttlSeconds()).isEqualTo(60);
    assertThat(s.node("huge.cloud.example.com").get(RecordKind.A).ttlSeconds()).isEqualTo(60);
    assertThat(problemFields(s)).containsExactly("ns/a spec.endpoints[1].recordTTL");
  }

  @Test
  void keepsAddressFamiliesApartAndDropsTargetsOfTheWrongFamily() {
    ZoneSnapshot s =
        snapshot(
            endpoint("a", 0, "app.cloud.example.com", "A", 0, "192.0.2.1", "2001:db8::1", "x"),
            endpoint("a", 1, "app.cloud.example.com", "AAAA", 0, "2001:DB8::0:2", "192.0.2.9"));

    Node node = s.node("app.cloud.example.com");
    assertThat(values(node.get(RecordKind.A))).containsExactly("192.0.2.1");
    assertThat(values(node.get(RecordKind.AAAA))).containsExactly("2001:db8::2");
    assertThat(problemFields(s))
        .containsExactly(
            "ns/a spec.endpoints[0].targets[1]",
            "ns/a spec.endpoints[0].targets[2]",
            "ns/a spec.endpoints[1].targets[1]");
  }

  @Test
  void anEndpointWithoutValidTargetsPublishesNothing() {
    ZoneSnapshot s = snapshot(endpoint("a", 0, "app.cloud.example.com", "A", 0, "not-an-ip"));

    assertThat(s.node("app.cloud.example.com")).isNull();
    assertThat(problemFields(s))
        .containsExactly("ns/a spec.endpoints[0].targets[0]", "ns/a spec.endpoints[0].targets");
  }

  @Test
  void infersAOrAaaaByFamilyWhenRecordTypeIsMissing() {
    ZoneSnapshot s =
        snapshot(endpoint("a", 0, "app.cloud.example.com", null, 0, "192.0.2.1", "2001:db8::1"));

    Node node = s.node("app.cloud.example.com");
    assertThat(values(node.get(RecordKind.A))).containsExactly("192.0.2.1");
    assertThat(values(node.get(RecordKind.AAAA))).containsExactly("2001:db8::1");
  }

  @Test
  void refusesUnsupportedTypesWildcardsAndNamesOutsideTheZones() {
    ZoneSnapshot s =
        snapshot(
            endpoint("a", 0, "mx.cloud.example.com", "MX", 0, "10 mail.example.com"),
            endpoint("a", 1, "*.cloud.example.com", "A", 0, "192.0.2.1"),
            endpoint("a", 2, "app.example.org", "A", 0, "192.0.2.1"),
            endpoint("a", 3, "bad name.cloud.example.com", "A", 0, "192.0.2.1"));

    assertThat(s.node("mx.cloud.example.com")).isNull();
    assertThat(problemFields(s))
        .containsExactly(
            "ns/a spec.endpoints[0].recordType",
            "ns/a spec.endpoints[1].dnsName",
            "ns/a spec.endpoints[2].dnsName",
            "ns/a spec.endpoints[3].dnsName");
  }

  @Test
  void theOlderObjectWinsASameNameAndTypeConflict() {
    EndpointInput newer =
        new EndpointInput(
            "ns/newer",
            Instant.parse("2026-11-29T11:30:00Z"),
            0,
            "app.cloud.example.com",
            "A",
            0,
            List.of("192.0.2.2"),
            Map.of());
    EndpointInput older =
        new EndpointInput(
            "ns/z-older",
            EARLIER,
            0,
            "app.cloud.example.com",
            "A",
            0,
            List.of("192.0.2.1"),
            Map.of());

    ZoneSnapshot s = snapshot(newer, older);

    assertThat(values(s.node("app.cloud.example.com").get(RecordKind.A)))
        .containsExactly("192.0.2.1");
    assertThat(s.problems()).hasSize(1);
    assertThat(s.problems().get(0).source()).isEqualTo("ns/newer");
    assertThat(s.problems().get(0).problem().reason()).contains("already declared by ns/z-older");
  }

  @Test
  void conflictsResolveTheSameWhateverTheInputOrder() {
    List<EndpointInput> inputs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      inputs.add(
          endpoint(
              "o" + i,
              0,
              "app.cloud.example.com",
              i % 2 == 0 ? "A" : "CNAME",
              0,
              i % 2 == 0 ? "192.0.2." + (i + 1) : "x" + i + ".example.net"));
    }
    ZoneSnapshot first = snapshot(inputs);
    Collections.reverse(inputs);
    ZoneSnapshot second = snapshot(inputs);

    assertThat(first.node("app.cloud.example.com").sets())
        .isEqualTo(second.node("app.cloud.example.com").sets());
    assertThat(values(first.node("app.cloud.example.com").get(RecordKind.A)))
        .containsExactly("192.0.2.1"); // ns/o0 sorts first among equal creation times
    assertThat(first.problems()).containsExactlyInAnyOrderElementsOf(second.problems());
  }

  @Test
  void aCnameCannotShareItsNameWithOtherData() {
    ZoneSnapshot cnameFirst =
        snapshot(
            endpoint("a", 0, "www.cloud.example.com", "CNAME", 0, "app.cloud.example.com"),
            endpoint("b", 0, "www.cloud.example.com", "TXT", 0, "hello"));
    ZoneSnapshot dataFirst =
        snapshot(
            endpoint("a", 0, "www.cloud.example.com", "TXT", 0, "hello"),
            endpoint("b", 0, "www.cloud.example.com", "CNAME", 0, "app.cloud.example.com"));

    assertThat(cnameFirst.node("www.cloud.example.com").sets()).containsOnlyKeys(RecordKind.CNAME);
    assertThat(dataFirst.node("www.cloud.example.com").sets()).containsOnlyKeys(RecordKind.TXT);
    assertThat(cnameFirst.problems())
        .singleElement()
        .extracting(SourcedProblem::source)
        .isEqualTo("ns/b");
    assertThat(dataFirst.problems())
        .singleElement()
        .extracting(SourcedProblem::source)
        .isEqualTo("ns/b");
  }

  @Test
  void refusesACnameAtTheApexAndCnamesWithSeveralTargets() {
    ZoneSnapshot s =
        snapshot(
            endpoint("a", 0, "cloud.example.com", "CNAME", 0, "elsewhere.example.net"),
            endpoint(
                "a", 1, "www.cloud.example.com", "CNAME", 0, "a.example.net", "b.example.net"));

    assertThat(s.node("cloud.example.com").isEmptyNonTerminal()).isTrue();
    assertThat(s.node("www.cloud.example.com")).isNull();
    assertThat(s.problems()).hasSize(3);
  }

  @Test
  void allowsAddressRecordsAtTheApex() {
    ZoneSnapshot s = snapshot(endpoint("a", 0, "cloud.example.com", "A", 0, "192.0.2.7"));

    assertThat(values(s.node("cloud.example.com").get(RecordKind.A))).containsExactly("192.0.2.7");
  }

  @Test
  void createsEmptyNonTerminalsUpToTheApex() {
    ZoneSnapshot s = snapshot(endpoint("a", 0, "x.y.app.cloud.example.com", "A", 0, "192.0.2.1"));

    assertThat(s.node("y.app.cloud.example.com").isEmptyNonTerminal()).isTrue();
    assertThat(s.node("app.cloud.example.com").isEmptyNonTerminal()).isTrue();
    assertThat(s.node("cloud.example.com").isEmptyNonTerminal()).isTrue();
    assertThat(s.node("other.cloud.example.com")).isNull();
    assertThat(s.nameCount()).isEqualTo(5); // 3 above + the record + ns1 glue
  }

  @Test
  void servesConfiguredGlueAndProtectsIt() {
    ZoneSnapshot s = snapshot(endpoint("a", 0, "ns1.cloud.example.com", "A", 0, "192.0.2.99"));

    assertThat(values(s.node("ns1.cloud.example.com").get(RecordKind.A)))
        .containsExactly("192.0.2.53");
    assertThat(values(s.node("ns1.cloud.example.com").get(RecordKind.AAAA)))
        .containsExactly("2001:db8::53");
    assertThat(s.problems()).singleElement().extracting(SourcedProblem::source).isEqualTo("ns/a");
  }

  @Test
  void appliesCompleteWeightLabelsOnly() {
    ZoneSnapshot s =
        snapshot(
            labelled(
                "a",
                "w.cloud.example.com",
                "A",
                Map.of("weight-eu-west-0-80", "192.0.2.1", "weight-us-0-20", "192.0.2.2"),
                "192.0.2.1",
                "192.0.2.2"),
            labelled(
                "b",
                "partial.cloud.example.com",
                "A",
                Map.of("weight-eu-0-80", "192.0.2.1"),
                "192.0.2.1",
                "192.0.2.2"));

    RecordSet weighted = s.node("w.cloud.example.com").get(RecordKind.A);
    assertThat(weighted.weighted()).isTrue();
    assertThat(weighted.targets())
        .extracting(Target::tag, Target::weight)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("eu-west", 80),
            org.assertj.core.groups.Tuple.tuple("us", 20));
    RecordSet partial = s.node("partial.cloud.example.com").get(RecordKind.A);
    assertThat(partial.weighted()).isFalse();
    assertThat(partial.targets()).allMatch(t -> !t.weighted());
    assertThat(problemFields(s)).containsExactly("ns/b spec.endpoints[0].labels");
  }

  @Test
  void refusesABuildOverTheRecordCap() {
    BuildResult result =
        SnapshotBuilder.build(
            ZoneFixtures.zones(),
            List.of(endpoint("a", 0, "app.cloud.example.com", "A", 0, "192.0.2.1", "192.0.2.2")),
            new SnapshotBuilder.Limits(60, 3), // 2 glue records + 2
            NOW);

    assertThat(result).isInstanceOf(BuildResult.Refused.class);
    assertThat(((BuildResult.Refused) result).reason()).contains("responder.max-records");
  }

  @Test
  void aTxtTargetNoRecordCanCarryIsReportedAndTheOthersAreServed() {
    ZoneSnapshot s =
        snapshot(
            endpoint("a", 0, "app.cloud.example.com", "TXT", 0, "x".repeat(70_000), "owner=a"),
            endpoint("b", 0, "api.cloud.example.com", "A", 0, "192.0.2.1"));

    assertThat(values(s.node("app.cloud.example.com").sets().get(RecordKind.TXT)))
        .containsExactly("owner=a");
    assertThat(s.node("api.cloud.example.com").sets()).containsOnlyKeys(RecordKind.A);
    assertThat(s.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.source()).isEqualTo("ns/a");
              assertThat(p.problem().field()).endsWith(".targets[0]");
              assertThat(p.problem().reason()).startsWith("TXT text of 70000 octets takes 70275");
            });
  }

  @Test
  void countsRecordsAndKeepsTheSerialFromTheBuildTime() {
    ZoneSnapshot s = snapshot(endpoint("a", 0, "app.cloud.example.com", "TXT", 0, "a", "b", "a"));

    assertThat(s.recordCount()).isEqualTo(4); // 2 TXT (deduplicated) + 2 glue
    assertThat(s.serial()).isEqualTo(NOW.getEpochSecond());
    assertThat(s.builtAt()).isEqualTo(NOW);
  }

  // ------------------------------------------------------------------ reuse of a previous build
  // (IncrementalBuildTest compares builds from a previous one with the rules applied in one pass)

  @Test
  void anUnchangedEndpointKeepsItsRecordSetObjectAcrossBuilds() {
    EndpointInput kept = endpoint("a", 0, "app.cloud.example.com", "A", 30, "192.0.2.1");
    EndpointInput changed = endpoint("b", 0, "api.cloud.example.com", "A", 30, "192.0.2.2");
    ZoneSnapshot first = snapshot(kept, changed);
    EndpointInput changedAgain = endpoint("b", 0, "api.cloud.example.com", "A", 30, "192.0.2.3");

    ZoneSnapshot second =
        ((BuildResult.Built)
                SnapshotBuilder.build(
                    ZoneFixtures.zones(),
                    List.of(kept, changedAgain),
                    ZoneFixtures.limits(),
                    NOW,
                    first))
            .snapshot();

    assertThat(second.node("app.cloud.example.com").get(RecordKind.A))
        .isSameAs(first.node("app.cloud.example.com").get(RecordKind.A));
    assertThat(values(second.node("api.cloud.example.com").get(RecordKind.A)))
        .containsExactly("192.0.2.3");
    // Other limits (here the default TTL) make every endpoint derived again.
    ZoneSnapshot otherLimits =
        ((BuildResult.Built)
                SnapshotBuilder.build(
                    ZoneFixtures.zones(),
                    List.of(kept, changedAgain),
                    new SnapshotBuilder.Limits(90, 1_000_000),
                    NOW,
                    second))
            .snapshot();
    assertThat(otherLimits.node("app.cloud.example.com").get(RecordKind.A))
        .isNotSameAs(second.node("app.cloud.example.com").get(RecordKind.A))
        .isEqualTo(second.node("app.cloud.example.com").get(RecordKind.A));
  }
}
