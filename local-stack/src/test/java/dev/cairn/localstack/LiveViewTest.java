package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.TargetDecision;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveViewTest {

  private static TargetDecision decided(String name, String... hosts) {
    List<DnsRecord> records = new ArrayList<>();
    for (String host : hosts) {
      records.add(DnsRecord.of(host, "A", 30, List.of("203.0.113.5")));
      records.add(DnsRecord.of("localtargets-" + host, "A", 30, List.of("203.0.113.5")));
    }
    return new TargetDecision(
        ObjectRef.of("Gslb", "default", name),
        "k8gb.io/v1beta1",
        "uid-" + name,
        "default",
        name,
        Disposition.PUBLISH,
        records,
        Map.of(),
        null,
        Explanation.of("published"),
        List.of());
  }

  @Test
  void showsTheSampleThenEveryOtherDecidedHostWithoutLocalTargets() {
    LiveView.Hosts hosts =
        LiveView.hostsToShow(
            SampleTopology.HOSTS,
            List.of(
                decided("app", SampleTopology.APP_HOST),
                decided("store", "Store.cloud.example.com"),
                decided("pay", "pay.cloud.example.com"),
                decided("pay-eu", "pay.cloud.example.com")));

    assertThat(hosts.shown())
        .containsExactly(
            SampleTopology.APP_HOST,
            SampleTopology.SHOP_HOST,
            SampleTopology.BLOG_HOST,
            "pay.cloud.example.com",
            "store.cloud.example.com");
    assertThat(hosts.leftOut()).isZero();
  }

  @Test
  void showsAtMostEightOtherHostsAndCountsTheRest() {
    List<TargetDecision> many = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      many.add(decided("g" + i, "h" + (char) ('a' + i) + ".cloud.example.com"));
    }

    LiveView.Hosts hosts = LiveView.hostsToShow(SampleTopology.HOSTS, many);

    assertThat(hosts.shown()).hasSize(3 + 8).endsWith("hh.cloud.example.com");
    assertThat(hosts.leftOut()).isEqualTo(3);
  }

  @Test
  void showsTheBranchOfADecisionFirst() {
    assertThat(
            LiveView.branchFirst(
                "primary and serving: own targets only, peers ignored → eu 203.0.113.11. [PRIMARY_SERVING]"))
        .isEqualTo(
            "[PRIMARY_SERVING] primary and serving: own targets only, peers ignored → eu 203.0.113.11.");
    assertThat(LiveView.branchFirst("no targets")).isEqualTo("no targets");
  }

  private static DnsLookup.Answer answer(String... addresses) {
    return new DnsLookup.Answer("NOERROR", List.of(addresses), true);
  }

  private static List<DnsLookup.Answer> sample(String first, int n, String second, int m) {
    List<DnsLookup.Answer> answers = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      answers.add(answer(first));
    }
    for (int i = 0; i < m; i++) {
      answers.add(answer(second));
    }
    return answers;
  }

  private static final List<String> SHOP_A = List.of("203.0.113.12", "198.51.100.22");
  private static final List<String> SHOP_AAAA = List.of("2001:db8:e0::12", "2001:db8:a0::22");

  /** The weighted shop row as one refresh samples it: eu 70 %, us 30 %. */
  private static LiveView.Row shop(int euOfEight, String aaaa, String reason) {
    List<DnsLookup.Answer> a = sample("203.0.113.12", euOfEight, "198.51.100.22", 8 - euOfEight);
    Map<String, LiveView.Cell> cells = new LinkedHashMap<>();
    cells.put(
        "eu",
        new LiveView.Cell(
            LiveView.aggregate(a),
            aaaa,
            reason,
            LiveView.stable(a, SHOP_A),
            LiveView.stable(List.of(answer(aaaa)), SHOP_AAAA)));
    return new LiveView.Row(SampleTopology.SHOP_HOST, cells);
  }

  private static LiveView.Row app(String a) {
    return new LiveView.Row(
        SampleTopology.APP_HOST,
        Map.of("eu", new LiveView.Cell(a, "2001:db8:e0::11", "[PRIMARY_SERVING] primary")));
  }

  @Test
  void withoutATerminalPrintsTheTableOnlyWhenMoreThanTheWeightedSampleChanges() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    LiveView view =
        new LiveView(
            null,
            new PrintStream(bytes, true, StandardCharsets.UTF_8),
            false,
            SampleTopology.HOSTS,
            "");
    String both = "[ALL_CLUSTERS] own targets plus every serving peer's";

    view.show(List.of(app("203.0.113.11"), shop(5, "2001:db8:e0::12", both)), 0);
    // Each refresh samples the weighted record anew: other counts, all eight alike, another AAAA.
    view.show(List.of(app("203.0.113.11"), shop(6, "2001:db8:a0::22", both)), 0);
    view.show(List.of(app("203.0.113.11"), shop(8, "2001:db8:e0::12", both)), 0);
    view.show(List.of(app("203.0.113.11"), shop(0, "2001:db8:a0::22", both)), 0);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).containsOnlyOnce("live view:");

    // A real change: app fails over.
    view.show(List.of(app("198.51.100.21"), shop(7, "2001:db8:e0::12", both)), 0);
    // The decision changes.
    view.show(List.of(app("198.51.100.21"), shop(7, "2001:db8:e0::12", "[NO_PEERS] own only")), 0);
    // More decided hosts than shown.
    view.show(List.of(app("198.51.100.21"), shop(7, "2001:db8:e0::12", "[NO_PEERS] own only")), 2);
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed.split("live view:", -1)).hasSize(5);
    assertThat(printed).contains("198.51.100.22 x1 203.0.113.12 x7").contains("(+2 more decided");
  }

  @Test
  void aWeightedAnswerOutsideItsTargetsOrATimeoutIsAChange() {
    String targets = LiveView.stable(sample("203.0.113.12", 3, "198.51.100.22", 5), SHOP_A);
    assertThat(LiveView.stable(sample("203.0.113.12", 8, "198.51.100.22", 0), SHOP_A))
        .isEqualTo(targets)
        .isEqualTo("weighted 198.51.100.22,203.0.113.12");
    assertThat(LiveView.stable(sample("203.0.113.12", 7, "192.0.2.1", 1), SHOP_A))
        .isEqualTo("192.0.2.1,203.0.113.12");
    List<DnsLookup.Answer> timeout = new ArrayList<>(sample("203.0.113.12", 7, "", 0));
    timeout.add(new DnsLookup.Answer("TIMEOUT", List.of(), false));
    assertThat(LiveView.stable(timeout, SHOP_A)).isEqualTo("203.0.113.12,TIMEOUT");
  }

  @Test
  void anUnweightedAnswerIsComparedAsTheSetOfItsAddresses() {
    List<DnsLookup.Answer> shuffled =
        List.of(answer("203.0.113.11", "198.51.100.21"), answer("198.51.100.21", "203.0.113.11"));
    assertThat(LiveView.stable(shuffled, List.of())).isEqualTo("198.51.100.21,203.0.113.11");
    assertThat(
            LiveView.stable(List.of(new DnsLookup.Answer("NXDOMAIN", List.of(), true)), List.of()))
        .isEqualTo("NXDOMAIN");
  }

  @Test
  void columnsWidenToAnAllOrderedWeightedAnswer() {
    // -Dresponder.weighted-answer=all-ordered: every answer holds both addresses, in sampled order.
    String a = "198.51.100.22,203.0.113.12 x3 203.0.113.12,198.51.100.22 x5";
    String table =
        LiveView.render(
            List.of(
                app("203.0.113.11"),
                new LiveView.Row(
                    SampleTopology.SHOP_HOST,
                    Map.of("eu", new LiveView.Cell(a, "2001:db8:e0::12,2001:db8:a0::22", "why")))));

    List<String> lines = table.lines().filter(l -> !l.isBlank() && !l.contains("why")).toList();
    int aaaa = lines.get(0).indexOf("AAAA");
    assertThat(lines.get(1).indexOf("2001:db8:e0::11")).isEqualTo(aaaa);
    assertThat(lines.get(2)).contains(a + " 2001:db8:e0::12,2001:db8:a0::22");
    assertThat(lines.get(2).indexOf("2001:db8:e0::12,")).isEqualTo(aaaa);
  }

  @Test
  void aCellPastTheWidestColumnIsCutShortWithAnEllipsis() {
    String a = "203.0.113.1,203.0.113.2,203.0.113.3,203.0.113.4 x4 203.0.113.4,203.0.113.3 x4";
    String host = "a-very-long-host-name-for-a-gslb.team.cloud.example.com";
    String table =
        LiveView.render(
            List.of(new LiveView.Row(host, Map.of("eu", new LiveView.Cell(a, "NODATA", "why")))));

    List<String> lines = table.lines().toList();
    int aaaa = lines.get(0).indexOf("AAAA");
    assertThat(lines.get(1)).contains("…").doesNotContain(a).doesNotContain(host);
    assertThat(lines.get(1).indexOf("NODATA")).isEqualTo(aaaa);
    assertThat(lines.get(1).substring(0, aaaa - 1).strip()).endsWith("…");
  }
}
