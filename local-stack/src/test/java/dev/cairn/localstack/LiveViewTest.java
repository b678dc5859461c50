package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.TargetDecision;
import java.util.ArrayList;
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
}
