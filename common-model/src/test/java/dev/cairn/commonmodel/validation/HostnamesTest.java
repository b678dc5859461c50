package dev.cairn.commonmodel.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class HostnamesTest {

  private static final String FIELD = "spec.hostnames[0]";
  private static final String LABEL_63 = "a".repeat(63);
  private static final String LABEL_64 = "a".repeat(64);

  /** 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 octets. */
  private static final String NAME_253 =
      LABEL_63 + "." + LABEL_63 + "." + LABEL_63 + "." + "b".repeat(61);

  private static final String NAME_254 = NAME_253 + "c";

  static Stream<Arguments> validNames() {
    return Stream.of(
        Arguments.of("example.com", "example.com"),
        Arguments.of("app.example.com", "app.example.com"),
        Arguments.of("a", "a"),
        Arguments.of("localhost", "localhost"),
        Arguments.of("a-b.example.com", "a-b.example.com"),
        Arguments.of("a--b.example.com", "a--b.example.com"),
        Arguments.of("123.example.com", "123.example.com"),
        Arguments.of("xn--bcher-kva.example", "xn--bcher-kva.example"),
        Arguments.of("App.Example.COM", "app.example.com"),
        Arguments.of("app.example.com.", "app.example.com"),
        Arguments.of("APP.EXAMPLE.COM.", "app.example.com"),
        Arguments.of(LABEL_63 + ".example.com", LABEL_63 + ".example.com"),
        Arguments.of(NAME_253, NAME_253),
        Arguments.of(NAME_253 + ".", NAME_253),
        Arguments.of(NAME_253.toUpperCase(java.util.Locale.ROOT), NAME_253));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validNames")
  void acceptsAndNormalisesRfc1123Names(String name, String normalised) {
    assertThat(Hostnames.check(FIELD, name)).isEmpty();
    assertThat(Hostnames.checkPattern(FIELD, name)).isEmpty();
    assertThat(Hostnames.isValid(name)).isTrue();
    assertThat(Hostnames.require(FIELD, name)).isEqualTo(normalised);
    assertThat(Hostnames.normalise(name)).isEqualTo(normalised);
  }

  static Stream<Arguments> invalidNames() {
    return Stream.of(
        Arguments.of(".", "only a dot"),
        Arguments.of("..", "empty label"),
        Arguments.of("a..b", "empty label"),
        Arguments.of(".a.com", "empty label"),
        Arguments.of("example.com..", "empty label"),
        Arguments.of(LABEL_64 + ".example.com", "64 octets"),
        Arguments.of("example." + LABEL_64, "64 octets"),
        Arguments.of(NAME_254, "254 octets"),
        Arguments.of(NAME_254 + ".", "254 octets"),
        Arguments.of("a_b.example.com", "'_'"),
        Arguments.of("_dmarc.example.com", "'_'"),
        Arguments.of("a b.example.com", "' '"),
        Arguments.of(" app.example.com", "whitespace"),
        Arguments.of("app.example.com ", "whitespace"),
        Arguments.of("app.example.com\n", "whitespace"),
        Arguments.of("-app.example.com", "hyphen"),
        Arguments.of("app-.example.com", "hyphen"),
        Arguments.of("app.-example.com", "hyphen"),
        Arguments.of("app.example.com-", "hyphen"),
        Arguments.of("-", "hyphen"),
        Arguments.of("*.example.com", "'*'"),
        Arguments.of("app.example.com:443", "':'"),
        Arguments.of("https://app.example.com", "':'"),
        Arguments.of("app.example.com/path", "'/'"),
        Arguments.of("app,example.com", "','"),
        Arguments.of("bücher.example", "'ü'"),
        Arguments.of("ＡＰＰ.example.com", "'"),
        // U+212A KELVIN SIGN lower-cases to an ASCII 'k'; it must not sneak through
        Arguments.of("\u212Aube.example.com", "'"),
        // U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE lower-cases to two characters
        Arguments.of("\u0130.example.com", "'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidNames")
  void rejectsNamesNamingTheFieldAndTheValue(String name, String reasonMentions) {
    Optional<Problem> problem = Hostnames.check(FIELD, name);

    assertThat(problem)
        .hasValueSatisfying(
            p -> {
              assertThat(p.field()).isEqualTo(FIELD);
              assertThat(p.value()).isEqualTo(name);
              assertThat(p.reason()).contains(reasonMentions);
            });
    assertThat(Hostnames.isValid(name)).isFalse();
    assertThatThrownBy(() -> Hostnames.require(FIELD, name))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining(FIELD)
        .hasMessageContaining("'" + name + "'");
  }

  @ParameterizedTest
  @NullAndEmptySource
  void rejectsMissingNames(String name) {
    assertThat(Hostnames.check(FIELD, name))
        .hasValueSatisfying(
            p -> {
              assertThat(p.field()).isEqualTo(FIELD);
              assertThat(p.value()).isEqualTo(name);
              assertThat(p.reason()).contains("empty");
            });
    assertThat(Hostnames.isValid(name)).isFalse();
  }

  @Test
  void labelsOf63OctetsAreAllowedAnd64AreNot() {
    assertThat(Hostnames.isValid(LABEL_63 + ".com")).isTrue();
    assertThat(Hostnames.isValid(LABEL_64 + ".com")).isFalse();
    assertThat(Hostnames.MAX_LABEL).isEqualTo(63);
  }

  @Test
  void namesOf253OctetsAreAllowedAnd254AreNot() {
    assertThat(NAME_253).hasSize(253);
    assertThat(Hostnames.isValid(NAME_253)).isTrue();
    assertThat(Hostnames.isValid(NAME_253 + ".")).isTrue();
    assertThat(Hostnames.isValid(NAME_254)).isFalse();
    assertThat(Hostnames.MAX_NAME).isEqualTo(253);
  }

  @ParameterizedTest
  @ValueSource(strings = {"*.example.com", "*.a", "*.EXAMPLE.com.", "*.xn--bcher-kva.example"})
  void acceptsALeadingWildcardLabelOnlyAsAPattern(String pattern) {
    assertThat(Hostnames.checkPattern(FIELD, pattern)).isEmpty();
    assertThat(Hostnames.check(FIELD, pattern)).isPresent();
    assertThat(Hostnames.isValid(pattern)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "*",
        "*.",
        "a.*.example.com",
        "example.*",
        "**.example.com",
        "*a.example.com",
        "a*.example.com",
        "*.*.example.com",
        "*-.example.com"
      })
  void rejectsWildcardsAnywhereButAsTheWholeFirstLabel(String pattern) {
    assertThat(Hostnames.checkPattern(FIELD, pattern))
        .hasValueSatisfying(
            p -> {
              assertThat(p.field()).isEqualTo(FIELD);
              assertThat(p.value()).isEqualTo(pattern);
            });
  }

  @Test
  void normaliseStripsOnlyOneTrailingDotAndKeepsNull() {
    assertThat(Hostnames.normalise("Example.COM.")).isEqualTo("example.com");
    assertThat(Hostnames.normalise("example.com..")).isEqualTo("example.com.");
    assertThat(Hostnames.normalise(null)).isNull();
  }

  @ParameterizedTest(name = "{0} in {1}: {2}")
  @CsvSource({
    "app.cloud.example.com,       cloud.example.com,  true",
    "cloud.example.com,           cloud.example.com,  true",
    "a.b.cloud.example.com,       cloud.example.com,  true",
    "APP.Cloud.Example.com.,      cloud.example.com., true",
    "app.cloud.example.com,       CLOUD.example.COM,  true",
    "*.cloud.example.com,         cloud.example.com,  true",
    "evilcloud.example.com,       cloud.example.com,  false",
    "app.evilcloud.example.com,   cloud.example.com,  false",
    "example.com,                 cloud.example.com,  false",
    "cloud.example.com.evil.net,  cloud.example.com,  false",
    "cloud.example.co,            cloud.example.com,  false",
  })
  void isInZoneMatchesWholeLabelsOnly(String name, String zone, boolean inZone) {
    assertThat(Hostnames.isInZone(name, zone)).isEqualTo(inZone);
  }
}
