package dev.cairn.recordwriter.delegation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.delegation.DelegationZone;
import java.util.List;
import org.junit.jupiter.api.Test;

class DelegationRecordsTest {

  private static final DelegationZone CLOUD =
      new DelegationZone("example.com", "cloud.example.com");
  private static final DelegationZone DEEP =
      new DelegationZone("example.org", "k8gb-test.gslb.example.org");

  private static DelegationRecords.Spec spec(List<DelegationZone> zones, List<String> peers) {
    return new DelegationRecords.Spec("cairn-system", zones, "gslb-ns-", "eu", peers, 30);
  }

  private static String describe(DnsRecord r) {
    return r.dnsName() + " " + r.recordType() + " " + r.ttlSeconds() + " " + r.targets();
  }

  @Test
  void publishesTheZonesNameServersAndThisClustersGlueAsK8gbDoes() {
    List<TargetDecision> decisions =
        DelegationRecords.decide(
            spec(List.of(CLOUD), List.of("us", "ap")), List.of("203.0.113.53"));

    assertThat(decisions).hasSize(1);
    TargetDecision d = decisions.get(0);
    assertThat(d.namespace()).isEqualTo("cairn-system");
    assertThat(d.name()).isEqualTo("k8gb-ns-extdns-cloud-example-com");
    assertThat(d.source().key())
        .isEqualTo("ZoneDelegation/cairn-system/k8gb-ns-extdns-cloud-example-com");
    assertThat(d.sourceUid()).as("no owner, as in k8gb").isNull();
    assertThat(d.disposition()).isEqualTo(Disposition.PUBLISH);
    assertThat(d.labels())
        .containsEntry("k8gb.io/dnstype", "extdns")
        .containsEntry("k8gb.absa.oss/dnstype", "extdns");
    assertThat(d.records())
        .extracting(DelegationRecordsTest::describe)
        .containsExactly(
            "cloud.example.com NS 30 [gslb-ns-ap-cloud.example.com, gslb-ns-eu-cloud.example.com,"
                + " gslb-ns-us-cloud.example.com]",
            "gslb-ns-eu-cloud.example.com A 30 [203.0.113.53]");
  }

  @Test
  void ipv6AddressesBecomeAaaaGlueAndOtherValuesAreSkipped() {
    TargetDecision d =
        DelegationRecords.decide(
                spec(List.of(CLOUD), List.of()),
                List.of("2001:db8::53", "203.0.113.54", "ns.example.com", "203.0.113.53"))
            .get(0);

    assertThat(d.records())
        .extracting(DelegationRecordsTest::describe)
        .containsExactly(
            "cloud.example.com NS 30 [gslb-ns-eu-cloud.example.com]",
            "gslb-ns-eu-cloud.example.com A 30 [203.0.113.53, 203.0.113.54]",
            "gslb-ns-eu-cloud.example.com AAAA 30 [2001:db8::53]");
  }

  @Test
  void oneObjectPerZoneWithEveryLabelBelowTheParentDashed() {
    List<TargetDecision> decisions =
        DelegationRecords.decide(
            spec(List.of(CLOUD, DEEP), List.of("eu", "us")), List.of("192.0.2.1"));

    assertThat(decisions)
        .extracting(TargetDecision::name)
        .containsExactly(
            "k8gb-ns-extdns-cloud-example-com", "k8gb-ns-extdns-k8gb-test-gslb-example-org");
    assertThat(
            decisions.get(1).records().stream()
                .filter(r -> r.recordType().equals("NS"))
                .findFirst()
                .orElseThrow()
                .targets())
        .as("this cluster's own tag among the peers counts once")
        .containsExactly(
            "gslb-ns-eu-k8gb-test-gslb.example.org", "gslb-ns-us-k8gb-test-gslb.example.org");
  }

  @Test
  void withoutAddressesThePublishedDelegationIsKeptAndNothingIsCreated() {
    TargetDecision d =
        DelegationRecords.decide(spec(List.of(CLOUD), List.of("us")), List.of()).get(0);

    assertThat(d.disposition()).isEqualTo(Disposition.NO_TARGETS);
    assertThat(d.records()).isEmpty();
    assertThat(d.gracePeriodSeconds()).isEqualTo(DelegationRecords.KEEP_SECONDS);
    assertThat(d.explanation().summary()).contains("not known yet");
  }

  @Test
  void anEmptyGluePrefixIsK8gbsToo() {
    TargetDecision d =
        DelegationRecords.decide(
                new DelegationRecords.Spec("ns", List.of(CLOUD), "", "eu", List.of(), 60),
                List.of("192.0.2.1"))
            .get(0);

    assertThat(d.records().get(0).targets()).containsExactly("eu-cloud.example.com");
    assertThat(d.records().get(0).ttlSeconds()).isEqualTo(60);
  }
}
