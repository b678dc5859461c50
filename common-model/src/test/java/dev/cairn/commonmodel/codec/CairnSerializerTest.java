package dev.cairn.commonmodel.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.TestRecords;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.topology.RouteState;
import java.nio.charset.StandardCharsets;
import java.util.stream.StreamSupport;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class CairnSerializerTest {

  private static final String TOPIC = Topics.ROUTES.name();

  private final CairnSerializer<RouteState> serializer = new CairnSerializer<>();
  private final RouteState route = TestRecords.aRoute().build();

  @Test
  void stampsTheSchemaVersionHeader() {
    RecordHeaders headers = new RecordHeaders();

    serializer.serialize(TOPIC, headers, route);

    assertThat(headerValues(headers)).containsExactly("1.4");
  }

  @Test
  void replacesAVersionHeaderThatWasAlreadyThere() {
    RecordHeaders headers = new RecordHeaders();
    headers.add(SchemaVersion.HEADER, "0.9".getBytes(StandardCharsets.UTF_8));
    headers.add("traceparent", "00-abc-def-01".getBytes(StandardCharsets.UTF_8));

    serializer.serialize(TOPIC, headers, route);

    assertThat(headerValues(headers)).containsExactly("1.4");
    assertThat(headers.lastHeader("traceparent")).isNotNull();
  }

  @Test
  void writesTheSameJsonWithOrWithoutHeaders() {
    byte[] withHeaders = serializer.serialize(TOPIC, new RecordHeaders(), route);
    byte[] without = serializer.serialize(TOPIC, route);
    byte[] nullHeaders = serializer.serialize(TOPIC, null, route);

    assertThat(withHeaders).isEqualTo(without).isEqualTo(nullHeaders);
    assertThat(new String(without, StandardCharsets.UTF_8))
        .startsWith("{\"kind\":\"HTTPRoute\",")
        .contains("\"hostnames\":[\"app.example.com\"]");
  }

  @Test
  void writesATombstoneAsNoValueStillStampedWithTheVersion() {
    RecordHeaders headers = new RecordHeaders();

    byte[] value = serializer.serialize(TOPIC, headers, null);

    assertThat(value).isNull();
    assertThat(serializer.serialize(TOPIC, null)).isNull();
    assertThat(headerValues(headers)).containsExactly("1.4");
  }

  private static java.util.List<String> headerValues(RecordHeaders headers) {
    return StreamSupport.stream(headers.headers(SchemaVersion.HEADER).spliterator(), false)
        .map(Header::value)
        .map(v -> new String(v, StandardCharsets.UTF_8))
        .toList();
  }
}
