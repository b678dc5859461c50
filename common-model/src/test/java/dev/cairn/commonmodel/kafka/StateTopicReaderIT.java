package dev.cairn.commonmodel.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.cairn.commonmodel.TestRecords;
import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.codec.SchemaVersion;
import dev.cairn.commonmodel.topology.RouteState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * {@link StateTopicReader} against a real KRaft broker: initial load, caught-up tracking,
 * following, malformed records and the schema version stop. Every test uses its own topic prefix.
 */
class StateTopicReaderIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final AtomicInteger TOPIC_COUNTER = new AtomicInteger();

  private static EmbeddedKafkaKraftBroker broker;
  private static KafkaProducer<String, RouteState> producer;
  private static KafkaProducer<byte[], byte[]> rawProducer;
  private static final CapturedEvents events = new CapturedEvents();

  @BeforeAll
  static void startBroker() {
    broker = new EmbeddedKafkaKraftBroker(1, 1);
    // The broker would create topics on demand; the reader must not ask it to.
    broker.brokerProperty("auto.create.topics.enable", "true");
    broker.afterPropertiesSet();

    Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NamespacePartitioner.class);
    producer =
        new KafkaProducer<>(config, new StringSerializer(), new CairnSerializer<RouteState>());
    rawProducer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());

    Logger readerLog = (Logger) LoggerFactory.getLogger(StateTopicReader.class);
    readerLog.setLevel(Level.INFO);
    events.start();
    readerLog.addAppender(events);
  }

  @AfterAll
  static void stopBroker() {
    ((Logger) LoggerFactory.getLogger(StateTopicReader.class)).detachAppender(events);
    if (producer != null) {
      producer.close();
    }
    if (rawProducer != null) {
      rawProducer.close();
    }
    if (broker != null) {
      broker.destroy();
    }
  }

  @Test
  void readsAPrefilledCompactedTopicIntoItsTable() throws Exception {
    String topic = createRoutesTopic(3);
    RouteState shopV1 = route("shop", "storefront", "shop.example.com");
    RouteState shopV2 = route("shop", "storefront", "shop.example.com", "www.shop.example.com");
    RouteState blog = route("blog", "site", "blog.example.com");
    RouteState gone = route("tmp", "preview", "preview.example.com");
    RouteState api = route("api", "gateway", "api.example.com");
    send(topic, shopV1);
    send(topic, blog);
    send(topic, gone);
    send(topic, shopV2);
    send(topic, api);
    sendTombstone(topic, gone.ref().key());
    Changes changes = new Changes();

    try (StateTopicReader<RouteState> reader = reader(topic, changes).start()) {
      assertThat(reader.awaitCaughtUp(WAIT)).isTrue();

      assertThat(reader.caughtUp()).isTrue();
      assertThat(reader.snapshot())
          .isEqualTo(
              Map.of(
                  shopV2.ref().key(), shopV2,
                  blog.ref().key(), blog,
                  api.ref().key(), api));
      assertThat(reader.get(gone.ref().key())).isNull();
      assertThat(reader.size()).isEqualTo(3);
      assertThat(reader.appliedCount()).isEqualTo(6);
      assertThat(reader.malformedCount()).isZero();
      assertThat(reader.blockedReason()).isNull();
      assertThat(reader.topic()).isEqualTo(topic);
      await().atMost(WAIT).until(() -> changes.caughtUpCalls.get() == 1);
      assertThat(changes.forKey(shopV1.ref().key()))
          .containsExactly(new Change(null, shopV1), new Change(shopV1, shopV2));
      assertThat(changes.forKey(gone.ref().key()))
          .containsExactly(new Change(null, gone), new Change(gone, null));
    }
    assertThat(cleanupPolicyOf(topic)).isEqualTo("compact");
  }

  @Test
  void reportsCaughtUpOnAnEmptyTopic() throws Exception {
    String topic = createRoutesTopic(2);
    Changes changes = new Changes();

    try (StateTopicReader<RouteState> reader = reader(topic, changes).start()) {
      assertThat(reader.awaitCaughtUp(WAIT)).isTrue();
      assertThat(reader.snapshot()).isEmpty();
      await().atMost(WAIT).until(() -> changes.caughtUpCalls.get() == 1);
      assertThat(changes.all).isEmpty();
    }
  }

  @Test
  void followsLaterUpdatesAndTombstonesCallingTheListenerOncePerRealChange() throws Exception {
    String topic = createRoutesTopic(2);
    Changes changes = new Changes();
    RouteState v1 = route("shop", "storefront", "shop.example.com");
    RouteState v1Again = route("shop", "storefront", "shop.example.com");
    RouteState v2 = route("shop", "storefront", "shop.example.com", "www.shop.example.com");
    String key = v1.ref().key();

    try (StateTopicReader<RouteState> reader = reader(topic, changes).start()) {
      assertThat(reader.awaitCaughtUp(WAIT)).isTrue();

      send(topic, v1);
      send(topic, v1Again);
      send(topic, v2);
      sendTombstone(topic, "HTTPRoute/shop/never-existed");
      sendTombstone(topic, key);

      await().atMost(WAIT).until(() -> reader.appliedCount() == 5);
      assertThat(reader.snapshot()).isEmpty();
      assertThat(changes.all)
          .containsExactly(
              new KeyedChange(key, new Change(null, v1)),
              new KeyedChange(key, new Change(v1, v2)),
              new KeyedChange(key, new Change(v2, null)));
      assertThat(changes.caughtUpCalls.get()).isEqualTo(1);
    }
  }

  @Test
  void passesTheEventTimeHeaderToTheListenerAndNullWithoutIt() throws Exception {
    String topic = createRoutesTopic(1);
    java.util.Map<String, java.util.Optional<java.time.Instant>> times =
        new java.util.concurrent.ConcurrentHashMap<>();
    StateTopicReader.Listener<RouteState> listener =
        new StateTopicReader.Listener<>() {
          @Override
          public void onChange(String key, RouteState oldValue, RouteState newValue) {
            throw new AssertionError("the four-argument callback must be called");
          }

          @Override
          public void onChange(
              String key, RouteState oldValue, RouteState newValue, java.time.Instant eventTime) {
            times.put(newValue.ref().name(), java.util.Optional.ofNullable(eventTime));
          }
        };
    RouteState stamped = route("shop", "stamped", "a.example.com");
    RouteState plain = route("shop", "plain", "b.example.com");
    ProducerRecord<String, RouteState> withHeader =
        new ProducerRecord<>(topic, stamped.ref().key(), stamped);
    dev.cairn.commonmodel.codec.EventTime.stamp(
        withHeader.headers(), java.time.Instant.ofEpochMilli(1_795_964_645_123L));
    producer.send(withHeader).get();
    send(topic, plain);
    try (StateTopicReader<RouteState> reader =
        new StateTopicReader<>(
                broker.getBrokersAsString(), Map.of(), topic, RouteState.class, listener)
            .start()) {
      await().atMost(WAIT).until(() -> times.size() == 2);
    }
    assertThat(times.get("stamped")).contains(java.time.Instant.ofEpochMilli(1_795_964_645_123L));
    assertThat(times.get("plain")).isEmpty();
  }

  @Test
  void skipsMalformedRecordsWithoutStoppingAndLogsWhereTheyAre() throws Exception {
    String topic = createRoutesTopic(1);
    RouteState before = route("shop", "storefront", "shop.example.com");
    RouteState after = route("blog", "site", "blog.example.com");
    RouteState later = route("api", "gateway", "api.example.com");
    List<RecordMetadata> malformed = new ArrayList<>();
    send(topic, before);
    malformed.add(sendRaw(topic, "HTTPRoute/x/bad-json", "{\"kind\": ", "1.0"));
    malformed.add(
        sendRaw(
            topic, "HTTPRoute/x/no-name", "{\"kind\":\"HTTPRoute\",\"namespace\":\"x\"}", "1.0"));
    malformed.add(sendRaw(topic, "HTTPRoute/x/bad-header", json(before), "one"));
    // neither may delete the good value of the same key: only a real tombstone does
    malformed.add(sendRaw(topic, before.ref().key(), "null", "1.0"));
    malformed.add(sendRawWithoutVersionValue(topic, before.ref().key(), json(after)));
    send(topic, after);

    try (StateTopicReader<RouteState> reader = reader(topic, new Changes()).start()) {
      assertThat(reader.awaitCaughtUp(WAIT)).isTrue();

      assertThat(reader.snapshot().keySet())
          .containsExactlyInAnyOrder(before.ref().key(), after.ref().key());
      assertThat(reader.get(before.ref().key())).isEqualTo(before);
      assertThat(reader.malformedCount()).isEqualTo(5);
      assertThat(reader.blockedReason()).isNull();

      malformed.add(sendRaw(topic, "HTTPRoute/x/later-bad", "[]", null));
      send(topic, later);

      await().atMost(WAIT).until(() -> reader.get(later.ref().key()) != null);
      assertThat(reader.malformedCount()).isEqualTo(6);
    }
    List<ILoggingEvent> warnings =
        events.forTopic(topic).stream().filter(e -> e.getLevel() == Level.WARN).toList();
    assertThat(warnings)
        .extracting(e -> e.getKeyValuePairs().stream().map(kv -> kv.key).toList())
        .allSatisfy(keys -> assertThat(keys).contains("topic", "partition", "offset"));
    assertThat(warnings)
        .extracting(e -> Long.valueOf(String.valueOf(kv(e, "offset"))))
        .containsExactlyElementsOf(malformed.stream().map(RecordMetadata::offset).toList());
    assertThat(warnings.get(0).getFormattedMessage()).contains("RouteState");
  }

  @Test
  void stopsAtANewerMajorSchemaVersionAndSaysWhy() throws Exception {
    String topic = createRoutesTopic(1);
    RouteState first = route("shop", "storefront", "shop.example.com");
    RouteState afterStop = route("blog", "site", "blog.example.com");
    send(topic, first);
    sendRaw(topic, "HTTPRoute/shop/v2-route", "{\"kind\":\"HTTPRoute\",\"v2\":true}", "2.0");
    send(topic, afterStop);

    try (StateTopicReader<RouteState> reader = reader(topic, new Changes()).start()) {
      await().atMost(WAIT).until(() -> reader.blockedReason() != null);

      assertThat(reader.blockedReason())
          .contains(topic)
          .contains("2.0")
          .contains(SchemaVersion.CURRENT.toString());
      assertThat(reader.get(first.ref().key())).isEqualTo(first);
      assertThat(reader.get(afterStop.ref().key())).as("records after the stop").isNull();
      assertThat(reader.appliedCount()).isEqualTo(1);
      assertThat(reader.caughtUp()).as("it never read up to the end").isFalse();
      assertThat(reader.failure()).as("a schema stop is not a failure").isNull();
    }
    assertThat(events.forTopic(topic))
        .anySatisfy(
            e -> {
              assertThat(e.getLevel()).isEqualTo(Level.ERROR);
              assertThat(String.valueOf(kv(e, "found"))).isEqualTo("2.0");
              assertThat(kv(e, "offset")).isEqualTo(1L);
            });
  }

  @Test
  void stopsFollowingWhenANewerMajorVersionArrivesLater() throws Exception {
    String topic = createRoutesTopic(1);
    RouteState first = route("shop", "storefront", "shop.example.com");
    RouteState afterStop = route("blog", "site", "blog.example.com");

    try (StateTopicReader<RouteState> reader = reader(topic, new Changes()).start()) {
      assertThat(reader.awaitCaughtUp(WAIT)).isTrue();
      send(topic, first);
      sendRaw(topic, "HTTPRoute/shop/v2-route", json(first), "2.1");
      send(topic, afterStop);

      await().atMost(WAIT).until(() -> reader.blockedReason() != null);

      assertThat(reader.blockedReason())
          .contains(topic)
          .contains("2.1")
          .contains(SchemaVersion.CURRENT.toString());
      assertThat(reader.snapshot()).containsOnlyKeys(first.ref().key());
      assertThat(reader.appliedCount()).isEqualTo(1);
    }
  }

  /**
   * A listener's exception is logged and the reader goes on; an Error ends the reader, which is a
   * failure (a restart may cure it), unlike a stop on a newer schema version.
   */
  @Test
  void reportsAFailureWhenAnErrorEndsItButNotForAListenerException() throws Exception {
    String failing = createRoutesTopic(1);
    String broken = createRoutesTopic(1);
    send(failing, route("shop", "storefront", "shop.example.com"));
    send(broken, route("shop", "storefront", "shop.example.com"));
    StateTopicReader.Listener<RouteState> throwing =
        (k, o, n) -> {
          throw new IllegalStateException("a listener bug");
        };
    StateTopicReader.Listener<RouteState> erring =
        (k, o, n) -> {
          throw new AssertionError("an error in the listener");
        };

    try (StateTopicReader<RouteState> a =
            new StateTopicReader<>(
                    broker.getBrokersAsString(), Map.of(), failing, RouteState.class, throwing)
                .start();
        StateTopicReader<RouteState> b =
            new StateTopicReader<>(
                    broker.getBrokersAsString(), Map.of(), broken, RouteState.class, erring)
                .start()) {
      await().atMost(WAIT).until(() -> b.failure() != null);
      assertThat(a.awaitCaughtUp(WAIT)).isTrue();

      assertThat(a.failure()).isNull();
      assertThat(a.blockedReason()).isNull();
      assertThat(b.failure()).contains(broken).contains("an error in the listener");
      assertThat(b.blockedReason()).isNotNull();
    }
  }

  @Test
  void waitsForATopicThatDoesNotExistYetWithoutCreatingIt() throws Exception {
    TopicSettings settings = new TopicSettings(prefix(), 1, (short) 1);
    String topic = settings.name(Topics.ROUTES);
    RouteState route = route("shop", "storefront", "shop.example.com");

    try (StateTopicReader<RouteState> reader = reader(topic, new Changes()).start()) {
      await()
          .atMost(WAIT)
          .until(
              () ->
                  events.forTopic(topic).stream()
                      .anyMatch(e -> e.getFormattedMessage().contains("waiting for the topic")));
      assertThat(topicNames()).doesNotContain(topic);
      assertThat(reader.caughtUp()).isFalse();
      assertThat(reader.blockedReason()).isNull();

      broker.addTopics(settings.newTopic(Topics.ROUTES));
      send(topic, route);

      assertThat(reader.awaitCaughtUp(WAIT)).isTrue();
      await().atMost(WAIT).until(() -> route.equals(reader.get(route.ref().key())));
    }
  }

  // --- fixtures ---

  private static StateTopicReader<RouteState> reader(String topic, Changes changes) {
    return new StateTopicReader<>(
        broker.getBrokersAsString(), Map.of(), topic, RouteState.class, changes);
  }

  private static String prefix() {
    return "it" + TOPIC_COUNTER.incrementAndGet() + ".";
  }

  private static String createRoutesTopic(int partitions) {
    TopicSettings settings = new TopicSettings(prefix(), partitions, (short) 1);
    broker.addTopics(settings.newTopic(Topics.ROUTES));
    return settings.name(Topics.ROUTES);
  }

  private static RouteState route(String namespace, String name, String... hostnames) {
    return TestRecords.aRoute().named(namespace, name).withHostnames(hostnames).build();
  }

  private static void send(String topic, RouteState route)
      throws InterruptedException, ExecutionException {
    producer.send(new ProducerRecord<>(topic, route.ref().key(), route)).get();
  }

  private static void sendTombstone(String topic, String key)
      throws InterruptedException, ExecutionException {
    producer.send(new ProducerRecord<>(topic, key, null)).get();
  }

  /** Sends bytes as they are to partition 0, with the version header unless it is null. */
  private static RecordMetadata sendRaw(String topic, String key, String value, String version)
      throws InterruptedException, ExecutionException {
    RecordHeaders headers = new RecordHeaders();
    if (version != null) {
      headers.add(SchemaVersion.HEADER, version.getBytes(StandardCharsets.UTF_8));
    }
    return rawProducer
        .send(
            new ProducerRecord<>(
                topic,
                0,
                key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8),
                headers))
        .get();
  }

  /** Sends a value whose version header is present but has no value. */
  private static RecordMetadata sendRawWithoutVersionValue(String topic, String key, String value)
      throws InterruptedException, ExecutionException {
    RecordHeaders headers = new RecordHeaders();
    headers.add(new RecordHeader(SchemaVersion.HEADER, (byte[]) null));
    return rawProducer
        .send(
            new ProducerRecord<>(
                topic,
                0,
                key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8),
                headers))
        .get();
  }

  private static String json(RouteState route) {
    return new String(
        new CairnSerializer<RouteState>().serialize(Topics.ROUTES.name(), route),
        StandardCharsets.UTF_8);
  }

  private static String cleanupPolicyOf(String topic) {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    ConfigEntry entry =
        broker.doWithAdminFunction(
            admin -> {
              try {
                return admin
                    .describeConfigs(List.of(resource))
                    .all()
                    .get()
                    .get(resource)
                    .get("cleanup.policy");
              } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException(e);
              }
            });
    return entry.value();
  }

  private static java.util.Set<String> topicNames() {
    return broker.doWithAdminFunction(
        admin -> {
          try {
            return admin.listTopics().names().get();
          } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private static Object kv(ILoggingEvent event, String key) {
    List<KeyValuePair> pairs = event.getKeyValuePairs();
    if (pairs == null) {
      return null;
    }
    return pairs.stream()
        .filter(kv -> kv.key.equals(key))
        .map(kv -> kv.value)
        .findFirst()
        .orElse(null);
  }

  record Change(RouteState oldValue, RouteState newValue) {}

  record KeyedChange(String key, Change change) {}

  /** Records what the listener is told, on the reader's thread. */
  static final class Changes implements StateTopicReader.Listener<RouteState> {
    final List<KeyedChange> all = new CopyOnWriteArrayList<>();
    final AtomicInteger caughtUpCalls = new AtomicInteger();

    @Override
    public void onChange(String key, RouteState oldValue, RouteState newValue) {
      all.add(new KeyedChange(key, new Change(oldValue, newValue)));
    }

    @Override
    public void onCaughtUp() {
      caughtUpCalls.incrementAndGet();
    }

    List<Change> forKey(String key) {
      return all.stream().filter(c -> c.key().equals(key)).map(KeyedChange::change).toList();
    }
  }

  /** Keeps the reader's log events; safe to read while the reader thread logs. */
  static final class CapturedEvents extends AppenderBase<ILoggingEvent> {
    private final List<ILoggingEvent> events = new CopyOnWriteArrayList<>();

    @Override
    protected void append(ILoggingEvent event) {
      events.add(event);
    }

    List<ILoggingEvent> forTopic(String topic) {
      return events.stream()
          .filter(
              e ->
                  e.getKeyValuePairs() != null
                      && e.getKeyValuePairs().stream()
                          .anyMatch(
                              kv -> kv.key.equals("topic") && Objects.equals(kv.value, topic)))
          .toList();
    }
  }
}
