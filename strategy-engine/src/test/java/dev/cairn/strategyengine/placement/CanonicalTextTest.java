package dev.cairn.strategyengine.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalTextTest {

  @ParameterizedTest
  @ValueSource(strings = {"0.0.0.0", "192.0.2.1", "255.255.255.255", "10.42.0.100"})
  void aStrictDottedQuadIsItsOwnCanonicalText(String text) {
    assertThat(CanonicalText.isCanonicalIpv4(text)).isTrue();
    assertThat(IpLiteral.parse(text)).map(IpLiteral::text).contains(text);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "1.2.3",
        "1.2.3.4.5",
        "010.0.0.1",
        "256.1.1.1",
        "1.2.3.4 ",
        "1..2.3",
        "1.2.3.",
        "::ffff:192.0.2.1",
        "a.b.c.d",
        "1.2.3.04",
        "00.1.2.3"
      })
  void anythingElseIsNotACanonicalIpv4(String text) {
    assertThat(CanonicalText.isCanonicalIpv4(text)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"app.cloud.example.com", "a", "x-1.y-2", "0.example"})
  void aLowerCaseValidNameIsCanonical(String text) {
    assertThat(CanonicalText.isCanonicalHostname(text)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "App.example.com",
        "app.example.com.",
        "-a.example",
        "a-.example",
        "a..b",
        ".a",
        "*.example.com",
        "a b",
        "a_b.example"
      })
  void anythingElseGoesThroughTheFullCheck(String text) {
    assertThat(CanonicalText.isCanonicalHostname(text)).isFalse();
  }

  @Test
  void labelAndNameLengthsFollowRfc1035() {
    assertThat(CanonicalText.isCanonicalHostname("a".repeat(63) + ".b")).isTrue();
    assertThat(CanonicalText.isCanonicalHostname("a".repeat(64) + ".b")).isFalse();
    String longest = ("a".repeat(62) + ".").repeat(4) + "b".repeat(1); // 253 octets
    assertThat(longest).hasSize(253);
    assertThat(CanonicalText.isCanonicalHostname(longest)).isTrue();
    assertThat(CanonicalText.isCanonicalHostname(longest + "b")).isFalse();
  }

  @Test
  void agreesWithTheGeneralParsersOnRandomText() {
    Random random = new Random(20261129);
    String ipChars = "0123456789.:a ";
    String nameChars = "abz09-.A_*";
    for (int i = 0; i < 200_000; i++) {
      String ip = randomText(random, ipChars, 16);
      assertThat(CanonicalText.isCanonicalIpv4(ip)).as(ip).isEqualTo(IpLiteral.isIpv4(ip));
      String name = randomText(random, nameChars, 12);
      if (CanonicalText.isCanonicalHostname(name)) {
        assertThat(Hostnames.check("f", name)).as(name).isEmpty();
        assertThat(Hostnames.normalise(name)).as(name).isEqualTo(name);
      } else if (Hostnames.check("f", name).isEmpty()) {
        // valid but not canonical: only letter case or a trailing dot may differ
        assertThat(Hostnames.normalise(name)).as(name).isNotEqualTo(name);
      }
    }
  }

  private static String randomText(Random random, String alphabet, int maxLength) {
    StringBuilder text = new StringBuilder();
    int length = random.nextInt(maxLength + 1);
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }
}
