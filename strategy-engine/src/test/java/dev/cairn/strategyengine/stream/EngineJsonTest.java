package dev.cairn.strategyengine.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.codec.MalformedRecordException;
import dev.cairn.commonmodel.codec.SchemaVersion;
import dev.cairn.commonmodel.codec.SchemaVersionException;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.strategyengine.gslb.GslbDecider;
import dev.cairn.strategyengine.gslb.GslbOutcome;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.gslb.MapGslbView;
import dev.cairn.strategyengine.placement.PlacementSettings;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The engine's JSON is Cairn's JSON: the same bytes, the same values, the same errors. */
class EngineJsonTest {

  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00.123456789Z");

  @Test
  void writesAndReadsWhatCairnJsonWritesAndReads() {
    CairnSerializer<Object> cairn = new CairnSerializer<>();
    for (Object value : samples()) {
      @SuppressWarnings("unchecked")
      Class<Object> type = (Class<Object>) value.getClass();
      byte[] expected = cairn.serialize("t", value);

      byte[] written = EngineJson.serde(type).serializer().serialize("t", value);

      assertThat(written).as(type.getSimpleName()).isEqualTo(expected);
      assertThat(EngineJson.serde(type).deserializer().deserialize("t", expected))
          .as(type.getSimpleName())
          .isEqualTo(new CairnDeserializer<>(type).deserialize("t", expected))
          .isEqualTo(value);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"2026-11-29T12:00:00Z\"",
        "\"2026-11-29T12:00:00.5Z\"",
        "\"2026-11-29T12:00:00.000000001Z\"",
        "\"2026-11-29T12:00:00.123456789Z\"",
        "\"2024-02-29T23:59:59Z\"",
        "\"2026-11-29T13:00:00+01:00\"",
        "\"2026-11-29t12:00:00z\"",
        "\"2026-11-29T12:00:00.Z\"",
        "\"2026-11-29T12:00:00.1234567890Z\"",
        "\"2026-02-29T00:00:00Z\"",
        "\"2026-11-29T24:00:00Z\"",
        "\"2026-13-01T00:00:00Z\"",
        "\"+12026-11-29T12:00:00Z\"",
        "\"2026-11-29 12:00:00Z\"",
        "\"not a time\"",
        "1764417600",
        "1764417600.5"
      })
  void readsInstantsAsJacksonReadsThem(String lastSuccess) {
    byte[] json =
        ("{\"host\":\"a.example.com\",\"geoTag\":\"us\",\"server\":\"192.0.2.53:53\","
                + "\"status\":\"OK\",\"ipv4\":[\"192.0.2.1\"],\"ipv6\":[],\"ttlSeconds\":30,"
                + "\"lastSuccess\":"
                + lastSuccess
                + ",\"observedAt\":\"2026-11-29T12:00:00Z\"}")
            .getBytes(StandardCharsets.UTF_8);
    Deserializer<PeerAnswer> engine = EngineJson.serde(PeerAnswer.class).deserializer();
    CairnDeserializer<PeerAnswer> cairn = new CairnDeserializer<>(PeerAnswer.class);

    PeerAnswer expected;
    try {
      expected = cairn.deserialize("t", json);
    } catch (MalformedRecordException e) {
      assertThatThrownBy(() -> engine.deserialize("t", json))
          .isInstanceOf(MalformedRecordException.class);
      return;
    }
    assertThat(engine.deserialize("t", json)).isEqualTo(expected);
  }

  @Test
  void aValueThatBreaksARecordInvariantIsMalformed() {
    byte[] json =
        ("{\"source\":{\"kind\":\"Gslb\",\"namespace\":\"shop\",\"name\":\"a\"},"
                + "\"namespace\":\"shop\",\"name\":\"a\",\"disposition\":\"PUBLISH\","
                + "\"records\":[],\"explanation\":{\"summary\":\"x\"}}")
            .getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(
            () -> EngineJson.serde(TargetDecision.class).deserializer().deserialize("t", json))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessageContaining("a PUBLISH decision needs at least one record");
  }

  @Test
  void theSchemaVersionHeaderIsCheckedAsCairnChecksIt() {
    PeerAnswer answer = answers().get(0);
    byte[] json = new CairnSerializer<PeerAnswer>().serialize("t", answer);
    Deserializer<PeerAnswer> engine = EngineJson.serde(PeerAnswer.class).deserializer();

    assertThat(engine.deserialize("t", header(SchemaVersion.CURRENT.toString()), json))
        .isEqualTo(answer);
    assertThat(engine.deserialize("t", header("1.7"), json)).isEqualTo(answer);
    assertThat(engine.deserialize("t", new RecordHeaders(), json)).isEqualTo(answer);
    assertThatThrownBy(() -> engine.deserialize("t", header("2.0"), json))
        .isInstanceOf(SchemaVersionException.class);
    assertThatThrownBy(() -> engine.deserialize("t", header("one"), json))
        .isInstanceOf(MalformedRecordException.class);
  }

  @Test
  void encodedValuesAreWrittenAsTheyAreWithTheSchemaVersionHeader() {
    byte[] encoded = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
    RecordHeaders headers = new RecordHeaders();
    headers.add(SchemaVersion.HEADER, "0.9".getBytes(StandardCharsets.UTF_8));

    byte[] written =
        EngineJson.outputs()
            .serializer()
            .serialize("t", headers, new EngineOutput.DecisionOutput(encoded));

    assertThat(written).isSameAs(encoded);
    assertThat(headers.headers(SchemaVersion.HEADER)).hasSize(1);
    assertThat(headers.lastHeader(SchemaVersion.HEADER).value())
        .isEqualTo(SchemaVersion.CURRENT.toHeader());
    assertThat(
            EngineJson.outputs()
                .serializer()
                .serialize("t", headers, new EngineOutput.StatusOutput(null)))
        .isNull();
  }

  private static RecordHeaders header(String version) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(SchemaVersion.HEADER, version.getBytes(StandardCharsets.UTF_8));
    return headers;
  }

  /** Inputs and every kind of engine output, from deciding a Gslb of each strategy. */
  private static List<Object> samples() {
    ServiceState service =
        new ServiceState(
            "shop",
            "web",
            "uid-web",
            "LoadBalancer",
            List.of(),
            List.of(),
            List.of(),
            Map.of("b", "2", "a", "1"),
            List.of());
    ServiceEndpoints endpoints =
        new ServiceEndpoints(
            "shop",
            "web",
            List.of(new EndpointState(List.of("10.42.0.1"), "node-1", null, true, true, false)),
            List.of());
    MapGslbView view =
        new MapGslbView(
            List.of(), List.of(service), List.of(endpoints), answers(), List.of(), List.of());
    GslbSettings settings = GslbSettings.defaults("eu").withZones(List.of("cloud.example.com"));
    List<Object> samples = new ArrayList<>(List.of(service, endpoints));
    samples.addAll(answers());
    for (String type : List.of("roundRobin", "failover", "geoip")) {
      GslbState gslb =
          new GslbState(
              "shop",
              type.toLowerCase(),
              "uid",
              null,
              List.of(
                  new GslbState.IngressRule(
                      "a.cloud.example.com", List.of(BackendRef.service("web")))),
              new GslbStrategy(
                  type,
                  null,
                  type.equals("failover") ? "us" : null,
                  type.equals("roundRobin") ? Map.of("us", 30, "eu", 50, "ap", 20) : Map.of(),
                  null),
              null,
              Map.of("k8gb.io/exposed-ip-addresses", "203.0.113.10,2001:db8::10"),
              List.of());
      GslbOutcome outcome =
          GslbDecider.decide(gslb, view, settings, PlacementSettings.defaults(), NOW);
      samples.addAll(
          List.of(
              gslb,
              outcome.decision(),
              outcome.status(),
              outcome.report(),
              outcome.dependencies()));
    }
    return samples;
  }

  private static List<PeerAnswer> answers() {
    return List.of(
        new PeerAnswer(
            "a.cloud.example.com",
            "us",
            "192.0.2.53:53",
            ProbeStatus.OK,
            List.of("198.51.100.20"),
            List.of("2001:db8::20"),
            30L,
            NOW,
            null,
            NOW),
        new PeerAnswer(
            "a.cloud.example.com",
            "ap",
            "192.0.2.54:53",
            ProbeStatus.TIMEOUT,
            List.of("192.0.2.30"),
            List.of(),
            30L,
            NOW.minusSeconds(60),
            NOW.minusSeconds(10),
            NOW));
  }
}
