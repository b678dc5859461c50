package dev.cairn.recordwriter.plan;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LabelValuesTest {

  @ParameterizedTest
  @ValueSource(strings = {"", "cairn", "local", "a.b_c-d", "A1"})
  void keepsValidValues(String value) {
    assertThat(LabelValues.sanitise(value)).isEqualTo(value);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"HTTPRoute/shop/web", "-leading", "trailing.", "spaces in it", "ünïcode", "/"})
  void makesInvalidValuesValid(String value) {
    String s = LabelValues.sanitise(value);

    assertThat(LabelValues.isValidValue(s)).as(s).isTrue();
    assertThat(s).isNotEqualTo(value);
  }

  @Test
  void shortensLongValuesAndKeepsThemDistinct() {
    String a = "x".repeat(70) + "a";
    String b = "x".repeat(70) + "b";

    String sa = LabelValues.sanitise(a);
    String sb = LabelValues.sanitise(b);

    assertThat(sa).hasSizeLessThanOrEqualTo(63).startsWith("xxxx");
    assertThat(LabelValues.isValidValue(sa)).isTrue();
    assertThat(sa).isNotEqualTo(sb);
    assertThat(LabelValues.sanitise(a)).isEqualTo(sa);
  }

  @Test
  void checksKeys() {
    assertThat(LabelValues.isValidKey("app.kubernetes.io/managed-by")).isTrue();
    assertThat(LabelValues.isValidKey("k8gb.io/dnstype")).isTrue();
    assertThat(LabelValues.isValidKey("team")).isTrue();
    assertThat(LabelValues.isValidKey("bad key")).isFalse();
    assertThat(LabelValues.isValidKey("Upper.Case/x")).isFalse();
    assertThat(LabelValues.isValidKey("x".repeat(64))).isFalse();
    assertThat(LabelValues.isValidKey("")).isFalse();
  }
}
