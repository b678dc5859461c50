package dev.cairn.strategyengine.gslb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.validation.IpLiteral.Family;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The endpoint labels the strategies write, read back with the grammar of Cairn's DNS responder
 * ({@code dns-responder/README.md}, {@code EndpointLabels}): {@code weight-<tag>-<index>-<weight>}
 * and {@code geo-<tag>-<index>} are parsed from the right, so geo tags may contain {@code -}; the
 * responder weights a record only when the labels cover every target.
 */
class RecordLabelsTest {

  @Test
  void weightLabelsWithDashedTagsParseFromTheRightAndCoverEveryTarget() {
    SortedMap<String, TagTargets> chosen = new TreeMap<>();
    chosen.put(
        "eu-west-1",
        new TagTargets(List.of("203.0.113.10", "203.0.113.11"), List.of("2001:db8::10")));
    chosen.put("us-east-1", new TagTargets(List.of("198.51.100.20"), List.of()));
    RoundRobin strategy = new RoundRobin(Map.of("eu-west-1", 70, "us-east-1", 30));
    List<String> notes = new ArrayList<>();

    Map<String, String> a = strategy.labels(chosen, Family.IPV4, notes);
    Map<String, String> aaaa = strategy.labels(chosen, Family.IPV6, notes);

    assertThat(notes).isEmpty();
    assertThat(parseWeights(a))
        .containsOnly(
            Map.entry("203.0.113.10", new Weighted("eu-west-1", 70)),
            Map.entry("203.0.113.11", new Weighted("eu-west-1", 70)),
            Map.entry("198.51.100.20", new Weighted("us-east-1", 30)));
    assertThat(parseWeights(aaaa))
        .containsOnly(Map.entry("2001:db8::10", new Weighted("eu-west-1", 70)));
    assertThat(a).containsEntry("strategy", "roundRobin");
  }

  @Test
  void geoLabelsTagEveryTargetWithItsCluster() {
    SortedMap<String, TagTargets> chosen = new TreeMap<>();
    chosen.put("ap-south-1", new TagTargets(List.of("192.0.2.30"), List.of()));
    chosen.put("eu", new TagTargets(List.of("203.0.113.10"), List.of()));

    Map<String, String> labels = new GeoIp().labels(chosen, Family.IPV4, new ArrayList<>());

    assertThat(labels).containsEntry("strategy", "geoip");
    assertThat(parseGeo(labels))
        .containsOnly(Map.entry("192.0.2.30", "ap-south-1"), Map.entry("203.0.113.10", "eu"));
  }

  @Test
  void aTargetSharedByTwoTagsIsLabelledOnceSoTheResponderDoesNotRejectTheSet() {
    SortedMap<String, TagTargets> chosen = new TreeMap<>();
    chosen.put("ap", new TagTargets(List.of("192.0.2.1"), List.of()));
    chosen.put("eu", new TagTargets(List.of("192.0.2.1"), List.of()));
    List<String> notes = new ArrayList<>();

    Map<String, String> labels =
        new RoundRobin(Map.of("ap", 1, "eu", 2)).labels(chosen, Family.IPV4, notes);

    assertThat(parseWeights(labels)).containsOnly(Map.entry("192.0.2.1", new Weighted("ap", 1)));
    assertThat(notes).singleElement().asString().contains("already has a weight label");
  }

  @Test
  void failoverCarriesOnlyTheStrategyLabel() {
    SortedMap<String, TagTargets> chosen = new TreeMap<>();
    chosen.put("us", new TagTargets(List.of("198.51.100.20"), List.of()));

    assertThat(new Failover("us").labels(chosen, Family.IPV4, new ArrayList<>()))
        .containsExactly(Map.entry("strategy", "failover"));
  }

  private record Weighted(String tag, int weight) {}

  /** The responder's reading of weight labels: from the right, tag may hold '-'. */
  private static Map<String, Weighted> parseWeights(Map<String, String> labels) {
    Map<String, Weighted> weights = new HashMap<>();
    labels.forEach(
        (key, value) -> {
          if (!key.startsWith("weight-")) {
            return;
          }
          String rest = key.substring("weight-".length());
          int lastDash = rest.lastIndexOf('-');
          int indexDash = rest.lastIndexOf('-', lastDash - 1);
          assertThat(indexDash).as("label %s has tag, index and weight", key).isPositive();
          Integer.parseInt(rest.substring(indexDash + 1, lastDash));
          assertThat(
                  weights.put(
                      value,
                      new Weighted(
                          rest.substring(0, indexDash),
                          Integer.parseInt(rest.substring(lastDash + 1)))))
              .as("one weight label per address")
              .isNull();
        });
    return weights;
  }

  private static Map<String, String> parseGeo(Map<String, String> labels) {
    Map<String, String> tags = new HashMap<>();
    labels.forEach(
        (key, value) -> {
          if (key.startsWith("geo-")) {
            String rest = key.substring("geo-".length());
            int lastDash = rest.lastIndexOf('-');
            Integer.parseInt(rest.substring(lastDash + 1));
            tags.put(value, rest.substring(0, lastDash));
          }
        });
    return tags;
  }
}
