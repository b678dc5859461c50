package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class CoreEventsTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static final JsonNode EVENT =
      JSON.readTree(
          """
          {"apiVersion":"events.k8s.io/v1","kind":"Event",
           "metadata":{"name":"app.1","namespace":"default"},
           "regarding":{"kind":"HTTPRoute","name":"app","namespace":"default"},
           "related":{"kind":"DNSEndpoint","name":"app","namespace":"default"},
           "reason":"RecordConflict","note":"held by another","type":"Warning","action":"Write",
           "series":{"count":3,"lastObservedTime":"2026-11-30T21:00:00.000000Z"},
           "reportingController":"cairn.dev/record-writer","reportingInstance":"w-0",
           "deprecatedCount":3,"deprecatedSource":{"component":"x"}}
          """);

  @Test
  void convertsAsTheApiServerDoes() {
    JsonNode core = CoreEvents.toCore(EVENT);
    assertThat(core.path("apiVersion").asString()).isEqualTo("v1");
    assertThat(core.path("involvedObject").path("name").asString()).isEqualTo("app");
    assertThat(core.path("related").path("kind").asString()).isEqualTo("DNSEndpoint");
    assertThat(core.path("message").asString()).isEqualTo("held by another");
    assertThat(core.path("reportingComponent").asString()).isEqualTo("cairn.dev/record-writer");
    assertThat(core.path("count").asInt()).isEqualTo(3);
    assertThat(core.path("source").path("component").asString()).isEqualTo("x");
    assertThat(core.path("series").path("count").asInt()).isEqualTo(3);
    assertThat(core.has("regarding")).isFalse();
    assertThat(core.has("note")).isFalse();
  }

  @Test
  void matchesFieldSelectorsOnTheCoreView() {
    JsonNode core = CoreEvents.toCore(EVENT);
    assertThat(CoreEvents.matches(CoreEvents.parse("involvedObject.name=app"), core)).isTrue();
    assertThat(CoreEvents.matches(CoreEvents.parse("involvedObject.name==app,type=Warning"), core))
        .isTrue();
    assertThat(CoreEvents.matches(CoreEvents.parse("type!=Normal"), core)).isTrue();
    assertThat(CoreEvents.matches(CoreEvents.parse("type!=Warning"), core)).isFalse();
    assertThat(CoreEvents.matches(CoreEvents.parse("involvedObject.uid=u-1"), core)).isFalse();
    assertThat(CoreEvents.matches(CoreEvents.parse("involvedObject.uid="), core)).isTrue();
    assertThat(CoreEvents.matches(CoreEvents.parse(null), core)).isTrue();
  }

  @Test
  void refusesATermWithoutAnOperator() {
    assertThatThrownBy(() -> CoreEvents.parse("involvedObject.name"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("involvedObject.name");
  }
}
