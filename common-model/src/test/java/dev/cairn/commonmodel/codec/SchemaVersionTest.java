package dev.cairn.commonmodel.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SchemaVersionTest {

  @ParameterizedTest
  @CsvSource({"1.0, 1, 0", "1, 1, 0", "1.12, 1, 12", "0.3, 0, 3", "2.0, 2, 0", "012.1, 12, 1"})
  void parsesMajorAndMinor(String text, int major, int minor) {
    assertThat(SchemaVersion.parse(text)).isEqualTo(new SchemaVersion(major, minor));
    assertThat(SchemaVersion.parse(text.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(new SchemaVersion(major, minor));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "x", "1.x", "1.0.0", "-1.0", "+1.0", " 1.0", "1.0 ", "1..0", "1234567.0"})
  void rejectsTextThatIsNotAVersion(String text) {
    assertThatThrownBy(() -> SchemaVersion.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text + "'");
  }

  @Test
  void rejectsAMissingValue() {
    assertThatThrownBy(() -> SchemaVersion.parse((String) null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SchemaVersion.parse((byte[]) null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsNegativeParts() {
    assertThatThrownBy(() -> new SchemaVersion(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SchemaVersion(1, -1)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @CsvSource({"1.0, true", "1.9, true", "0.1, true", "2.0, false", "3.4, false"})
  void theCurrentVersionReadsEveryMinorOfItsMajorAndOlder(String other, boolean readable) {
    assertThat(SchemaVersion.CURRENT.canRead(SchemaVersion.parse(other))).isEqualTo(readable);
  }

  @Test
  void theCurrentVersionIsOneFourInTheHeader() {
    assertThat(SchemaVersion.HEADER).isEqualTo("cairn-schema-version");
    assertThat(SchemaVersion.CURRENT).hasToString("1.4");
    assertThat(new String(SchemaVersion.CURRENT.toHeader(), StandardCharsets.UTF_8))
        .isEqualTo("1.4");
  }
}
