package dev.cairn.commonmodel.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.GoldenRecords;
import dev.cairn.commonmodel.TestRecords;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.topology.RouteState;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CairnDeserializerTest {

  private static final String TOPIC = Topics.ROUTES.name();

  private final CairnDeserializer<RouteState> deserializer =
      new CairnDeserializer<>(RouteState.class);
  private final RouteState route = TestRecords.aRoute().build();
  private final byte[] json = new CairnSerializer<RouteState>().serialize(TOPIC, route);

  @ParameterizedTest
  @ValueSource(strings = {"1.0", "1.1", "1.17", "1", "0.9"})
  void readsMessagesOfTheSameOrAnOlderMajorVersion(String version) {
    assertThat(deserializer.deserialize(TOPIC, version(version), json)).isEqualTo(route);
  }

  @Test
  void readsMessagesWithoutTheHeaderAsTheCurrentVersion() {
    assertThat(deserializer.deserialize(TOPIC, new RecordHeaders(), json)).isEqualTo(route);
    assertThat(deserializer.deserialize(TOPIC, null, json)).isEqualTo(route);
    assertThat(deserializer.deserialize(TOPIC, json)).isEqualTo(route);
  }

  @Test
  void usesTheLastVersionHeaderWhenThereAreSeveral() {
    RecordHeaders headers = version("2.0");
    headers.add(SchemaVersion.HEADER, "1.0".getBytes(StandardCharsets.UTF_8));

    assertThat(deserializer.deserialize(TOPIC, headers, json)).isEqualTo(route);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2", "3.1", "10.0"})
  void refusesANewerMajorVersionNamingTopicFoundAndSupportedVersion(String version) {
    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, version(version), json))
        .isInstanceOfSatisfying(
            SchemaVersionException.class,
            e -> {
              assertThat(e.topic()).isEqualTo(TOPIC);
              assertThat(e.found()).isEqualTo(SchemaVersion.parse(version));
              assertThat(e.getMessage())
                  .contains(TOPIC)
                  .contains(SchemaVersion.parse(version).toString())
                  .contains(SchemaVersion.CURRENT.toString());
            });
  }

  @Test
  void refusesANewerMajorVersionEvenForATombstone() {
    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, version("2.0"), (byte[]) null))
        .isInstanceOf(SchemaVersionException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"{", "not json", "[1,2]", "\"text\"", "42", "{\"kind\": }", "", "null"})
  void rejectsBadJsonAsMalformedNamingTopicAndType(String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, version("1.0"), bytes))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessageContaining(TOPIC)
        .hasMessageContaining("RouteState");
  }

  @Test
  void rejectsAWrongFieldTypeAsMalformed() {
    String wrong =
        "{\"kind\":\"HTTPRoute\",\"namespace\":\"default\",\"name\":\"app\","
            + "\"backends\":[{\"name\":\"web\",\"port\":\"eighty\"}]}";

    assertThatThrownBy(
            () -> deserializer.deserialize(TOPIC, null, wrong.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessageContaining(TOPIC)
        .hasMessageContaining("RouteState")
        .hasCauseInstanceOf(tools.jackson.core.JacksonException.class);
  }

  @Test
  void rejectsAMissingRequiredFieldAsMalformed() {
    byte[] noName =
        "{\"kind\":\"HTTPRoute\",\"namespace\":\"default\"}".getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, null, noName))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessageContaining("RouteState")
        .hasMessageContaining("name");
  }

  @Test
  void rejectsAnUnknownEnumConstantAsMalformed() {
    CairnDeserializer<TargetDecision> decisions = new CairnDeserializer<>(TargetDecision.class);
    String golden =
        new String(
            new CairnSerializer<TargetDecision>()
                .serialize(Topics.DECISIONS.name(), GoldenRecords.decision()),
            StandardCharsets.UTF_8);
    byte[] unknown =
        golden.replace("\"PUBLISH\"", "\"PUBLISH_LATER\"").getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> decisions.deserialize(Topics.DECISIONS.name(), null, unknown))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessageContaining("TargetDecision");
  }

  @Test
  void rejectsJsonThatBreaksARecordInvariantAsMalformed() {
    CairnDeserializer<TargetDecision> decisions = new CairnDeserializer<>(TargetDecision.class);
    byte[] publishWithoutRecords =
        ("{\"source\":{\"kind\":\"HTTPRoute\",\"namespace\":\"default\",\"name\":\"app\"},"
                + "\"namespace\":\"default\",\"name\":\"httproute-app\","
                + "\"disposition\":\"PUBLISH\",\"records\":[],"
                + "\"explanation\":{\"summary\":\"nothing\"}}")
            .getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(
            () ->
                decisions.deserialize(
                    Topics.DECISIONS.name(), version("1.0"), publishWithoutRecords))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessageContaining(Topics.DECISIONS.name())
        .hasMessageContaining("TargetDecision")
        .hasMessageContaining("a PUBLISH decision needs at least one record");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "abc", "1.x", "-1", "1.0.0", " 1.0", "1.0 ", "v1", "1.", ".1"})
  void rejectsABadVersionHeaderAsMalformedNamingTopicTypeAndHeader(String version) {
    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, version(version), json))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessageContaining(TOPIC)
        .hasMessageContaining("RouteState")
        .hasMessageContaining(SchemaVersion.HEADER);
  }

  @Test
  void rejectsAVersionHeaderWithoutValueAsMalformed() {
    RecordHeaders headers = new RecordHeaders();
    headers.add(new RecordHeader(SchemaVersion.HEADER, (byte[]) null));

    assertThatThrownBy(() -> deserializer.deserialize(TOPIC, headers, json))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessageContaining(TOPIC)
        .hasMessageContaining(SchemaVersion.HEADER);
  }

  @Test
  void readsATombstoneAsNull() {
    assertThat(deserializer.deserialize(TOPIC, version("1.0"), (byte[]) null)).isNull();
    assertThat(deserializer.deserialize(TOPIC, new RecordHeaders(), (byte[]) null)).isNull();
    assertThat(deserializer.deserialize(TOPIC, null)).isNull();
  }

  private static RecordHeaders version(String version) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(SchemaVersion.HEADER, version.getBytes(StandardCharsets.UTF_8));
    return headers;
  }
}
