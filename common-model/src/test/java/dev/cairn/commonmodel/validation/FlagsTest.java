package dev.cairn.commonmodel.validation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class FlagsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "true",
        "TRUE",
        "True",
        "t",
        "T",
        "yes",
        "Yes",
        "y",
        "on",
        "ON",
        "1",
        "enabled",
        " true ",
        "\ttrue\n"
      })
  void readsTrueSpellings(String text) {
    assertThat(Flags.parse(text)).contains(true);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "false",
        "FALSE",
        "False",
        "f",
        "F",
        "no",
        "No",
        "n",
        "off",
        "OFF",
        "0",
        "disabled",
        " off ",
        "\tno\n"
      })
  void readsFalseSpellingsAsFalseUnlikeGoParseBool(String text) {
    assertThat(Flags.parse(text)).contains(false);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {" ", "maybe", "2", "-1", "ture", "yess", "on1", "o n", "enable", "nope", "true,"})
  @NullAndEmptySource
  void leavesEverythingElseUndecided(String text) {
    assertThat(Flags.parse(text)).isEmpty();
  }
}
