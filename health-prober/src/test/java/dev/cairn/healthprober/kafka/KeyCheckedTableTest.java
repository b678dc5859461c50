package dev.cairn.healthprober.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.RouteState;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class KeyCheckedTableTest {

  private static final String TOPIC = "eu.cairn.topology.routes.v1";
  private static final String KEY = "HTTPRoute/default/shop";

  private final AtomicInteger changes = new AtomicInteger();
  private final KeyCheckedTable<RouteState> table =
      new KeyCheckedTable<>(TOPIC, r -> r.ref().key(), changes::incrementAndGet);
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(KeyCheckedTable.class);

  @BeforeEach
  void capture() {
    logs.start();
    logger.addAppender(logs);
  }

  @AfterEach
  void release() {
    logger.detachAppender(logs);
  }

  static RouteState route(String namespace, String name, String... hostnames) {
    return new RouteState(
        "HTTPRoute",
        "gateway.networking.k8s.io/v1",
        namespace,
        name,
        "uid",
        List.of(hostnames),
        List.of(BackendRef.service("app")),
        Map.of(),
        List.of());
  }

  @Test
  void keepsARecordWhoseKeyMatchesItsValue() {
    RouteState shop = route("default", "shop", "shop.cloud.example.com");
    table.onChange(KEY, null, shop);

    assertThat(table.snapshot()).containsExactly(Map.entry(KEY, shop));
    assertThat(table.mismatched()).isZero();
    assertThat(changes).hasValue(1);
    assertThat(logs.list).isEmpty();
  }

  @Test
  void skipsARecordWhoseKeyDoesNotMatchItsValueAndKeepsTheGoodValueOfTheKey() {
    RouteState shop = route("default", "shop", "shop.cloud.example.com");
    RouteState evil = route("default", "shop-evil", "evil.cloud.example.com");
    table.onChange(KEY, null, shop);

    table.onChange(KEY, shop, evil);

    assertThat(table.snapshot()).containsExactly(Map.entry(KEY, shop));
    assertThat(table.mismatched()).isEqualTo(1);
    assertThat(changes).as("nothing changed, nothing to recompute").hasValue(1);
    assertThat(logs.list).hasSize(1);
    ILoggingEvent warn = logs.list.get(0);
    assertThat(warn.getLevel()).isEqualTo(Level.WARN);
    assertThat(warn.getFormattedMessage())
        .isEqualTo("Skipping a record whose key does not match its value");
    assertThat(
            warn.getKeyValuePairs().stream()
                .collect(Collectors.toMap(kv -> kv.key, kv -> String.valueOf(kv.value))))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("topic", TOPIC, "key", KEY, "valueKey", "HTTPRoute/default/shop-evil"));
  }

  @Test
  void aMismatchedRecordUnderANewKeyAddsNothing() {
    table.onChange(KEY, null, route("default", "shop-evil", "evil.cloud.example.com"));

    assertThat(table.snapshot()).isEmpty();
    assertThat(table.mismatched()).isEqualTo(1);
    assertThat(changes).hasValue(0);
  }

  @Test
  void aValueInAnotherNamespaceOrOfAnotherKindDoesNotMatch() {
    table.onChange(KEY, null, route("other", "shop", "shop.cloud.example.com"));
    table.onChange("GRPCRoute/default/shop", null, route("default", "shop", "x.cloud.example.com"));

    assertThat(table.snapshot()).isEmpty();
    assertThat(table.mismatched()).isEqualTo(2);
  }

  @Test
  void aValueWithoutAValidKeyNeverMatchesAndDoesNotStopTheReader() {
    table.onChange(KEY, null, route("default", "a/b", "shop.cloud.example.com"));

    assertThat(table.snapshot()).isEmpty();
    assertThat(table.mismatched()).isEqualTo(1);
    assertThat(logs.list.get(0).getKeyValuePairs().get(2).value.toString())
        .startsWith("<invalid: ");
  }

  @Test
  void aTombstoneDeletesTheKeyAndAGoodValueAfterAMismatchIsTaken() {
    RouteState shop = route("default", "shop", "shop.cloud.example.com");
    RouteState moved = route("default", "shop", "shop2.cloud.example.com");
    table.onChange(KEY, null, shop);
    table.onChange(KEY, shop, route("default", "shop-evil", "evil.cloud.example.com"));

    table.onChange(KEY, null, moved);
    assertThat(table.snapshot()).containsExactly(Map.entry(KEY, moved));

    table.onChange(KEY, moved, null);
    assertThat(table.snapshot()).isEmpty();
    assertThat(changes).hasValue(3);

    table.onChange(KEY, null, null);
    assertThat(changes).as("deleting an absent key changes nothing").hasValue(3);
  }

  @Test
  void checksTheKeyOfPeerAnswersToo() {
    KeyCheckedTable<PeerAnswer> answers =
        new KeyCheckedTable<>("eu.cairn.health.peer-answers.v1", PeerAnswer::key, () -> {});
    PeerAnswer shop =
        new PeerAnswer(
            "shop.cloud.example.com",
            "us",
            "192.0.2.1:53",
            ProbeStatus.OK,
            List.of("198.51.100.7"),
            List.of(),
            30L,
            null,
            null,
            null);

    answers.onChange("PeerAnswer/us/shop.cloud.example.com", null, shop);
    answers.onChange("PeerAnswer/us/evil.cloud.example.com", null, shop);

    assertThat(answers.snapshot()).containsOnlyKeys("PeerAnswer/us/shop.cloud.example.com");
    assertThat(answers.mismatched()).isEqualTo(1);
  }
}
