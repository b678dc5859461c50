package dev.cairn.strategyengine.gslb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * k8gb's decision table (k8gb.md §6), row by row, against each strategy class directly: {@code S} =
 * this cluster serves, {@code E} = the serving peers, {@code P} = the primary.
 */
class StrategyTest {

  private static final TagTargets LOCAL = new TagTargets(List.of("203.0.113.10"), List.of());
  private static final TagTargets US = new TagTargets(List.of("198.51.100.20"), List.of());
  private static final TagTargets AP = new TagTargets(List.of("192.0.2.30"), List.of());

  static Stream<Arguments> table() {
    Strategy rr = new RoundRobin(Map.of());
    Strategy geo = new GeoIp();
    Strategy primaryEu = new Failover("eu");
    Strategy primaryUs = new Failover("us");
    return Stream.of(
        row(rr, true, peers(), Branch.NO_PEERS, "eu"),
        row(rr, false, peers(), Branch.NO_PEERS),
        row(rr, true, peers("us"), Branch.ALL_CLUSTERS, "eu", "us"),
        row(rr, false, peers("us", "ap"), Branch.ALL_CLUSTERS, "ap", "us"),
        row(geo, true, peers(), Branch.NO_PEERS, "eu"),
        row(geo, true, peers("ap"), Branch.ALL_CLUSTERS, "ap", "eu"),
        row(primaryEu, true, peers("us"), Branch.PRIMARY_SERVING, "eu"),
        row(primaryEu, false, peers("us", "ap"), Branch.PRIMARY_FAILED_OVER, "ap", "us"),
        row(primaryEu, false, peers(), Branch.PRIMARY_DOWN_NO_PEERS),
        row(primaryUs, true, peers("us", "ap"), Branch.SECONDARY_FOLLOWS_PRIMARY, "us"),
        row(primaryUs, false, peers("us"), Branch.SECONDARY_FOLLOWS_PRIMARY, "us"),
        row(primaryUs, true, peers("ap"), Branch.SECONDARY_PRIMARY_ABSENT, "ap", "eu"),
        row(primaryUs, false, peers("ap"), Branch.SECONDARY_PRIMARY_ABSENT, "ap"),
        row(primaryUs, true, peers(), Branch.SECONDARY_NO_PEERS, "eu"),
        row(primaryUs, false, peers(), Branch.SECONDARY_NO_PEERS));
  }

  @ParameterizedTest(name = "{0} serving={1} peers={2} → {3}")
  @MethodSource("table")
  void followsK8gbsDecisionTable(
      Strategy strategy,
      boolean serving,
      SortedMap<String, TagTargets> peers,
      Branch branch,
      List<String> tags) {
    Selection selection = strategy.select("eu", serving, LOCAL, peers);

    assertThat(selection.branch()).isEqualTo(branch);
    assertThat(selection.chosen().keySet()).containsExactlyElementsOf(tags);
  }

  private static Arguments row(
      Strategy strategy,
      boolean serving,
      SortedMap<String, TagTargets> peers,
      Branch branch,
      String... tags) {
    return Arguments.of(strategy, serving, peers, branch, List.of(tags));
  }

  private static SortedMap<String, TagTargets> peers(String... tags) {
    SortedMap<String, TagTargets> peers = new TreeMap<>();
    for (String tag : tags) {
      peers.put(tag, tag.equals("us") ? US : AP);
    }
    return peers;
  }
}
