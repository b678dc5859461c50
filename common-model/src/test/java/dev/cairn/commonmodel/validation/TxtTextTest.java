package dev.cairn.commonmodel.validation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TxtTextTest {

  @Test
  void textTakesALengthOctetPerStringOf255() {
    assertThat(TxtText.rdataOctets("")).isEqualTo(1);
    assertThat(TxtText.rdataOctets("owner=a")).isEqualTo(8);
    assertThat(TxtText.rdataOctets("x".repeat(255))).isEqualTo(256);
    assertThat(TxtText.rdataOctets("x".repeat(256))).isEqualTo(258);
    // Octets, not characters: é is two in UTF-8.
    assertThat(TxtText.rdataOctets("é".repeat(200))).isEqualTo(402);
  }

  @Test
  void textUpToTheLimitPassesAndOneOctetMoreIsAProblemNamingTheField() {
    // 64,746 octets in 254 strings: 65,000 octets of record data.
    assertThat(TxtText.check("records[0].targets[0]", "x".repeat(64_746))).isEmpty();

    assertThat(TxtText.check("records[0].targets[0]", "x".repeat(64_747)))
        .hasValueSatisfying(
            p -> {
              assertThat(p.field()).isEqualTo("records[0].targets[0]");
              assertThat(p.value()).hasSize(41).endsWith("…");
              assertThat(p.reason())
                  .isEqualTo(
                      "TXT text of 64747 octets takes 65001 octets of record data; a DNS record"
                          + " served in a reply holds at most 65000");
            });
    assertThat(TxtText.check("t", null)).isEmpty();
  }
}
