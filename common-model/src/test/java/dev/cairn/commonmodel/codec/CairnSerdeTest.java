package dev.cairn.commonmodel.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.GoldenRecords;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.health.PeerAnswer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

class CairnSerdeTest {

  private static final String TOPIC = Topics.PEER_ANSWERS.name();

  private final Serde<PeerAnswer> serde = CairnSerde.of(Topics.PEER_ANSWERS);
  private final PeerAnswer answer = GoldenRecords.peerAnswer();

  @Test
  void roundTripsAValueThroughHeaders() {
    RecordHeaders headers = new RecordHeaders();

    byte[] bytes = serde.serializer().serialize(TOPIC, headers, answer);
    PeerAnswer back = serde.deserializer().deserialize(TOPIC, headers, bytes);

    assertThat(back).isEqualTo(answer);
    assertThat(new String(headers.lastHeader(SchemaVersion.HEADER).value(), StandardCharsets.UTF_8))
        .isEqualTo("1.4");
  }

  @Test
  void roundTripsAValueWithoutHeadersAsStreamsStoresDo() {
    byte[] bytes = serde.serializer().serialize(TOPIC, answer);

    assertThat(serde.deserializer().deserialize(TOPIC, bytes)).isEqualTo(answer);
  }

  @Test
  void roundTripsATombstone() {
    RecordHeaders headers = new RecordHeaders();

    byte[] bytes = serde.serializer().serialize(TOPIC, headers, null);

    assertThat(bytes).isNull();
    assertThat(serde.deserializer().deserialize(TOPIC, headers, bytes)).isNull();
  }

  @Test
  void isTypedByTheTopicsValueType() {
    CairnSerde<PeerAnswer> byType = new CairnSerde<>(PeerAnswer.class);
    byte[] bytes = byType.serializer().serialize(TOPIC, answer);

    assertThat(serde.deserializer().deserialize(TOPIC, bytes)).isEqualTo(answer);
    assertThat(byType.deserializer().deserialize(TOPIC, bytes)).isEqualTo(answer);
  }
}
