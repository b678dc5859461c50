package dev.cairn.strategyengine.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.EventTime;
import dev.cairn.commonmodel.health.PeerAnswer;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The global peer-answers store's processor and the board it hands the answers to the tasks on. */
class PeerAnswerStoreProcessorTest {

  private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

  private final CountingMetrics metrics = new CountingMetrics();
  private final PeerAnswerBoard board = new PeerAnswerBoard();
  private final MockProcessorContext<Void, Void> context = new MockProcessorContext<>();
  private KeyValueStore<String, byte[]> store;

  @BeforeEach
  void store() {
    store =
        Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(EngineTopology.PEER_ANSWERS_STORE),
                Serdes.String(),
                Serdes.ByteArray())
            .withLoggingDisabled()
            .build();
    store.init(context.getStateStoreContext(), store);
    context.addStateStore(store);
  }

  private PeerAnswerStoreProcessor started() {
    PeerAnswerStoreProcessor processor = new PeerAnswerStoreProcessor(board, metrics);
    processor.init(context);
    return processor;
  }

  private static PeerAnswer answer(String geoTag, String host, String target) {
    return EngineDriverFixtures.okAnswer(geoTag, host, target, T0);
  }

  @Test
  void keepsEachChangeInTheStoreAndTheBoardAndTellsEveryTask() {
    PeerAnswerStoreProcessor processor = started();
    Queue<PeerAnswerBoard.Change> first = board.subscribe();
    Queue<PeerAnswerBoard.Change> second = board.subscribe();
    PeerAnswer us = answer("us", "App.Cloud.Example.com", "198.51.100.20");
    RecordHeaders headers = new RecordHeaders();
    EventTime.stamp(headers, T0.minusSeconds(2));

    processor.process(
        new Record<>(us.key(), PeerAnswerStoreProcessor.Received.of(us), 1_000L, headers));

    assertThat(store.get("app.cloud.example.com|us")).isEqualTo(EngineJson.encode(us));
    assertThat(board.answers("app.cloud.example.com")).containsExactly(us);
    PeerAnswerBoard.Change expected =
        new PeerAnswerBoard.Change(
            "app.cloud.example.com", 1_000L, T0.minusSeconds(2).toEpochMilli());
    assertThat(first).containsExactly(expected);
    assertThat(second).containsExactly(expected);
  }

  @Test
  void theSameAnswerAgainTellsNobodyAndATombstoneRemovesIt() {
    PeerAnswerStoreProcessor processor = started();
    Queue<PeerAnswerBoard.Change> changes = board.subscribe();
    PeerAnswer us = answer("us", "app.cloud.example.com", "198.51.100.20");
    processor.process(new Record<>(us.key(), PeerAnswerStoreProcessor.Received.of(us), 1L));
    processor.process(new Record<>(us.key(), PeerAnswerStoreProcessor.Received.of(us), 2L));
    assertThat(changes).hasSize(1);

    processor.process(new Record<>(us.key(), PeerAnswerStoreProcessor.Received.of(null), 3L));

    assertThat(store.get("app.cloud.example.com|us")).isNull();
    assertThat(board.answers("app.cloud.example.com")).isEmpty();
    assertThat(changes).extracting(PeerAnswerBoard.Change::timestamp).containsExactly(1L, 3L);
    assertThat(changes).as("no event time header").allMatch(c -> c.eventTime() == Long.MAX_VALUE);
  }

  @Test
  void answersOfAHostAreReadOnePerPeerInGeoTagOrder() {
    PeerAnswerStoreProcessor processor = started();
    PeerAnswer us = answer("us", "app.cloud.example.com", "198.51.100.20");
    PeerAnswer ap = answer("ap", "app.cloud.example.com", "192.0.2.30");
    PeerAnswer other = answer("ap", "other.cloud.example.com", "192.0.2.31");
    for (PeerAnswer answer : List.of(us, other, ap)) {
      processor.process(
          new Record<>(answer.key(), PeerAnswerStoreProcessor.Received.of(answer), 1L));
    }

    assertThat(board.answers("app.cloud.example.com")).containsExactly(ap, us);
    assertThat(board.answers("other.cloud.example.com")).containsExactly(other);
    assertThat(board.answers("missing.cloud.example.com")).isEmpty();
    assertThat(board.size()).isEqualTo(3);
  }

  @Test
  void startsFromWhatAPersistentStoreAlreadyHolds() {
    PeerAnswer us = answer("us", "app.cloud.example.com", "198.51.100.20");
    store.put("app.cloud.example.com|us", EngineJson.encode(us));

    started();

    assertThat(board.answers("app.cloud.example.com")).containsExactly(us);
  }

  @Test
  void recordsWhoseKeyDoesNotMatchAreCountedAndSkipped() {
    PeerAnswerStoreProcessor processor = started();
    Queue<PeerAnswerBoard.Change> changes = board.subscribe();
    PeerAnswer us = answer("us", "app.cloud.example.com", "198.51.100.20");

    processor.process(
        new Record<>(
            "PeerAnswer/ap/app.cloud.example.com", PeerAnswerStoreProcessor.Received.of(us), 1L));
    processor.process(
        new Record<>(
            "PeerAnswer/app.cloud.example.com", PeerAnswerStoreProcessor.Received.of(null), 2L));
    processor.process(
        new Record<>("Gslb/shop/app", PeerAnswerStoreProcessor.Received.of(null), 3L));

    assertThat(metrics.malformedRecords(Topics.PEER_ANSWERS.name())).isEqualTo(3);
    assertThat(changes).isEmpty();
    assertThat(board.size()).isZero();
  }

  @Test
  void anUnsubscribedTaskIsToldNothingMore() {
    PeerAnswerStoreProcessor processor = started();
    Queue<PeerAnswerBoard.Change> changes = board.subscribe();
    board.unsubscribe(changes);
    PeerAnswer us = answer("us", "app.cloud.example.com", "198.51.100.20");

    processor.process(new Record<>(us.key(), PeerAnswerStoreProcessor.Received.of(us), 1L));

    assertThat(changes).isEmpty();
    assertThat(board.answers("app.cloud.example.com")).containsExactly(us);
  }
}
