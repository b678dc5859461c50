package dev.cairn.healthprober.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ServerAddressTest {

  @ParameterizedTest
  @CsvSource({
    "192.0.2.1, 192.0.2.1:53",
    "' 192.0.2.1:5353 ', 192.0.2.1:5353",
    "2001:DB8::1, [2001:db8::1]:53",
    "[2001:db8:0::1], [2001:db8::1]:53",
    "[::1]:5300, [::1]:5300",
    "::ffff:192.0.2.9, 192.0.2.9:53"
  })
  void parsesAndPrintsCanonically(String text, String expected) {
    ServerAddress.Result r = ServerAddress.parse(text, 53);

    assertThat(r.error()).isNull();
    assertThat(r.address()).hasToString(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "dns.example.com",
        "dns.example.com:53",
        "192.0.2.1:0",
        "192.0.2.1:65536",
        "192.0.2.1:x",
        "192.0.2.1:",
        "[192.0.2.1]:53",
        "[::1",
        "[::1]x",
        "010.0.0.1"
      })
  void rejectsWhatIsNotAnIpLiteralWithPort(String text) {
    assertThat(ServerAddress.parse(text, 53).error()).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"dns.example.com"})
  void requireNamesTheField(String text) {
    assertThatThrownBy(() -> ServerAddress.require("prober.peers[0].servers[0]", text, 53))
        .hasMessageContaining("prober.peers[0].servers[0]")
        .hasMessageContaining("not an IP address literal");
  }

  @ParameterizedTest
  @CsvSource({"192.0.2.1:53, 192.0.2.1:53, 0", "192.0.2.1:53, 192.0.2.2:53, -1"})
  void comparesByFamilyAddressAndPort(String a, String b, int sign) {
    int c = ServerAddress.require("a", a, 53).compareTo(ServerAddress.require("b", b, 53));

    assertThat(Integer.signum(c)).isEqualTo(sign);
  }
}
