package dev.cairn.commonmodel.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.GoldenRecords;
import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.TestRecords;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.SyncMarker;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The JSON conventions every service gets from {@link CairnJson}. */
class CairnJsonTest {

  private final JsonMapper mapper = CairnJson.newMapper();

  @Test
  void unknownPropertiesAreIgnoredAtEveryLevel() {
    ObjectNode tree = (ObjectNode) mapper.valueToTree(GoldenRecords.route());
    tree.put("addedInVersion1_1", "something new");
    ((ObjectNode) tree.get("backends").get(0)).put("filters", 3);
    ((ObjectNode) tree.get("problems").get(0)).putObject("hint").put("text", "use a hyphen");

    RouteState decoded = mapper.treeToValue(tree, RouteState.class);

    assertThat(decoded).isEqualTo(GoldenRecords.route());
  }

  @Test
  void nullFieldsAreLeftOut() {
    PeerAnswer reachable = TestRecords.aPeerAnswer().failingSince(null).build();
    ObjectRef node = ObjectRef.cluster("Node", "n1");

    JsonNode answer = mapper.valueToTree(reachable);

    assertThat(answer.propertyNames()).doesNotContain("failingSince").contains("lastSuccess");
    assertThat(mapper.writeValueAsString(node)).isEqualTo("{\"kind\":\"Node\",\"name\":\"n1\"}");
    assertThat(mapper.writeValueAsString(reachable)).doesNotContain("null");
  }

  @Test
  void emptyListsAndMapsAreWritten() {
    NodeState bare = TestRecords.aNode("n1").build();

    assertThat(mapper.writeValueAsString(bare))
        .isEqualTo(
            "{\"name\":\"n1\",\"ingress\":false,\"addresses\":[],\"annotations\":{},"
                + "\"problems\":[]}");
  }

  @Test
  void instantsAreIso8601TextInUtc() {
    SyncMarker marker =
        TestRecords.aSyncMarker().at(Instant.parse("2026-11-29T13:00:00.123456789+01:00")).build();

    JsonNode at = mapper.valueToTree(marker).get("at");

    assertThat(at.isString()).isTrue();
    assertThat(at.asString()).isEqualTo("2026-11-29T12:00:00.123456789Z");
    assertThat(mapper.treeToValue(mapper.valueToTree(marker), SyncMarker.class)).isEqualTo(marker);
  }

  @Test
  void mapEntriesComeOutSortedByKey() {
    Map<String, String> labels = new HashMap<>();
    for (String key : List.of("weight-us-1-40", "strategy", "b", "weight-eu-0-60", "a", "Z")) {
      labels.put(key, "v");
    }
    DnsRecord record = new DnsRecord("app.example.com", "A", 30, List.of("192.0.2.1"), labels);

    JsonNode written = mapper.readTree(mapper.writeValueAsString(record)).get("labels");
    String plainMap = mapper.writeValueAsString(new HashMap<>(labels));

    assertThat(written.propertyNames())
        .containsExactly("Z", "a", "b", "strategy", "weight-eu-0-60", "weight-us-1-40");
    assertThat(plainMap)
        .isEqualTo(
            "{\"Z\":\"v\",\"a\":\"v\",\"b\":\"v\",\"strategy\":\"v\",\"weight-eu-0-60\":\"v\","
                + "\"weight-us-1-40\":\"v\"}");
  }

  @Test
  void equalStateEncodesToEqualBytesWhateverOrderTheAnnotationsCameIn() {
    var forwards = TestRecords.aRoute();
    var backwards = TestRecords.aRoute();
    for (int i = 0; i < 20; i++) {
      forwards.withAnnotation("k8gb.io/key-" + i, "v" + i);
      backwards.withAnnotation("k8gb.io/key-" + (19 - i), "v" + (19 - i));
    }

    byte[] a = mapper.writeValueAsBytes(forwards.build());
    byte[] b = mapper.writeValueAsBytes(backwards.build());

    assertThat(a).isEqualTo(b);
  }

  @Test
  void derivedBooleanMethodsAreNotWrittenAsFields() {
    JsonNode backend = mapper.valueToTree(BackendRef.service("web"));
    JsonNode endpoint =
        mapper.valueToTree(new EndpointState(List.of("10.244.0.1"), "n1", null, null, null, null));

    assertThat(backend.propertyNames()).containsExactly("name");
    assertThat(endpoint.propertyNames()).containsExactly("addresses", "nodeName");
  }

  @Test
  void anAbsentReadyConditionStaysAbsentThroughTheCodec() {
    ServiceEndpoints endpoints =
        TestRecords.anEndpoints("default", "web")
            .withEndpoint(new EndpointState(List.of("10.244.0.1"), "n1", null, null, null, null))
            .build();

    ServiceEndpoints decoded =
        mapper.readValue(mapper.writeValueAsBytes(endpoints), ServiceEndpoints.class);

    assertThat(decoded).isEqualTo(endpoints);
    assertThat(decoded.endpoints().get(0).ready()).isNull();
    assertThat(decoded.endpoints().get(0).isReady()).isTrue();
  }

  @Test
  void missingOptionalFieldsDecodeToTheirEmptyValues() {
    RouteState minimal =
        mapper.readValue(
            "{\"kind\":\"HTTPRoute\",\"namespace\":\"default\",\"name\":\"app\"}",
            RouteState.class);
    NodeState node = mapper.readValue("{\"name\":\"n1\",\"ingress\":null}", NodeState.class);

    assertThat(minimal.uid()).isNull();
    assertThat(minimal.hostnames()).isEmpty();
    assertThat(minimal.backends()).isEmpty();
    assertThat(minimal.annotations()).isEmpty();
    assertThat(minimal.problems()).isEmpty();
    assertThat(node.ingress()).isFalse();
    assertThat(node.addresses()).isEmpty();
  }

  @Test
  void parsersKeepNoTableOfPropertyNamesSoHostKeyedMapsDecodeAlike() {
    // Property names that are host names never repeat across records; a shared table of them
    // would be copied by every parse that meets a new one (docs/benchmarks.md, codec rows).
    assertThat(
            mapper
                .tokenStreamFactory()
                .isEnabled(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES))
        .isFalse();
    assertThat(
            CairnJson.kubernetesMapperBuilder()
                .build()
                .tokenStreamFactory()
                .isEnabled(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES))
        .isFalse();
    for (int i = 0; i < 2_000; i++) {
      String host = "g-" + i + ".cloud.example.com";
      GslbStatus status =
          new GslbStatus(
              "ns",
              "g-" + i,
              null,
              "eu",
              Map.of(host, "Healthy"),
              Map.of(host, List.of("192.0.2." + (i % 250 + 1))),
              host,
              List.of(),
              List.of(),
              List.of());

      assertThat(mapper.readValue(mapper.writeValueAsBytes(status), GslbStatus.class))
          .isEqualTo(status);
    }
  }
}
