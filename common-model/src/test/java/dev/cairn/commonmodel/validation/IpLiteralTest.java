package dev.cairn.commonmodel.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.validation.IpLiteral.Family;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class IpLiteralTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "192.0.2.1       | 192.0.2.1",
        "0.0.0.0         | 0.0.0.0",
        "255.255.255.255 | 255.255.255.255",
        "10.0.0.0        | 10.0.0.0",
        "100.64.0.1      | 100.64.0.1",
      })
  void acceptsDottedQuads(String text, String canonical) {
    assertThat(IpLiteral.parse(text)).contains(new IpLiteral(Family.IPV4, canonical));
    assertThat(IpLiteral.isIpv4(text)).isTrue();
    assertThat(IpLiteral.isIpv6(text)).isFalse();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        // already canonical
        "2001:db8::1                             | 2001:db8::1",
        "::                                      | ::",
        "::1                                     | ::1",
        "1::                                     | 1::",
        "fe80::1:2                               | fe80::1:2",
        "1:2:3:4:5:6:7:8                         | 1:2:3:4:5:6:7:8",
        // lower case, leading zeros dropped, zero runs compressed (RFC 5952 4.1, 4.2, 4.3)
        "2001:DB8:0::1                           | 2001:db8::1",
        "2001:0db8:0000:0000:0000:0000:0000:0001 | 2001:db8::1",
        "ABCD:EF01:2345:6789:ABCD:EF01:2345:6789 | abcd:ef01:2345:6789:abcd:ef01:2345:6789",
        "0:0:0:0:0:0:0:0                         | ::",
        "0:0:0:0:0:0:0:1                         | ::1",
        "1:0:0:0:0:0:0:0                         | 1::",
        "2001:db8:0:0:0:0:2:1                    | 2001:db8::2:1",
        // the longest run is compressed
        "1:0:0:2:0:0:0:3                         | 1:0:0:2::3",
        "2001:0:0:1:0:0:0:1                      | 2001:0:0:1::1",
        // on a tie, the leftmost run
        "1:0:0:2:0:0:3:4                         | 1::2:0:0:3:4",
        "2001:db8:0:0:1:0:0:1                    | 2001:db8::1:0:0:1",
        // a single 0 group is never compressed (RFC 5952 4.2.2)
        "1:0:2:3:4:5:6:7                         | 1:0:2:3:4:5:6:7",
        "2001:db8:0:1:1:1:1:1                    | 2001:db8:0:1:1:1:1:1",
        "1:2:3:4:5:6:7::                         | 1:2:3:4:5:6:7:0",
        "::2:3:4:5:6:7:8                         | 0:2:3:4:5:6:7:8",
        // an embedded IPv4 that is not IPv4-mapped stays IPv6, written in hex like Go's net.IP
        "64:ff9b::192.0.2.1                      | 64:ff9b::c000:201",
        "1:2:3:4:5:6:1.2.3.4                     | 1:2:3:4:5:6:102:304",
      })
  void acceptsIpv6AndWritesItAsRfc5952Canonical(String text, String canonical) {
    assertThat(IpLiteral.parse(text)).contains(new IpLiteral(Family.IPV6, canonical));
    assertThat(IpLiteral.isIpv6(text)).isTrue();
    assertThat(IpLiteral.isIpv4(text)).isFalse();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "::ffff:192.0.2.1         | 192.0.2.1",
        "::FFFF:192.0.2.1         | 192.0.2.1",
        "::ffff:c000:201          | 192.0.2.1",
        "0:0:0:0:0:ffff:c000:0201 | 192.0.2.1",
        "::ffff:0.0.0.0           | 0.0.0.0",
      })
  void turnsIpv4MappedAddressesIntoTheIpv4TheyMap(String text, String ipv4) {
    assertThat(IpLiteral.parse(text)).contains(new IpLiteral(Family.IPV4, ipv4));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @ValueSource(
      strings = {
        // IPv4: leading zeros (octal to inet_aton), short and long forms, out of range
        "010.0.0.1",
        "1.2.3.04",
        "00.0.0.0",
        "1.2.3",
        "1",
        "1.2.3.4.5",
        "256.1.1.1",
        "1.2.3.256",
        "1.2.3.-4",
        "+1.2.3.4",
        "0x1.2.3.4",
        "1.2.3.",
        ".1.2.3",
        "1..2.3",
        // whitespace, ports, prefixes, names, separators
        " 1.2.3.4",
        "1.2.3.4 ",
        "1.2.3.4\n",
        "1.2.3.4:80",
        "1.2.3.4/32",
        "a,b",
        "1.2.3.4,5.6.7.8",
        "localhost",
        "example.com",
        // IPv6: brackets, zones, too many or too few groups, several "::"
        "[::1]",
        "[2001:db8::1]:53",
        "fe80::1%eth0",
        "fe80::1%1",
        "2001:db8::1/64",
        "1:2:3:4:5:6:7:8:9",
        "1:2:3:4:5:6:7",
        "1:2:3:4:5:6:7:8::",
        "::1:2:3:4:5:6:7:8",
        "::1::",
        "1::2::3",
        ":::",
        ":",
        ":1:2:3:4:5:6:7",
        "1:2:3:4:5:6:7:",
        "12345::",
        "g::1",
        "2001:db8:::1",
        // IPv4 inside IPv6: only last, only strict
        "::ffff:1.2.3",
        "::ffff:010.0.0.1",
        "1.2.3.4::",
        "::1.2.3.4:5",
        "1:2:3:4:5:6:7:1.2.3.4",
        // digits that are not ASCII
        "１.２.３.４",
        "١.٢.٣.٤",
        "２００１:db8::1",
        "2001:db8::１",
      })
  @NullAndEmptySource
  void rejectsAnythingButOneStrictLiteral(String text) {
    assertThat(IpLiteral.parse(text)).isEmpty();
    assertThat(IpLiteral.isIpv4(text)).isFalse();
    assertThat(IpLiteral.isIpv6(text)).isFalse();
  }

  @Test
  void canonicalFormsParseToThemselves() {
    for (String text :
        new String[] {"2001:db8::1", "::", "1::", "1:0:0:2::3", "1::2:0:0:3:4", "192.0.2.1"}) {
      IpLiteral ip = IpLiteral.parse(text).orElseThrow();
      assertThat(IpLiteral.parse(ip.text())).contains(ip);
      assertThat(ip.text()).isEqualTo(text);
    }
  }

  @Test
  void familiesNameTheirRecordTypes() {
    assertThat(Family.IPV4.recordType()).isEqualTo("A");
    assertThat(Family.IPV6.recordType()).isEqualTo("AAAA");
  }

  @Test
  void requireReturnsTheCanonicalLiteral() {
    assertThat(IpLiteral.require("spec.target", "2001:DB8::0:1"))
        .isEqualTo(new IpLiteral(Family.IPV6, "2001:db8::1"));
  }

  @Test
  void requireNamesTheFieldAndTheValue() {
    assertThatThrownBy(
            () ->
                IpLiteral.require(
                    "metadata.annotations[k8gb.io/exposed-ip-addresses]", "010.0.0.1"))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e -> {
              assertThat(e.problems())
                  .singleElement()
                  .satisfies(
                      p -> {
                        assertThat(p.field())
                            .isEqualTo("metadata.annotations[k8gb.io/exposed-ip-addresses]");
                        assertThat(p.value()).isEqualTo("010.0.0.1");
                        assertThat(p.reason()).isNotBlank();
                      });
              assertThat(e.getMessage())
                  .contains("metadata.annotations[k8gb.io/exposed-ip-addresses]")
                  .contains("'010.0.0.1'");
            });
  }

  @Test
  void requireReportsAMissingValue() {
    assertThatThrownBy(() -> IpLiteral.require("status.addresses[0].address", null))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("status.addresses[0].address=<missing>");
  }
}
