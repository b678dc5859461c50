package dev.cairn.topologywatcher.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.topologywatcher.health.WatcherMetrics;
import dev.cairn.topologywatcher.state.Entity;
import dev.cairn.topologywatcher.state.TopologyView;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.mock.MockProducerFactory;

/**
 * The publisher against Kafka's MockProducer, which lets a test acknowledge or fail each send. The
 * template closes its producer once a send completes and asks the factory again for the next one,
 * so the test hands out a fresh MockProducer when the last one is closed and reads the history of
 * all of them.
 */
class StatePublisherTest {

  private final List<MockProducer<String, Object>> producers = new CopyOnWriteArrayList<>();
  private final TopologyView view = new TopologyView();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private StatePublisher publisher;

  private StatePublisher publisher(Duration retryBackoff) {
    publisher =
        new StatePublisher(
            new KafkaTemplate<>(new MockProducerFactory<>(this::producer)),
            TopicSettings.defaults(),
            view,
            new WatcherMetrics(registry, view, Clock.systemUTC()),
            retryBackoff);
    view.addListener((entity, key, previous, current) -> publisher.changed(entity, key));
    return publisher;
  }

  @AfterEach
  void close() {
    if (publisher != null) {
      publisher.close();
    }
  }

  private synchronized MockProducer<String, Object> producer() {
    if (producers.isEmpty() || producers.get(producers.size() - 1).closed()) {
      producers.add(
          new MockProducer<>(false, null, new StringSerializer(), new CairnSerializer<>()));
    }
    return producers.get(producers.size() - 1);
  }

  private static NodeState node(String name, String zone) {
    return new NodeState(name, zone, null, false, List.of(), Map.of(), List.of());
  }

  private List<ProducerRecord<String, Object>> sent() {
    List<ProducerRecord<String, Object>> all = new ArrayList<>();
    producers.forEach(p -> all.addAll(p.history()));
    return all;
  }

  /** Acknowledges every pending send, oldest first (the template closes a producer after use). */
  private void acknowledgeAll() {
    for (MockProducer<String, Object> p : producers) {
      while (p.completeNext()) {
        // next
      }
    }
  }

  /** Fails the oldest pending send. */
  private void fail(RuntimeException failure) {
    for (MockProducer<String, Object> p : producers) {
      if (p.errorNext(failure)) {
        return;
      }
    }
    throw new AssertionError("no pending send to fail");
  }

  @Test
  void activatingPublishesExactlyTheDifferencesAndCompletesOnceAcknowledged() {
    StatePublisher p = publisher(Duration.ofMillis(50));
    view.put(Entity.NODE, "Node/a", node("a", "z1"));
    view.put(Entity.NODE, "Node/b", node("b", "z1"));
    Map<TopicSpec<?>, Map<String, Object>> topics = new HashMap<>();
    topics.put(Topics.NODES, Map.of("Node/a", node("a", "z1"), "Node/gone", node("gone", "z1")));

    CompletableFuture<Void> acknowledged = p.activate(topics);

    await().until(() -> sent().size() == 2);
    assertThat(sent()).extracting(ProducerRecord::key).containsExactly("Node/b", "Node/gone");
    assertThat(sent().get(0).value()).isEqualTo(node("b", "z1"));
    assertThat(sent().get(1).value()).isNull();
    assertThat(sent().get(0).topic()).isEqualTo("cairn.topology.nodes.v1");
    assertThat(acknowledged).isNotDone();
    acknowledgeAll();

    await().until(acknowledged::isDone);
    assertThat(
            registry
                .counter("cairn.watcher.events.published", "kind", "Node", "op", "delete")
                .count())
        .isEqualTo(1);
  }

  @Test
  void changesCarryTheirEventTimeAndTheStartUpDifferencesDoNot() {
    StatePublisher p = publisher(Duration.ofMillis(50));
    view.put(Entity.NODE, "Node/a", node("a", "z1"));
    p.activate(Map.of());
    await().until(() -> sent().size() == 1);
    assertThat(dev.cairn.commonmodel.codec.EventTime.read(sent().get(0).headers()))
        .as("state re-published at start has no event")
        .isEmpty();

    java.time.Instant before =
        java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    view.put(Entity.NODE, "Node/a", node("a", "z2"));
    await().until(() -> sent().size() == 2);
    java.time.Instant after = java.time.Instant.now();
    assertThat(dev.cairn.commonmodel.codec.EventTime.read(sent().get(1).headers()))
        .hasValueSatisfying(t -> assertThat(t).isBetween(before, after));

    // A change back and forth: whether the publisher sends z3 or nothing, the next record carries
    // the earliest change not yet published, never a time from before these changes.
    acknowledgeAll();
    java.time.Instant later =
        java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    view.put(Entity.NODE, "Node/a", node("a", "z3"));
    view.put(Entity.NODE, "Node/a", node("a", "z2"));
    acknowledgeAll();
    view.put(Entity.NODE, "Node/a", node("a", "z4"));
    await().until(() -> sent().get(sent().size() - 1).value().equals(node("a", "z4")));
    assertThat(dev.cairn.commonmodel.codec.EventTime.read(sent().get(sent().size() - 1).headers()))
        .hasValueSatisfying(t -> assertThat(t).isAfterOrEqualTo(later));
  }

  @Test
  void publishesViewChangesOnlyWhileActive() {
    StatePublisher p = publisher(Duration.ofMillis(50));
    view.put(Entity.NODE, "Node/a", node("a", "z1"));
    assertThat(sent()).isEmpty();

    p.activate(Map.of());
    await().until(() -> sent().size() == 1);
    view.put(Entity.NODE, "Node/a", node("a", "z1"));
    view.put(Entity.NODE, "Node/a", node("a", "z2"));
    await().until(() -> sent().size() == 2);
    assertThat(sent().get(1).value()).isEqualTo(node("a", "z2"));

    p.deactivate();
    view.put(Entity.NODE, "Node/a", node("a", "z3"));
    assertThat(p.active()).isFalse();
    p.activate(Map.of(Topics.NODES, Map.of("Node/a", node("a", "z3"))));
    view.put(Entity.NODE, "Node/b", node("b", "z1"));
    await().until(() -> sent().size() == 3);
    assertThat(sent())
        .extracting(ProducerRecord::key)
        .containsExactly("Node/a", "Node/a", "Node/b");
  }

  @Test
  void retriesAFailedSendUntilItIsAcknowledged() {
    StatePublisher p = publisher(Duration.ofMillis(20));
    CompletableFuture<Void> acknowledged = p.activate(Map.of());
    await().until(acknowledged::isDone);
    view.put(Entity.NODE, "Node/a", node("a", "z1"));
    await().until(() -> sent().size() == 1);

    fail(new TimeoutException("broker down"));

    await().until(() -> sent().size() == 2);
    assertThat(sent().get(1).value()).isEqualTo(node("a", "z1"));
    assertThat(registry.counter("cairn.watcher.publish.failures", "kind", "Node").count())
        .isEqualTo(1);
  }

  @Test
  void aFailedSendSupersededByANewerAcknowledgedOneIsNotRepeated() {
    StatePublisher p = publisher(Duration.ZERO);
    p.activate(Map.of());
    view.put(Entity.NODE, "Node/a", node("a", "z1"));
    await().until(() -> sent().size() == 1);
    view.put(Entity.NODE, "Node/a", node("a", "z2"));
    await().until(() -> sent().size() == 2);

    fail(new TimeoutException("lost"));
    acknowledgeAll();
    view.put(Entity.NODE, "Node/b", node("b", "z1"));
    await().until(() -> sent().size() == 3);

    assertThat(sent())
        .extracting(ProducerRecord::key)
        .containsExactly("Node/a", "Node/a", "Node/b");
  }

  @Test
  void aRecordThatCannotBePublishedIsNotRetriedAndDoesNotHoldUpTheInitialSync() {
    StatePublisher p = publisher(Duration.ZERO);
    view.put(Entity.NODE, "Node/a", node("a", "z1"));
    CompletableFuture<Void> acknowledged = p.activate(Map.of());
    await().until(() -> sent().size() == 1);

    fail(new RecordTooLargeException("too large"));
    await().until(acknowledged::isDone);
    view.put(Entity.NODE, "Node/b", node("b", "z1"));
    await().until(() -> sent().size() == 2);

    assertThat(sent()).extracting(ProducerRecord::key).containsExactly("Node/a", "Node/b");
  }

  @Test
  void recognisesFailuresThatRetryingCannotFix() {
    assertThat(StatePublisher.isPermanent(new RuntimeException(new RecordTooLargeException("x"))))
        .isTrue();
    assertThat(StatePublisher.isPermanent(new TimeoutException("x"))).isFalse();
  }
}
