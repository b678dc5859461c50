package dev.cairn.healthprober.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplyClassifierTest {

  private static final String Q = "localtargets-app.cloud.example.com";
  private static final String ZONE = "cloud.example.com";

  static ReplyRecord a(String owner, String ip, long ttl) {
    return new ReplyRecord(owner, RecordType.A, ttl, ip);
  }

  static ReplyRecord aaaa(String owner, String ip) {
    return new ReplyRecord(owner, RecordType.AAAA, 30, ip);
  }

  static ReplyRecord cname(String owner, String target) {
    return new ReplyRecord(owner, RecordType.CNAME, 20, target);
  }

  static ReplyRecord soa() {
    return new ReplyRecord(ZONE, RecordType.SOA, 60, "");
  }

  static QueryResult classify(RecordType type, DnsReply reply) {
    return ReplyClassifier.classify(Q, type, reply, ZONE, 64);
  }

  static List<String> texts(QueryResult r) {
    return r.addresses().stream().map(IpLiteral::text).toList();
  }

  @Test
  void takesTheAddressesOfTheQueryNameWithTheSmallestTtl() {
    QueryResult r =
        classify(
            RecordType.A,
            new DnsReply(
                0,
                List.of(a(Q, "192.0.2.2", 30), a(Q.toUpperCase() + ".", "192.0.2.1", 10)),
                List.of(),
                null));

    assertThat(r.status()).isEqualTo(ProbeStatus.OK);
    assertThat(texts(r)).containsExactly("192.0.2.2", "192.0.2.1");
    assertThat(r.ttlSeconds()).isEqualTo(10L);
  }

  @Test
  void ignoresRecordsForOtherNames() {
    QueryResult r =
        classify(
            RecordType.A,
            new DnsReply(
                0,
                List.of(a("evil.example.org", "203.0.113.1", 30), a(Q, "192.0.2.1", 30)),
                List.of(),
                null));

    assertThat(texts(r)).containsExactly("192.0.2.1");
  }

  @Test
  void onlyRecordsForOtherNamesIsNodata() {
    QueryResult r =
        classify(
            RecordType.A,
            new DnsReply(
                0, List.of(a("evil.example.org", "203.0.113.1", 30)), List.of(soa()), 15L));

    assertThat(r.status()).isEqualTo(ProbeStatus.NODATA);
    assertThat(r.addresses()).isEmpty();
    assertThat(r.ttlSeconds()).isEqualTo(15L);
  }

  @Test
  void followsACnameInsideTheZoneWithinTheAnswer() {
    String target = "lb.cloud.example.com";
    QueryResult r =
        classify(
            RecordType.A,
            new DnsReply(
                0, List.of(cname(Q, target), a(target, "192.0.2.9", 30)), List.of(), null));

    assertThat(texts(r)).containsExactly("192.0.2.9");
    assertThat(r.ttlSeconds()).isEqualTo(20L);
  }

  @Test
  void neverFollowsACnameOutOfTheZone() {
    String target = "lb.attacker.example.org";
    QueryResult r =
        classify(
            RecordType.A,
            new DnsReply(
                0, List.of(cname(Q, target), a(target, "203.0.113.9", 30)), List.of(), null));

    assertThat(r.status()).isEqualTo(ProbeStatus.NODATA);
    assertThat(r.detail()).contains("leaves cloud.example.com");
  }

  @Test
  void followsAnyCnameForAResolverWithoutBailiwick() {
    String target = "edge.cdn.example.net";
    QueryResult r =
        ReplyClassifier.classify(
            "node1.example.com",
            RecordType.A,
            new DnsReply(
                0,
                List.of(cname("node1.example.com", target), a(target, "198.51.100.1", 30)),
                List.of(),
                null),
            "",
            64);

    assertThat(texts(r)).containsExactly("198.51.100.1");
  }

  @Test
  void stopsAtACnameLoop() {
    String other = "x.cloud.example.com";
    QueryResult r =
        classify(
            RecordType.A,
            new DnsReply(0, List.of(cname(Q, other), cname(other, Q)), List.of(), null));

    assertThat(r.status()).isEqualTo(ProbeStatus.NODATA);
    assertThat(r.detail()).contains("loop");
  }

  @Test
  void capsTheNumberOfRecordsTaken() {
    List<ReplyRecord> many = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      many.add(a(Q, "10.0." + (i / 256) + "." + (i % 256), 30));
    }
    QueryResult r =
        ReplyClassifier.classify(Q, RecordType.A, new DnsReply(0, many, List.of(), null), ZONE, 64);

    assertThat(r.addresses()).hasSize(64);
    assertThat(r.capped()).isTrue();
  }

  @Test
  void mapsAnIpv4MappedAaaaToIpv4AndCanonicalisesIpv6() {
    QueryResult r =
        classify(
            RecordType.AAAA,
            new DnsReply(
                0,
                List.of(aaaa(Q, "::ffff:192.0.2.1"), aaaa(Q, "2001:DB8:0:0:0:0:0:1")),
                List.of(),
                null));

    assertThat(r.addresses())
        .containsExactly(
            new IpLiteral(IpLiteral.Family.IPV4, "192.0.2.1"),
            new IpLiteral(IpLiteral.Family.IPV6, "2001:db8::1"));
  }

  @Test
  void mapsResponseCodes() {
    assertThat(classify(RecordType.A, new DnsReply(3, List.of(), List.of(soa()), 15L)))
        .satisfies(
            r -> {
              assertThat(r.status()).isEqualTo(ProbeStatus.NXDOMAIN);
              assertThat(r.ttlSeconds()).isEqualTo(15L);
            });
    assertThat(classify(RecordType.A, new DnsReply(2, List.of(), List.of(), null)).status())
        .isEqualTo(ProbeStatus.SERVFAIL);
    assertThat(classify(RecordType.A, new DnsReply(5, List.of(), List.of(), null)).status())
        .isEqualTo(ProbeStatus.REFUSED);
    assertThat(classify(RecordType.A, new DnsReply(1, List.of(), List.of(), null)).status())
        .isEqualTo(ProbeStatus.ERROR);
    assertThat(classify(RecordType.A, new DnsReply(4, List.of(), List.of(), null)).detail())
        .contains("response code 4");
  }

  @Test
  void aReferralIsAnErrorNotAnEmptyAnswer() {
    QueryResult r =
        classify(
            RecordType.A,
            new DnsReply(
                0,
                List.of(),
                List.of(new ReplyRecord(ZONE, RecordType.NS, 30, "ns.example.com")),
                null));

    assertThat(r.status()).isEqualTo(ProbeStatus.ERROR);
    assertThat(r.detail()).contains("referral");
  }

  @Test
  void anAnswerOfAnotherTypeIsOkWithoutAddresses() {
    QueryResult r =
        ReplyClassifier.classify(
            ZONE,
            RecordType.NS,
            new DnsReply(
                0,
                List.of(new ReplyRecord(ZONE, RecordType.NS, 30, "ns.example.com")),
                List.of(),
                null),
            "",
            64);

    assertThat(r.status()).isEqualTo(ProbeStatus.OK);
    assertThat(r.addresses()).isEmpty();
  }

  @Test
  void readsNameServersFromAnswerOrAuthority() {
    DnsReply referral =
        new DnsReply(
            0,
            List.of(),
            List.of(
                new ReplyRecord(ZONE, RecordType.NS, 30, "gslb-ns-eu-cloud.example.com"),
                new ReplyRecord("other.example.com", RecordType.NS, 30, "ns.other.example.com"),
                new ReplyRecord(ZONE + ".", RecordType.NS, 30, "GSLB-NS-US-cloud.example.com.")),
            null);

    assertThat(ReplyClassifier.nameServers(ZONE, referral))
        .containsExactly("gslb-ns-eu-cloud.example.com", "gslb-ns-us-cloud.example.com");
  }
}
