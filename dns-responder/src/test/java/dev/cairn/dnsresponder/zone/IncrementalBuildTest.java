package dev.cairn.dnsresponder.zone;

import static dev.cairn.dnsresponder.zone.ZoneFixtures.EARLIER;
import static dev.cairn.dnsresponder.zone.ZoneFixtures.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.validation.Problem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A build from the served snapshot ({@link SnapshotBuilder#build(Zones, List,
 * SnapshotBuilder.Limits, Instant, ZoneSnapshot)}) equals what the rules give when applied in one
 * pass over every endpoint in precedence order: {@link Sequential} below is that pass, the
 * builder's algorithm before builds became incremental, kept here as the reference.
 */
class IncrementalBuildTest {

  private static final Zones ZONES = ZoneFixtures.zones();

  /** The one-pass build: every declaration applied in precedence order, then the nodes. */
  static final class Sequential {
    final Map<String, EnumMap<RecordKind, RecordSet>> sets = new LinkedHashMap<>();
    final List<SourcedProblem> problems = new ArrayList<>();
    int recordCount;

    static Sequential of(List<EndpointInput> inputs, SnapshotBuilder.Limits limits) {
      Sequential s = new Sequential();
      s.apply(SnapshotBuilder.deriveGlue(ZONES, limits));
      List<EndpointInput> ordered = new ArrayList<>(inputs);
      ordered.sort(SnapshotBuilder.PRECEDENCE); // stable: equals keep their list order
      for (EndpointInput input : ordered) {
        s.apply(SnapshotBuilder.derive(ZONES, limits, input));
      }
      return s;
    }

    void apply(SnapshotBuilder.Derived derived) {
      for (SnapshotBuilder.Step step : derived.steps()) {
        if (step instanceof SnapshotBuilder.Claim c) {
          claim(c.name(), c.set(), c.path());
        } else if (step instanceof SnapshotBuilder.Reported r) {
          problems.add(r.problem());
        }
      }
    }

    void claim(String name, RecordSet set, String path) {
      EnumMap<RecordKind, RecordSet> node =
          sets.computeIfAbsent(name, n -> new EnumMap<>(RecordKind.class));
      RecordSet existing = node.get(set.kind());
      String conflict = null;
      if (existing != null) {
        conflict = set.kind() + " " + name + " is already declared by " + existing.source();
      } else if (set.kind() == RecordKind.CNAME && !node.isEmpty()) {
        RecordSet other = node.values().iterator().next();
        conflict =
            "a CNAME cannot share "
                + name
                + " with the "
                + other.kind()
                + " declared by "
                + other.source();
      } else if (set.kind() != RecordKind.CNAME && node.containsKey(RecordKind.CNAME)) {
        conflict = name + " is already a CNAME declared by " + node.get(RecordKind.CNAME).source();
      }
      if (conflict != null) {
        problems.add(
            new SourcedProblem(
                set.source(),
                new Problem(path, name, conflict + "; the earlier declaration wins")));
        if (node.isEmpty()) {
          sets.remove(name);
        }
        return;
      }
      node.put(set.kind(), set);
      recordCount += set.targets().size();
    }

    /** Every name with sets, every apex, every empty non-terminal between them. */
    Map<String, Map<RecordKind, RecordSet>> nodes() {
      Map<String, Map<RecordKind, RecordSet>> nodes = new HashMap<>();
      sets.forEach((name, s) -> nodes.put(name, s));
      for (ZoneSpec zone : ZONES.specs()) {
        nodes.putIfAbsent(zone.name(), Map.of());
      }
      for (String name : sets.keySet()) {
        ZoneSpec zone = ZONES.zoneOf(name);
        String parent = name;
        while (!parent.equals(zone.name())) {
          int dot = parent.indexOf('.');
          parent = dot < 0 ? "" : parent.substring(dot + 1);
          nodes.putIfAbsent(parent, Map.of());
        }
      }
      return nodes;
    }
  }

  /** A random endpoint: good and bad names, types, targets, labels and ages, many colliding. */
  private static EndpointInput randomEndpoint(Random random, int object, int index) {
    String[] names = {
      "app.cloud.example.com",
      "api.cloud.example.com",
      "x.y.cloud.example.com",
      "deep.x.y.cloud.example.com",
      "y.cloud.example.com",
      "cloud.example.com",
      "ns1.cloud.example.com",
      "*.cloud.example.com",
      "other.example.net",
      "h" + random.nextInt(8) + ".cloud.example.com",
      "h" + random.nextInt(8) + ".z.cloud.example.com"
    };
    String[] types = {"A", "AAAA", "CNAME", "TXT", null, "MX"};
    String[] targets = {
      "192.0.2." + (1 + random.nextInt(3)),
      "2001:db8::" + (1 + random.nextInt(3)),
      "not-an-ip",
      "target.example.net",
      "text value",
      " 192.0.2.9"
    };
    List<String> chosen = new ArrayList<>();
    for (int t = random.nextInt(4); t > 0; t--) {
      chosen.add(targets[random.nextInt(targets.length)]);
    }
    Map<String, String> labels =
        switch (random.nextInt(4)) {
          case 0 -> Map.of("weight-eu-0-80", "192.0.2.1", "weight-us-0-20", "192.0.2.2");
          case 1 -> Map.of("weight-eu-0-80", "192.0.2.7");
          case 2 -> Map.of("strategy", "geoip", "tag-192.0.2.1", "eu");
          default -> Map.of();
        };
    Instant[] ages = {EARLIER, NOW, null};
    return new EndpointInput(
        "ns/o" + object,
        ages[random.nextInt(ages.length)],
        index,
        names[random.nextInt(names.length)],
        types[random.nextInt(types.length)],
        random.nextInt(5) == 0 ? -1 : random.nextInt(3) * 30,
        chosen,
        labels);
  }

  /** Thirty objects of one or two random endpoints. */
  private static List<EndpointInput> randomInputs(Random random) {
    List<EndpointInput> inputs = new ArrayList<>();
    for (int o = 0; o < 30; o++) {
      inputs.add(randomEndpoint(random, o, 0));
      if (random.nextBoolean()) {
        inputs.add(randomEndpoint(random, o, 1));
      }
    }
    return inputs;
  }

  /** A stream of DNSEndpoint changes: endpoints changed, re-sent equal, dropped and added. */
  private static void change(Random random, List<EndpointInput> inputs, int round) {
    for (int c = random.nextInt(5); c > 0; c--) {
      int i = random.nextInt(inputs.size());
      EndpointInput old = inputs.get(i);
      int object = Integer.parseInt(old.source().substring(4));
      inputs.set(
          i,
          random.nextInt(4) == 0
              ? new EndpointInput( // an equal copy: mapped again, nothing changed
                  old.source(),
                  old.created(),
                  old.index(),
                  old.dnsName(),
                  old.recordType(),
                  old.ttlSeconds(),
                  new ArrayList<>(old.targets()),
                  new HashMap<>(old.labels()))
              : randomEndpoint(random, object, old.index()));
    }
    if (random.nextInt(3) == 0 && inputs.size() > 1) {
      inputs.remove(random.nextInt(inputs.size()));
    }
    if (random.nextInt(3) == 0) {
      inputs.add(randomEndpoint(random, 1000 + round, random.nextInt(3)));
    }
    Collections.shuffle(inputs, random);
  }

  private static void assertSameAs(
      ZoneSnapshot built, List<EndpointInput> inputs, SnapshotBuilder.Limits limits, String what) {
    Sequential expected = Sequential.of(inputs, limits);
    Map<String, Map<RecordKind, RecordSet>> nodes = expected.nodes();
    assertThat(built.nodes().keySet()).as(what).isEqualTo(nodes.keySet());
    for (Map.Entry<String, Map<RecordKind, RecordSet>> e : nodes.entrySet()) {
      assertThat(built.node(e.getKey()).sets())
          .as("%s %s", what, e.getKey())
          .isEqualTo(e.getValue());
    }
    assertThat(built.problems()).as(what).isEqualTo(expected.problems);
    assertThat(built.recordCount()).as(what).isEqualTo(expected.recordCount);
    List<EndpointInput> ordered = new ArrayList<>(inputs);
    ordered.sort(SnapshotBuilder.PRECEDENCE);
    assertThat(built.inputs()).as(what).isEqualTo(ordered);
  }

  @Test
  void buildsFromTheServedSnapshotEqualOnePassOverEveryEndpoint() {
    for (long seed = 1; seed <= 6; seed++) {
      Random random = new Random(seed);
      List<EndpointInput> inputs = randomInputs(random);
      ZoneSnapshot previous = null;
      for (int round = 0; round < 150; round++) {
        change(random, inputs, round);
        BuildResult result =
            SnapshotBuilder.build(ZONES, inputs, ZoneFixtures.limits(), NOW, previous);
        ZoneSnapshot next = ((BuildResult.Built) result).snapshot();
        assertSameAs(next, inputs, ZoneFixtures.limits(), "seed " + seed + " round " + round);
        Set<String> changed = next.changedSince(previous);
        if (previous != null && next != previous) {
          assertThat(changed).as("built from the previous snapshot").isNotNull();
          for (String name : previous.nodes().keySet()) {
            if (!changed.contains(name)) {
              assertThat(next.node(name)).as(name).isSameAs(previous.node(name));
            }
          }
          for (String name : changed) {
            assertThat(next.node(name)).as(name).isNotSameAs(previous.node(name));
          }
        }
        previous = next;
      }
    }
  }

  @Test
  void updatesWithTheChangedObjectsEqualOnePassOverEveryEndpoint() {
    for (long seed = 11; seed <= 16; seed++) {
      Random random = new Random(seed);
      List<EndpointInput> inputs = randomInputs(random);
      ZoneSnapshot previous =
          ((BuildResult.Built) SnapshotBuilder.build(ZONES, inputs, ZoneFixtures.limits(), NOW))
              .snapshot();
      for (int round = 0; round < 150; round++) {
        List<EndpointInput> before = new ArrayList<>(inputs);
        change(random, inputs, round);
        Map<String, List<EndpointInput>> changed = ZoneFixtures.changedObjects(before, inputs);
        if (random.nextInt(4) == 0 && !inputs.isEmpty()) {
          // A source may report an object that did not change.
          EndpointInput any = inputs.get(random.nextInt(inputs.size()));
          changed.putIfAbsent(any.source(), ZoneFixtures.byObject(inputs).get(any.source()));
        }
        assertThat(SnapshotBuilder.canUpdate(previous, ZONES, ZoneFixtures.limits())).isTrue();
        ZoneSnapshot next =
            ((BuildResult.Built)
                    SnapshotBuilder.update(ZONES, ZoneFixtures.limits(), NOW, previous, changed))
                .snapshot();
        String what = "seed " + seed + " round " + round;
        assertSameAs(next, inputs, ZoneFixtures.limits(), what);
        if (next != previous) {
          Set<String> names = next.changedSince(previous);
          assertThat(names).as(what).isNotNull();
          for (String name : previous.nodes().keySet()) {
            if (!names.contains(name)) {
              assertThat(next.node(name)).as("%s %s", what, name).isSameAs(previous.node(name));
            }
          }
        } else {
          assertThat(Sequential.of(before, ZoneFixtures.limits()).nodes())
              .as("%s: the same snapshot only when nothing changed", what)
              .isEqualTo(Sequential.of(inputs, ZoneFixtures.limits()).nodes());
        }
        previous = next;
      }
    }
  }

  @Test
  void anUpdateRefusesWhatItCannotTrust() {
    EndpointInput a = ZoneFixtures.endpoint("a", 0, "app.cloud.example.com", "A", 0, "192.0.2.1");
    ZoneSnapshot served = ZoneFixtures.snapshot(a);

    assertThat(
            ((BuildResult.Built)
                    SnapshotBuilder.update(ZONES, ZoneFixtures.limits(), NOW, served, Map.of()))
                .snapshot())
        .isSameAs(served);
    assertThatThrownBy(
            () ->
                SnapshotBuilder.update(
                    ZONES, ZoneFixtures.limits(), NOW, served, Map.of("b", List.of(a))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("an endpoint of ns/a was given as one of b");
    assertThatThrownBy(
            () ->
                SnapshotBuilder.update(
                    ZONES, ZoneFixtures.limits(), NOW, served, Map.of("ns/a", List.of(a, a))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("repeat an index");
    ZoneSnapshot duplicates =
        ((BuildResult.Built)
                SnapshotBuilder.build(ZONES, List.of(a, a), ZoneFixtures.limits(), NOW))
            .snapshot();
    assertThat(SnapshotBuilder.canUpdate(duplicates, ZONES, ZoneFixtures.limits())).isFalse();
    assertThat(SnapshotBuilder.canUpdate(served, ZONES, new SnapshotBuilder.Limits(60, 17)))
        .isFalse();
    assertThatThrownBy(
            () -> SnapshotBuilder.update(ZONES, ZoneFixtures.limits(), NOW, duplicates, Map.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void nothingChangedGivesTheSameSnapshot() {
    Random random = new Random(3);
    List<EndpointInput> inputs = new ArrayList<>();
    for (int o = 0; o < 20; o++) {
      inputs.add(randomEndpoint(random, o, 0));
    }
    ZoneSnapshot first =
        ((BuildResult.Built) SnapshotBuilder.build(ZONES, inputs, ZoneFixtures.limits(), NOW))
            .snapshot();
    Collections.shuffle(inputs, random);

    BuildResult again =
        SnapshotBuilder.build(ZONES, inputs, ZoneFixtures.limits(), NOW.plusSeconds(60), first);

    assertThat(((BuildResult.Built) again).snapshot()).isSameAs(first);
  }

  @Test
  void endpointsSharingObjectAndIndexAreBuiltFromNothingInListOrder() {
    EndpointInput first =
        ZoneFixtures.endpoint("a", 0, "app.cloud.example.com", "A", 0, "192.0.2.1");
    EndpointInput second =
        ZoneFixtures.endpoint("a", 0, "app.cloud.example.com", "A", 0, "192.0.2.2");
    ZoneSnapshot before = ZoneFixtures.snapshot(first);

    ZoneSnapshot both =
        ((BuildResult.Built)
                SnapshotBuilder.build(
                    ZONES, List.of(first, second), ZoneFixtures.limits(), NOW, before))
            .snapshot();

    assertSameAs(both, List.of(first, second), ZoneFixtures.limits(), "duplicates");
    assertThat(both.changedSince(before)).isNull();
    assertThat(both.node("app.cloud.example.com").get(RecordKind.A).targets())
        .extracting(Target::value)
        .containsExactly("192.0.2.1");
  }

  @Test
  void aRefusedBuildLeavesThePreviousSnapshotUsable() {
    SnapshotBuilder.Limits limits = new SnapshotBuilder.Limits(60, 6);
    Random random = new Random(5);
    List<EndpointInput> inputs = new ArrayList<>();
    for (int o = 0; o < 6; o++) {
      inputs.add(randomEndpoint(random, o, 0));
    }
    ZoneSnapshot served = null;
    int refused = 0;
    for (int round = 0; round < 300; round++) {
      List<EndpointInput> tried = new ArrayList<>(inputs);
      change(random, tried, round);
      BuildResult result = SnapshotBuilder.build(ZONES, tried, limits, NOW, served);
      Sequential expected = Sequential.of(tried, limits);
      if (expected.recordCount > limits.maxRecords()) {
        assertThat(result).as("round %d", round).isInstanceOf(BuildResult.Refused.class);
        refused++;
        continue; // the served snapshot stays, as the zone cache keeps it
      }
      ZoneSnapshot next = ((BuildResult.Built) result).snapshot();
      assertSameAs(next, tried, limits, "round " + round);
      served = next;
      inputs = tried;
    }
    assertThat(refused).as("rounds over the cap").isGreaterThan(30);
    assertThat(300 - refused).as("rounds under it").isGreaterThan(30);
  }
}
