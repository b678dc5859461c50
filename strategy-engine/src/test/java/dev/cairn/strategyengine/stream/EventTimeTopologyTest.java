package dev.cairn.strategyengine.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.codec.EventTime;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.stream.EngineTopology.StoreType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code cairn-event-time} header from the engine's inputs to the decisions and statuses they
 * cause: the earliest among the inputs coalesced into a decision, kept while the decision is held,
 * none when no input carries it, and the time of the decision when time alone caused it.
 */
class EventTimeTopologyTest {

  private static final Instant T0 = EngineDriver.START;
  private static final GslbSettings SETTINGS =
      GslbSettings.defaults("eu").withZones(List.of("cloud.example.com"));
  private static final String KEY = "Gslb/shop/a";
  private static final String HOST = "a.cloud.example.com";

  private EngineDriver driver;

  @BeforeEach
  void start() {
    driver = EngineDriverFixtures.healthyShopEngine(SETTINGS, StoreType.IN_MEMORY);
  }

  @AfterEach
  void stop() {
    driver.close();
  }

  @Test
  void aDecisionAndItsStatusCarryTheEventTimeOfTheInputThatCausedThem() {
    Instant observed = T0.minusMillis(250);

    driver.eventTime(observed).gslb(EngineDriverFixtures.exposedShopGslb(HOST));

    assertThat(driver.readRecords())
        .singleElement()
        .satisfies(record -> assertThat(eventTime(record)).contains(observed));
    assertThat(driver.readStatusRecords())
        .singleElement()
        .satisfies(record -> assertThat(eventTime(record)).contains(observed));
  }

  @Test
  void inputsCoalescedIntoOneDecisionGiveItTheEarliestEventTime() {
    driver.eventTime(T0).gslb(EngineDriverFixtures.exposedShopGslb(HOST));
    driver.readRecords();
    driver.readStatusRecords();
    driver.metrics.reset();

    driver.recordsAged(Duration.ofHours(1));
    driver.eventTime(T0.minusSeconds(30)).gslb(EngineDriverFixtures.exposedShopGslb(HOST));
    driver.eventTime(T0.minusSeconds(50)).peerAnswer(answer("us", ProbeStatus.OK, T0));
    driver.peerAnswer(answer("ap", ProbeStatus.OK, T0)); // the prober stamps no event time
    assertThat(driver.readRecords()).as("a backlog is decided once it is worked off").isEmpty();
    driver.advanceWallClock(CatchUp.DEFAULTS.idle());

    List<TestRecord<String, TargetDecision>> emitted = driver.readRecords();
    assertThat(emitted).hasSize(1);
    assertThat(emitted.get(0).getValue().explanation().chosenTargets())
        .containsExactly("192.0.2.30", "198.51.100.20", "203.0.113.10");
    assertThat(eventTime(emitted.get(0))).contains(T0.minusSeconds(50));
    assertThat(driver.metrics.recomputations()).as("one decision for three inputs").isEqualTo(1);
  }

  @Test
  void aDecisionCausedByInputsWithoutEventTimeCarriesNone() {
    driver.eventTime(T0).gslb(EngineDriverFixtures.exposedShopGslb(HOST));
    driver.readRecords();

    driver.peerAnswer(answer("us", ProbeStatus.OK, T0));

    assertThat(driver.readRecords())
        .singleElement()
        .satisfies(record -> assertThat(eventTime(record)).isEmpty());
  }

  @Test
  void aHeldDecisionKeepsTheEventTimeOfItsCauseUntilTheSyncReleasesIt() {
    driver.eventTime(T0).gslb(EngineDriverFixtures.exposedShopGslb(HOST));
    driver.readRecords();
    driver.readStatusRecords();
    driver.marker(new SyncMarker("g2", SyncMarker.Phase.SYNCING, T0, Map.of()));
    Instant deleted = T0.plusSeconds(1);
    driver.advanceWallClock(Duration.ofSeconds(2));

    driver.eventTime(deleted).deleteGslb(KEY);
    assertThat(driver.readRecords()).as("held while unsynced").isEmpty();
    driver.advanceWallClock(Duration.ofSeconds(5));
    driver
        .eventTime(T0.plusSeconds(7))
        .marker(new SyncMarker("g2", SyncMarker.Phase.SYNCED, T0, Map.of()));

    assertThat(driver.readRecords())
        .singleElement()
        .satisfies(
            record -> {
              assertThat(record.getValue()).isNull();
              assertThat(eventTime(record)).contains(deleted);
            });
    assertThat(driver.readStatusRecords())
        .singleElement()
        .satisfies(record -> assertThat(eventTime(record)).contains(deleted));
  }

  @Test
  void aDecisionCausedByTimeAloneCarriesTheTimeItWasDecided() {
    driver.eventTime(T0).gslb(EngineDriverFixtures.exposedShopGslb(HOST));
    driver
        .eventTime(T0)
        .peerAnswer(
            new PeerAnswer(
                HOST,
                "us",
                "192.0.2.53:53",
                ProbeStatus.TIMEOUT,
                List.of("198.51.100.20"),
                List.of(),
                30L,
                T0.minusSeconds(10),
                T0.minusSeconds(5),
                T0.minusSeconds(5)));
    assertThat(driver.latest().get(KEY).explanation().chosenTargets()).contains("198.51.100.20");

    driver.advanceWallClock(Duration.ofSeconds(290)); // the trusted answer expires

    List<TestRecord<String, TargetDecision>> emitted = driver.readRecords();
    assertThat(emitted).hasSize(1);
    assertThat(emitted.get(0).getValue().explanation().chosenTargets())
        .containsExactly("203.0.113.10");
    assertThat(eventTime(emitted.get(0))).contains(driver.wallClock());
    assertThat(emitted.get(0).timestamp()).isEqualTo(driver.wallClock().toEpochMilli());
  }

  // ------------------------------------------------------------------ fixtures

  private static Optional<Instant> eventTime(TestRecord<?, ?> record) {
    return EventTime.read(record.headers());
  }

  private static PeerAnswer answer(String geoTag, ProbeStatus status, Instant at) {
    return new PeerAnswer(
        HOST,
        geoTag,
        "192.0.2.53:53",
        status,
        List.of(geoTag.equals("us") ? "198.51.100.20" : "192.0.2.30"),
        List.of(),
        30L,
        at,
        null,
        at);
  }
}
