package dev.cairn.healthprober.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeOutcomeTest {

  static QueryResult ok(long ttl, String... ips) {
    return new QueryResult(
        ProbeStatus.OK,
        java.util.Arrays.stream(ips).map(ip -> IpLiteral.parse(ip).orElseThrow()).toList(),
        ttl,
        false,
        "");
  }

  static QueryResult of(ProbeStatus s) {
    return QueryResult.of(s, "why");
  }

  @Test
  void mergesBothFamiliesSortedWithTheSmallestTtl() {
    ProbeOutcome o =
        ProbeOutcome.combine(
            ok(30, "192.0.2.9", "192.0.2.10"), ok(20, "2001:db8::2", "::ffff:192.0.2.1"), "s");

    assertThat(o.status()).isEqualTo(ProbeStatus.OK);
    assertThat(o.ipv4()).containsExactly("192.0.2.1", "192.0.2.10", "192.0.2.9");
    assertThat(o.ipv6()).containsExactly("2001:db8::2");
    assertThat(o.ttlSeconds()).isEqualTo(20L);
  }

  @Test
  void keepsTargetsSortedAndDistinctWhateverOrderTheyCameIn() {
    List<String> sorted = List.of("192.0.2.1", "192.0.2.9");

    ProbeOutcome unsorted =
        new ProbeOutcome(
            ProbeStatus.OK,
            java.util.Arrays.asList("192.0.2.9", "192.0.2.1", "192.0.2.9"),
            List.of("2001:db8::2", "2001:db8::1"),
            30L,
            "s",
            null,
            "");
    ProbeOutcome already = new ProbeOutcome(ProbeStatus.OK, sorted, List.of(), 30L, "s", null, "");

    assertThat(unsorted.ipv4()).isEqualTo(sorted);
    assertThat(unsorted.ipv6()).containsExactly("2001:db8::1", "2001:db8::2");
    assertThat(already.ipv4()).isSameAs(sorted); // nothing to copy
    assertThat(ProbeOutcome.combine(ok(30, "192.0.2.1", "192.0.2.1"), ok(30), "s").ipv4())
        .containsExactly("192.0.2.1");
  }

  @Test
  void anAddressInOneFamilyAndAnEmptyOtherIsOk() {
    ProbeOutcome o = ProbeOutcome.combine(ok(30, "192.0.2.1"), of(ProbeStatus.NODATA), "s");

    assertThat(o.status()).isEqualTo(ProbeStatus.OK);
    assertThat(o.ipv6()).isEmpty();
  }

  @Test
  void anUnreachableHalfMakesTheWholeUnreachable() {
    assertThat(ProbeOutcome.combine(ok(30, "192.0.2.1"), of(ProbeStatus.TIMEOUT), "s").status())
        .isEqualTo(ProbeStatus.TIMEOUT);
    assertThat(
            ProbeOutcome.combine(of(ProbeStatus.SERVFAIL), of(ProbeStatus.TIMEOUT), "s").status())
        .isEqualTo(ProbeStatus.SERVFAIL);
    assertThat(ProbeOutcome.combine(of(ProbeStatus.REFUSED), ok(30, "2001:db8::1"), "s").ipv6())
        .isEmpty();
  }

  @Test
  void emptyAnswersStayDistinguishableFromUnreachable() {
    assertThat(
            ProbeOutcome.combine(of(ProbeStatus.NXDOMAIN), of(ProbeStatus.NXDOMAIN), "s").status())
        .isEqualTo(ProbeStatus.NXDOMAIN);
    assertThat(ProbeOutcome.combine(of(ProbeStatus.NXDOMAIN), of(ProbeStatus.NODATA), "s").status())
        .isEqualTo(ProbeStatus.NODATA);
    assertThat(ProbeOutcome.combine(of(ProbeStatus.NODATA), of(ProbeStatus.NODATA), "s").status())
        .isEqualTo(ProbeStatus.NODATA);
  }

  @Test
  void unreachableRefusesAnAnsweringStatus() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ProbeOutcome.unreachable(ProbeStatus.OK, "s", null, ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(ProbeOutcome.unreachable(ProbeStatus.TIMEOUT, "s", null, "").ipv4())
        .isEqualTo(List.of());
  }
}
