package dev.cairn.recordwriter.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EndpointRulesTest {

  private static DnsRecord record(String name, String type, String... targets) {
    return DnsRecord.of(name, type, 30, List.of(targets));
  }

  @ParameterizedTest(name = "{0} {1} {2} is rejected at {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        "web.example.com | A     | 2001:db8::1     | records[0].targets[0]",
        "web.example.com | A     | 192.0.2.1.      | records[0].targets[0]",
        "web.example.com | A     | 010.0.0.1       | records[0].targets[0]",
        "web.example.com | A     | host.example    | records[0].targets[0]",
        "web.example.com | AAAA  | 192.0.2.1       | records[0].targets[0]",
        "web.example.com | AAAA  | ::ffff:192.0.2.1 | records[0].targets[0]",
        "web.example.com | AAAA  | fe80::1%eth0    | records[0].targets[0]",
        "web..example.com | A    | 192.0.2.1       | records[0].dnsName",
        "-web.example.com | A    | 192.0.2.1       | records[0].dnsName",
        "web_1.example.com | A   | 192.0.2.1       | records[0].dnsName",
        "web.example.com | MX    | 10 mail.example.com | records[0].recordType",
        "web.example.com | CNAME | not a host      | records[0].targets[0]",
      })
  void rejectsWhatExternalDnsWouldDrop(String name, String type, String target, String field) {
    EndpointRules.Checked c = EndpointRules.check(List.of(record(name, type, target)));

    assertThat(c.endpoints()).isEmpty();
    assertThat(c.problems()).extracting(Problem::field).containsExactly(field);
  }

  @Test
  void rejectsALabelLongerThan63AndANameLongerThan253() {
    String longLabel = "a".repeat(64) + ".example.com";
    String longName = ("a".repeat(60) + ".").repeat(4) + "example.com";

    EndpointRules.Checked c =
        EndpointRules.check(
            List.of(record(longLabel, "A", "192.0.2.1"), record(longName, "A", "192.0.2.1")));

    assertThat(c.endpoints()).isEmpty();
    assertThat(c.problems()).hasSize(2);
    assertThat(c.problems().get(0).reason()).contains("more than 63");
    assertThat(c.problems().get(1).reason()).contains("more than 253");
  }

  @Test
  void rejectsARecordWithALabelWithoutValueAndKeepsTheOthers() {
    Map<String, String> labels = new java.util.HashMap<>();
    labels.put("strategy", null);
    EndpointRules.Checked c =
        EndpointRules.check(
            List.of(
                record("web.example.com", "A", "192.0.2.1"),
                new DnsRecord("api.example.com", "A", 30, List.of("192.0.2.2"), labels)));

    assertThat(c.endpoints()).extracting(Endpoint::dnsName).containsExactly("web.example.com");
    assertThat(c.problems())
        .extracting(Problem::field)
        .containsExactly("records[1].labels[strategy]");
  }

  @Test
  void rejectsATxtRecordNoDnsReplyCanCarryAndKeepsTheOthers() {
    EndpointRules.Checked c =
        EndpointRules.check(
            List.of(
                record("web.example.com", "A", "192.0.2.1"),
                record("txt.example.com", "TXT", "owner=a", "x".repeat(70_000))));

    assertThat(c.endpoints()).extracting(Endpoint::dnsName).containsExactly("web.example.com");
    assertThat(c.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.field()).isEqualTo("records[1].targets[1]");
              assertThat(p.reason()).startsWith("TXT text of 70000 octets");
            });
  }

  @Test
  void rejectsEmptyTargets() {
    EndpointRules.Checked c = EndpointRules.check(List.of(record("web.example.com", "A")));

    assertThat(c.problems()).extracting(Problem::field).containsExactly("records[0].targets");
  }

  @Test
  void rejectsACnameWithSeveralTargets() {
    EndpointRules.Checked c =
        EndpointRules.check(
            List.of(record("web.example.com", "CNAME", "a.example.net", "b.example.net")));

    assertThat(c.endpoints()).isEmpty();
    assertThat(c.problems().get(0).reason()).contains("exactly one target");
  }

  @Test
  void rejectsACnameBesideOtherTypesAndKeepsTheOthers() {
    EndpointRules.Checked c =
        EndpointRules.check(
            List.of(
                record("web.example.com", "CNAME", "lb.example.net"),
                record("web.example.com", "A", "192.0.2.1")));

    assertThat(c.endpoints())
        .containsExactly(Endpoint.of("web.example.com", "A", 30, List.of("192.0.2.1")));
    assertThat(c.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.field()).isEqualTo("records[0].recordType");
              assertThat(p.reason()).contains("cannot share its name");
            });
  }

  @Test
  void rejectsASecondRecordOfTheSameNameAndType() {
    EndpointRules.Checked c =
        EndpointRules.check(
            List.of(
                record("web.example.com", "A", "192.0.2.1"),
                record("WEB.example.com", "A", "192.0.2.2")));

    assertThat(c.endpoints()).hasSize(1);
    assertThat(c.problems()).extracting(Problem::field).containsExactly("records[1]");
  }

  @Test
  void rejectsATtlOutOfRange() {
    EndpointRules.Checked c =
        EndpointRules.check(
            List.of(new DnsRecord("web.example.com", "A", -5, List.of("192.0.2.1"), Map.of())));

    assertThat(c.problems()).extracting(Problem::field).containsExactly("records[0].ttlSeconds");
  }

  @Test
  void normalisesNamesTargetsAndTheTrailingDot() {
    EndpointRules.Checked c =
        EndpointRules.check(
            List.of(
                new DnsRecord(
                    "Web.Example.com.",
                    "aaaa",
                    0,
                    List.of("2001:DB8:0:0:0:0:0:1", "2001:db8::1"),
                    Map.of("strategy", "roundRobin")),
                record("alias.example.com", "CNAME", "LB.example.NET."),
                record("*.example.com", "A", "::ffff:192.0.2.9")));

    assertThat(c.problems()).isEmpty();
    assertThat(c.endpoints())
        .containsExactly(
            Endpoint.of("*.example.com", "A", 30, List.of("192.0.2.9")),
            Endpoint.of("alias.example.com", "CNAME", 30, List.of("lb.example.net")),
            new Endpoint(
                "web.example.com",
                "AAAA",
                0,
                List.of("2001:db8::1"),
                Map.of("strategy", "roundRobin"),
                null,
                Map.of()));
  }
}
