package dev.cairn.dnsresponder.answer;

import static dev.cairn.dnsresponder.zone.ZoneFixtures.labelled;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.dnsresponder.zone.RecordKind;
import dev.cairn.dnsresponder.zone.RecordSet;
import dev.cairn.dnsresponder.zone.Target;
import dev.cairn.dnsresponder.zone.ZoneFixtures;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TargetSelectorTest {

  private static final int QUERIES = 10_000;

  /** Chi-square critical value for p = 0.001; a correct sampler exceeds it once in 1000 seeds. */
  private static double critical(int degreesOfFreedom) {
    return switch (degreesOfFreedom) {
      case 1 -> 10.83;
      case 2 -> 13.82;
      case 3 -> 16.27;
      default -> throw new IllegalArgumentException();
    };
  }

  private static RecordSet set(Map<String, String> labels, String... targets) {
    return ZoneFixtures.snapshot(labelled("w", "w.cloud.example.com", "A", labels, targets))
        .node("w.cloud.example.com")
        .get(RecordKind.A);
  }

  private static TargetSelector selector(WeightedAnswer mode, long seed) {
    return new TargetSelector(
        new SplittableRandom(seed), GeoLocator.NONE, List.of("datacenter"), mode, 32);
  }

  private static double chiSquare(
      Map<String, Integer> observed, Map<String, Double> expectedShare) {
    double chi = 0;
    for (Map.Entry<String, Double> e : expectedShare.entrySet()) {
      double expected = e.getValue() * QUERIES;
      double diff = observed.getOrDefault(e.getKey(), 0) - expected;
      chi += diff * diff / expected;
    }
    return chi;
  }

  @Test
  void oneModeSplitsAnswersByWeight() {
    RecordSet set =
        set(
            Map.of("weight-eu-0-80", "192.0.2.1", "weight-us-0-20", "192.0.2.2"),
            "192.0.2.1",
            "192.0.2.2");
    TargetSelector selector = selector(WeightedAnswer.ONE, 42);

    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < QUERIES; i++) {
      List<Target> chosen = selector.select(set, null).targets();
      assertThat(chosen).hasSize(1);
      counts.merge(chosen.get(0).value(), 1, Integer::sum);
    }

    assertThat(chiSquare(counts, Map.of("192.0.2.1", 0.8, "192.0.2.2", 0.2)))
        .isLessThan(critical(1));
    assertThat(counts.get("192.0.2.1")).isBetween(7_600, 8_400); // a generous band around 8000
  }

  @Test
  void oneModeDrawsATagByWeightThenAnAddressUniformlyWithinIt() {
    RecordSet set =
        set(
            Map.of(
                "weight-eu-west-1-0-50", "192.0.2.1",
                "weight-eu-west-1-1-50", "192.0.2.2",
                "weight-us-0-30", "192.0.2.3",
                "weight-ap-0-20", "192.0.2.4"),
            "192.0.2.1",
            "192.0.2.2",
            "192.0.2.3",
            "192.0.2.4");
    TargetSelector selector = selector(WeightedAnswer.ONE, 7);

    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < QUERIES; i++) {
      counts.merge(selector.select(set, null).targets().get(0).value(), 1, Integer::sum);
    }

    assertThat(
            chiSquare(
                counts,
                Map.of("192.0.2.1", 0.25, "192.0.2.2", 0.25, "192.0.2.3", 0.3, "192.0.2.4", 0.2)))
        .isLessThan(critical(3));
  }

  @Test
  void zeroWeightIsNeverChosenWhileAnotherWeightIsNot() {
    RecordSet set =
        set(
            Map.of("weight-eu-0-100", "192.0.2.1", "weight-us-0-0", "192.0.2.2"),
            "192.0.2.1",
            "192.0.2.2");
    TargetSelector selector = selector(WeightedAnswer.ONE, 3);

    for (int i = 0; i < 1_000; i++) {
      assertThat(selector.select(set, null).targets())
          .extracting(Target::value)
          .containsExactly("192.0.2.1");
    }
  }

  @Test
  void allZeroWeightsAreDrawnUniformly() {
    RecordSet set =
        set(
            Map.of("weight-eu-0-0", "192.0.2.1", "weight-us-0-0", "192.0.2.2"),
            "192.0.2.1",
            "192.0.2.2");
    TargetSelector selector = selector(WeightedAnswer.ONE, 5);

    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < QUERIES; i++) {
      counts.merge(selector.select(set, null).targets().get(0).value(), 1, Integer::sum);
    }

    assertThat(chiSquare(counts, Map.of("192.0.2.1", 0.5, "192.0.2.2", 0.5)))
        .isLessThan(critical(1));
  }

  @Test
  void allOrderedReturnsEveryAddressLeadingByWeightWithZeroWeightLast() {
    RecordSet set =
        set(
            Map.of(
                "weight-eu-0-60", "192.0.2.1",
                "weight-us-0-30", "192.0.2.2",
                "weight-ap-0-10", "192.0.2.3",
                "weight-dr-0-0", "192.0.2.4"),
            "192.0.2.1",
            "192.0.2.2",
            "192.0.2.3",
            "192.0.2.4");
    TargetSelector selector = selector(WeightedAnswer.ALL_ORDERED, 11);

    Map<String, Integer> first = new HashMap<>();
    for (int i = 0; i < QUERIES; i++) {
      List<Target> order = selector.select(set, null).targets();
      assertThat(order)
          .extracting(Target::value)
          .containsExactlyInAnyOrder("192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4");
      assertThat(order.get(3).value()).isEqualTo("192.0.2.4");
      first.merge(order.get(0).value(), 1, Integer::sum);
    }

    assertThat(chiSquare(first, Map.of("192.0.2.1", 0.6, "192.0.2.2", 0.3, "192.0.2.3", 0.1)))
        .isLessThan(critical(2));
  }

  @Test
  void unweightedSetsReturnEveryAddressInChangingOrder() {
    RecordSet set = set(Map.of(), "192.0.2.1", "192.0.2.2", "192.0.2.3");
    TargetSelector selector = selector(WeightedAnswer.ONE, 13);

    Set<List<String>> orders = new HashSet<>();
    Map<String, Integer> first = new LinkedHashMap<>();
    for (int i = 0; i < 3_000; i++) {
      List<String> order =
          selector.select(set, null).targets().stream().map(Target::value).toList();
      assertThat(order).containsExactlyInAnyOrder("192.0.2.1", "192.0.2.2", "192.0.2.3");
      orders.add(order);
      first.merge(order.get(0), 1, Integer::sum);
    }

    assertThat(orders).hasSize(6); // every permutation appears
    assertThat(first.values()).allMatch(n -> n > 800 && n < 1_200);
  }

  @Test
  void geoipKeepsTheTargetsInTheClientsRegionFromTheFirstFieldThatMatches() {
    InetAddress client = QueryAnswererTest.address("203.0.113.9");
    GeoLocator geo =
        (address, field) -> {
          String a = address.getHostAddress();
          if (field.equals("datacenter")) {
            return Optional.empty(); // neither client nor targets have a datacenter
          }
          String continent =
              switch (a) {
                case "203.0.113.9", "192.0.2.1" -> "EU";
                case "192.0.2.2" -> "NA";
                default -> null;
              };
          return continent == null
              ? Optional.empty()
              : Optional.of(new GeoLocator.GeoMatch(continent, 24));
        };
    TargetSelector selector =
        new TargetSelector(
            new SplittableRandom(1),
            geo,
            List.of("datacenter", "continent.code"),
            WeightedAnswer.ONE,
            32);
    RecordSet set = set(Map.of("strategy", "geoip"), "192.0.2.1", "192.0.2.2");

    TargetSelector.Selection selection = selector.select(set, client);

    assertThat(selection.targets()).extracting(Target::value).containsExactly("192.0.2.1");
    assertThat(selection.scopePrefix()).isEqualTo(24);
  }

  @Test
  void geoipWithoutAMatchReturnsEveryTarget() {
    TargetSelector selector = selector(WeightedAnswer.ONE, 1);
    RecordSet set =
        set(Map.of("strategy", "geoip", "geo-eu-0", "192.0.2.1"), "192.0.2.1", "192.0.2.2");

    TargetSelector.Selection selection =
        selector.select(set, QueryAnswererTest.address("203.0.113.9"));

    assertThat(selection.targets()).hasSize(2);
    assertThat(selection.scopePrefix()).isEqualTo(-1);
  }

  @Test
  void geoipThenWeightsWithinTheRegion() {
    GeoLocator geo =
        (address, field) ->
            address.getHostAddress().equals("203.0.113.9")
                ? Optional.of(new GeoLocator.GeoMatch("eu", 24))
                : Optional.empty();
    TargetSelector selector =
        new TargetSelector(
            new SplittableRandom(2), geo, List.of("datacenter"), WeightedAnswer.ONE, 32);
    RecordSet set =
        set(
            Map.of(
                "strategy", "geoip",
                "weight-eu-0-100", "192.0.2.1",
                "weight-eu-1-100", "192.0.2.2",
                "weight-us-0-100", "192.0.2.3"),
            "192.0.2.1",
            "192.0.2.2",
            "192.0.2.3");

    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      seen.add(
          selector.select(set, QueryAnswererTest.address("203.0.113.9")).targets().get(0).value());
    }

    assertThat(seen).containsExactlyInAnyOrder("192.0.2.1", "192.0.2.2");
  }

  @Test
  void plainOrderDrawsExactlyWhatSelectDraws() {
    String[] targets = new String[12];
    for (int i = 0; i < targets.length; i++) {
      targets[i] = "192.0.2." + (i + 1);
    }
    RecordSet set = set(Map.of(), targets);
    TargetSelector listing =
        new TargetSelector(
            new SplittableRandom(5), GeoLocator.NONE, List.of("datacenter"), WeightedAnswer.ONE, 8);
    TargetSelector indexing =
        new TargetSelector(
            new SplittableRandom(5), GeoLocator.NONE, List.of("datacenter"), WeightedAnswer.ONE, 8);
    int[] order = new int[targets.length];

    assertThat(indexing.isPlain(set, null)).isTrue();
    assertThat(indexing.maxAnswer(set)).isEqualTo(8);
    for (int round = 0; round < 200; round++) {
      List<Target> selected = listing.select(set, null).targets();
      int count = indexing.plainOrder(targets.length, order);

      assertThat(count).isEqualTo(selected.size()).isEqualTo(8);
      for (int k = 0; k < count; k++) {
        assertThat(set.targets().get(order[k])).isSameAs(selected.get(k));
      }
    }
  }

  @Test
  void weightedAndGeoSetsAreNotPlain() {
    TargetSelector selector = selector(WeightedAnswer.ONE, 1);
    RecordSet weighted =
        set(
            Map.of("weight-eu-0-80", "192.0.2.1", "weight-us-0-20", "192.0.2.2"),
            "192.0.2.1",
            "192.0.2.2");
    RecordSet geo = set(Map.of("strategy", "geoip"), "192.0.2.1", "192.0.2.2");
    InetAddress client = QueryAnswererTest.address("198.51.100.1");

    assertThat(selector.isPlain(weighted, client)).isFalse();
    assertThat(selector.maxAnswer(weighted)).isEqualTo(1);
    assertThat(selector.maxAnswer(set(Map.of(), "192.0.2.1", "192.0.2.2"))).isEqualTo(2);
    assertThat(selector.isPlain(geo, client)).isFalse();
    assertThat(selector.isPlain(geo, null)).isTrue(); // no client: select shuffles every target
    assertThat(selector(WeightedAnswer.ALL_ORDERED, 1).maxAnswer(weighted)).isEqualTo(2);
  }
}
