package dev.cairn.strategyengine.placement;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResolverAddressTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1.1.1.1|1.1.1.1:53",
        " 1.1.1.1:5353 |1.1.1.1:5353",
        "dns.local|dns.local:53",
        "dns.local:5300|dns.local:5300",
        "2606:4700::1111|2606:4700::1111",
        "[2606:4700::1111]:5353|[2606:4700::1111]:5353"
      })
  void normalisesExactlyLikeDirectDns(String raw, String expected) {
    assertThat(ResolverAddress.normalise(raw)).isEqualTo(expected);
    assertThat(ResolverAddress.isValid(expected)).isTrue();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"dns server!:53", "1.1.1.1:0", "1.1.1.1:65536", "host:", "[::1", ":53", "[::1]"})
  void refusesWhatCannotBeDialled(String normalised) {
    assertThat(ResolverAddress.isValid(normalised)).isFalse();
  }
}
