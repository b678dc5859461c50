package dev.cairn.strategyengine.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.TestRecords;
import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.codec.EventTime;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.stream.EngineMetrics.Trigger;
import dev.cairn.strategyengine.stream.EngineOutput.DecisionOutput;
import dev.cairn.strategyengine.stream.EngineTopology.StoreType;
import dev.cairn.strategyengine.stream.TopologyInput.EndpointsInput;
import dev.cairn.strategyengine.stream.TopologyInput.GslbInput;
import dev.cairn.strategyengine.stream.TopologyInput.ServiceInput;
import dev.cairn.strategyengine.stream.TopologyInput.SyncInput;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the engine batches its decisions: live input is decided after its processing batch, a backlog
 * once it is worked off, and a restarted task decides everything it holds again; the stores derived
 * by deciding have no changelog.
 */
class DecisionBatchingTest {

  private static final Instant T0 = EngineDriver.START;
  private static final GslbSettings SETTINGS =
      GslbSettings.defaults("eu").withZones(List.of("cloud.example.com"));
  private static final String KEY = "Gslb/shop/a";
  private static final String HOST = "a.cloud.example.com";

  private EngineDriver driver;

  @AfterEach
  void stop() {
    if (driver != null) {
      driver.close();
    }
  }

  @Test
  void liveInputIsDecidedAfterEachRecord() {
    driver = EngineDriverFixtures.healthyShopEngine(SETTINGS, StoreType.IN_MEMORY);

    driver.gslb(EngineDriverFixtures.exposedShopGslb(HOST));
    assertThat(driver.latest().get(KEY).explanation().chosenTargets())
        .containsExactly("203.0.113.10");
    driver.peerAnswer(answer("us", "198.51.100.20"));
    assertThat(driver.latest().get(KEY).explanation().chosenTargets())
        .containsExactly("198.51.100.20", "203.0.113.10");

    assertThat(driver.metrics.recomputations()).isEqualTo(2);
  }

  @Test
  void aBacklogIsDecidedOncePerGslbWhenItIsWorkedOff() {
    driver = EngineDriverFixtures.healthyShopEngine(SETTINGS, StoreType.IN_MEMORY);
    driver.metrics.reset();

    driver.recordsAged(Duration.ofHours(1));
    driver.gslb(EngineDriverFixtures.exposedShopGslb(HOST));
    driver.peerAnswer(answer("us", "198.51.100.20"));
    driver.peerAnswer(answer("ap", "192.0.2.30"));

    assertThat(driver.read()).isEmpty();
    assertThat(driver.metrics.recomputations()).isZero();

    driver.advanceWallClock(CatchUp.DEFAULTS.idle());

    List<KeyValue<String, TargetDecision>> emitted = driver.read();
    assertThat(emitted).hasSize(1);
    assertThat(emitted.get(0).value.explanation().chosenTargets())
        .containsExactly("192.0.2.30", "198.51.100.20", "203.0.113.10");
    assertThat(driver.metrics.recomputations(Trigger.GSLB)).isEqualTo(1);
    assertThat(driver.metrics.recomputations()).isEqualTo(1);
  }

  @Test
  void liveInputAfterABacklogIsDecidedAfterEachRecordAgain() {
    driver = EngineDriverFixtures.healthyShopEngine(SETTINGS, StoreType.IN_MEMORY);
    driver.recordsAged(Duration.ofHours(1));
    driver.gslb(EngineDriverFixtures.exposedShopGslb(HOST));
    driver.advanceWallClock(CatchUp.DEFAULTS.idle());
    assertThat(driver.read()).hasSize(1);

    driver.recordsAged(Duration.ZERO);
    driver.peerAnswer(answer("us", "198.51.100.20"));

    assertOneDecisionChoosing(
        "decided on stream time, with no wall-clock time passing", "198.51.100.20", "203.0.113.10");
  }

  /**
   * A live task takes a peer answer that is older than the lag (the global thread behind a failover
   * burst) as live input: decided at the next pass, not held as a backlog for {@link
   * CatchUp#maxDelay()}.
   */
  @Test
  void aLatePeerAnswerOnALiveTaskIsNotHeldAsABacklog() {
    driver = EngineDriverFixtures.healthyShopEngine(SETTINGS, StoreType.IN_MEMORY);
    driver.gslb(EngineDriverFixtures.exposedShopGslb(HOST));
    assertThat(driver.read()).hasSize(1);

    driver.latePeerAnswer(answer("us", "198.51.100.20"), CatchUp.DEFAULTS.lag().multipliedBy(5));
    driver.advanceWallClock(Duration.ofMillis(1));

    assertOneDecisionChoosing(
        "decided at the next wall-clock pass, well within catch-up.idle",
        "198.51.100.20",
        "203.0.113.10");

    driver.peerAnswer(answer("ap", "192.0.2.30"));
    assertOneDecisionChoosing(
        "and the task stays live for the next record",
        "192.0.2.30",
        "198.51.100.20",
        "203.0.113.10");
  }

  /**
   * Kafka Streams halves the records it processes between punctuator checks after every
   * punctuation, so a punctuator firing after each record of a backlog made it process one record
   * per loop: the stream-time punctuator runs only while the input is live.
   */
  @Test
  void theStreamTimeDecisionRunsOnlyWhileTheInputIsLive() {
    MockProcessorContext<String, EngineOutput> context = context(new ArrayList<>(), null);
    DecisionProcessor processor = processor(new CountingMetrics(), new PeerAnswerBoard());
    processor.init(context);
    assertThat(streamTimeDecisions(context))
        .as("until the first input, a backlog is assumed")
        .isZero();

    processor.process(
        new Record<>("topology-watcher", new SyncInput(syncMarker()), T0.toEpochMilli()));
    assertThat(streamTimeDecisions(context)).isEqualTo(1);

    processor.process(
        new Record<>(
            "topology-watcher",
            new SyncInput(syncMarker()),
            T0.minus(Duration.ofHours(1)).toEpochMilli()));
    assertThat(streamTimeDecisions(context)).isZero();

    processor.process(
        new Record<>("topology-watcher", new SyncInput(syncMarker()), T0.toEpochMilli()));
    processor.process(
        new Record<>("topology-watcher", new SyncInput(syncMarker()), T0.toEpochMilli()));
    assertThat(streamTimeDecisions(context)).isEqualTo(1);
    processor.close();
  }

  private static long streamTimeDecisions(MockProcessorContext<String, EngineOutput> context) {
    return context.scheduledPunctuators().stream()
        .filter(p -> p.getType() == PunctuationType.STREAM_TIME && !p.cancelled())
        .count();
  }

  /**
   * A restart as the processor sees it: its stores as they were, its marks gone. {@code
   * TopologyTestDriver} wipes the state directory when it closes, so this test runs the processor
   * on a {@link MockProcessorContext} whose stores outlive it.
   */
  @Test
  void aRestartedTaskDecidesEverythingAgainAndRebuildsWhatItDerived() {
    CountingMetrics metrics = new CountingMetrics();
    List<StateStore> stores = new ArrayList<>();
    MockProcessorContext<String, EngineOutput> before = context(stores, null);
    PeerAnswerBoard board = new PeerAnswerBoard();
    GslbReports reports = new GslbReports();
    DecisionProcessor processor = processor(metrics, board, reports);
    processor.init(before);
    processHealthyShopGslb(processor);
    publish(board, answer("us", "198.51.100.20"));
    decide(before);
    assertThat(decisions(before)).hasSize(1);
    assertThat(reports.get(KEY)).isNotNull();
    processor.close();
    assertThat(reports.get(KEY)).as("a closed task's reports are gone").isNull();

    // What is derived by deciding (index, dependencies, reports) lives in the processor's memory:
    // the new processor starts without it and rebuilds it by deciding.
    metrics.reset();
    MockProcessorContext<String, EngineOutput> after = context(stores, before);
    processor = processor(metrics, board, reports);
    processor.init(after);
    after.setCurrentSystemTimeMs(T0.plus(CatchUp.DEFAULTS.idle()).toEpochMilli());
    decide(after);

    assertThat(metrics.recomputations(Trigger.RESTART)).isEqualTo(1);
    assertThat(reports.get(KEY).hosts()).isNotEmpty();
    assertThat(decisions(after)).isEmpty();
    after.resetForwards();
    publish(board, answer("us", "198.51.100.21"));
    decide(after);
    assertThat(decisions(after)).hasSize(1);
    assertThat(metrics.recomputations(Trigger.PEER_ANSWER)).isEqualTo(1);
  }

  /**
   * A decision that changes at a restart (here: the engine's default TTL changed while it was down)
   * is caused by no input: it carries the time the restarted task decided it.
   */
  @Test
  void aDecisionChangedByARestartCarriesTheTimeItWasDecided() {
    List<StateStore> stores = new ArrayList<>();
    MockProcessorContext<String, EngineOutput> before = context(stores, null);
    PeerAnswerBoard board = new PeerAnswerBoard();
    DecisionProcessor processor = processor(new CountingMetrics(), board);
    processor.init(before);
    processHealthyShopGslb(processor);
    decide(before);
    assertThat(decisions(before)).hasSize(1);
    processor.close();

    MockProcessorContext<String, EngineOutput> after = context(stores, before);
    processor =
        new DecisionProcessor(
            PlacementSettings.defaults(),
            new GslbSettings(
                SETTINGS.geoTag(),
                SETTINGS.zones(),
                SETTINGS.exposedIps(),
                60,
                SETTINGS.ttlMinSeconds(),
                SETTINGS.ttlMaxSeconds(),
                SETTINGS.splitBrainThreshold()),
            new CountingMetrics(),
            Duration.ofMinutes(1),
            Duration.ofSeconds(1),
            CatchUp.DEFAULTS,
            board,
            new GslbReports(),
            EngineTopology.DEFAULT_MAX_OUTPUT_BYTES);
    processor.init(after);
    Instant decidedAt = T0.plus(CatchUp.DEFAULTS.idle()).plusSeconds(3);
    after.setCurrentSystemTimeMs(decidedAt.toEpochMilli());
    decide(after);

    assertThat(after.forwarded())
        .filteredOn(forward -> forward.record().value() instanceof DecisionOutput)
        .singleElement()
        .satisfies(
            forward -> {
              assertThat(EventTime.read(forward.record().headers())).contains(decidedAt);
              assertThat(forward.record().timestamp()).isEqualTo(T0.toEpochMilli());
            });
  }

  /**
   * In a batch (a peer failing over changes thousands of Gslbs at once) every decision is forwarded
   * before the first status, each status with the timestamps of its own decision.
   */
  @Test
  void aBatchForwardsItsDecisionsBeforeItsStatuses() {
    MockProcessorContext<String, EngineOutput> context = context(new ArrayList<>(), null);
    PeerAnswerBoard board = new PeerAnswerBoard();
    DecisionProcessor processor = processor(new CountingMetrics(), board);
    processor.init(context);
    processHealthyShopGslb(processor);
    List<String> hosts = List.of(HOST, "b.cloud.example.com", "c.cloud.example.com");
    for (int i = 1; i < hosts.size(); i++) {
      processor.process(
          new Record<>(
              "Gslb/shop/" + (char) ('a' + i),
              new GslbInput(
                  TestRecords.aGslb()
                      .named("shop", String.valueOf((char) ('a' + i)))
                      .withUid("uid-" + i)
                      .withIngressRule(hosts.get(i), "web")
                      .withAnnotation("k8gb.io/exposed-ip-addresses", "203.0.113.10")
                      .build()),
              T0.plusMillis(i).toEpochMilli()));
    }
    decide(context);
    assertDecisionsFirst(context.forwarded(), 3, "the first decisions");
    context.resetForwards();

    for (int i = 0; i < hosts.size(); i++) {
      String host = hosts.get(i);
      board.apply(
          StoreGslbView.peerKey(host, "us"),
          EngineDriverFixtures.okAnswer("us", host, "198.51.100.20", T0),
          new PeerAnswerBoard.Change(host, T0.toEpochMilli() + 70 + i, T0.toEpochMilli() + 50 + i));
    }
    decide(context);
    List<MockProcessorContext.CapturedForward<? extends String, ? extends EngineOutput>> out =
        context.forwarded();
    assertDecisionsFirst(out, 3, "a peer's answer for every host");
    for (var forward : out) {
      int i = forward.record().key().charAt("Gslb/shop/".length()) - 'a';
      assertThat(forward.record().timestamp()).isEqualTo(T0.toEpochMilli() + 70 + i);
      assertThat(EventTime.read(forward.record().headers())).contains(T0.plusMillis(50 + i));
    }
    processor.close();
  }

  private static void assertDecisionsFirst(
      List<? extends MockProcessorContext.CapturedForward<? extends String, ? extends EngineOutput>>
          forwarded,
      int gslbs,
      String what) {
    assertThat(forwarded)
        .as(what)
        .extracting(f -> f.record().value().getClass().getSimpleName())
        .containsExactly(
            java.util.stream.Stream.concat(
                    java.util.Collections.nCopies(gslbs, "DecisionOutput").stream(),
                    java.util.Collections.nCopies(gslbs, "StatusOutput").stream())
                .toArray(String[]::new));
    List<String> keys = new ArrayList<>();
    forwarded.forEach(f -> keys.add(f.record().key()));
    assertThat(keys.subList(0, gslbs))
        .as("%s: the statuses' keys in the decisions' order", what)
        .isEqualTo(keys.subList(gslbs, 2 * gslbs));
  }

  @Test
  void onlyInputsAndWhatWasPublishedHaveChangelogs() {
    driver = EngineDriverFixtures.healthyShopEngine(SETTINGS, StoreType.IN_MEMORY);
    driver
        .gslb(EngineDriverFixtures.exposedShopGslb(HOST))
        .peerAnswer(answer("us", "198.51.100.20"));

    assertThat(driver.changelogTopics())
        .contains(
            "placement-test-gslbs-changelog",
            "placement-test-decisions-changelog",
            "placement-test-gslb-status-changelog")
        .as("the peer answers are a global store, restored from their own topic")
        .doesNotContain(
            "placement-test-peer-answers-changelog",
            "placement-test-peer-answers-broadcast-repartition")
        .doesNotContain(
            "placement-test-dependency-index-changelog",
            "placement-test-gslb-dependencies-changelog",
            "placement-test-gslb-reports-changelog");
  }

  // ------------------------------------------------------------------ fixtures

  private static DecisionProcessor processor(EngineMetrics metrics, PeerAnswerBoard board) {
    return processor(metrics, board, new GslbReports());
  }

  private static DecisionProcessor processor(
      EngineMetrics metrics, PeerAnswerBoard board, GslbReports reports) {
    return new DecisionProcessor(
        PlacementSettings.defaults(),
        SETTINGS,
        metrics,
        Duration.ofMinutes(1),
        Duration.ofSeconds(1),
        CatchUp.DEFAULTS,
        board,
        reports,
        EngineTopology.DEFAULT_MAX_OUTPUT_BYTES);
  }

  /** A peer answer as the global store's processor hands it to the tasks. */
  private static void publish(PeerAnswerBoard board, PeerAnswer answer) {
    board.apply(
        StoreGslbView.peerKey(answer.host(), answer.geoTag()),
        answer,
        new PeerAnswerBoard.Change(answer.host(), T0.toEpochMilli(), Long.MAX_VALUE));
  }

  /** A context at {@code T0} over the engine's stores: new ones, or those of {@code previous}. */
  private static MockProcessorContext<String, EngineOutput> context(
      List<StateStore> stores, MockProcessorContext<String, EngineOutput> previous) {
    MockProcessorContext<String, EngineOutput> context = new MockProcessorContext<>();
    context.setCurrentSystemTimeMs(T0.toEpochMilli());
    if (previous == null) {
      EngineTopology topology =
          new EngineTopology(
              TopicSettings.defaults(),
              PlacementSettings.defaults(),
              SETTINGS,
              EngineMetrics.NONE,
              Duration.ofMinutes(1),
              Duration.ofSeconds(1),
              StoreType.IN_MEMORY,
              CatchUp.DEFAULTS,
              EngineTopology.DEFAULT_MAX_OUTPUT_BYTES);
      for (StoreBuilder<?> builder : topology.storeBuilders()) {
        StateStore store = builder.withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        stores.add(store);
      }
    }
    stores.forEach(context::addStateStore);
    return context;
  }

  /**
   * The inputs of a healthy Gslb: the watcher synced, Service shop/web with an endpoint, shop/a.
   */
  private static void processHealthyShopGslb(DecisionProcessor processor) {
    process(processor, "topology-watcher", new SyncInput(syncMarker()));
    process(
        processor,
        "Service/shop/web",
        new ServiceInput(EngineDriverFixtures.clusterIpService("shop", "web")));
    process(
        processor,
        "Service/shop/web",
        new EndpointsInput(EngineDriverFixtures.endpoints("shop", "web", "n1")));
    process(processor, KEY, new GslbInput(EngineDriverFixtures.exposedShopGslb(HOST)));
  }

  private static void process(DecisionProcessor processor, String key, TopologyInput input) {
    processor.process(new Record<>(key, input, T0.toEpochMilli()));
  }

  /** Runs the punctuators that decide the marks, as Streams does after a processing batch. */
  private static void decide(MockProcessorContext<String, EngineOutput> context) {
    for (MockProcessorContext.CapturedPunctuator punctuator : context.scheduledPunctuators()) {
      if (punctuator.getInterval().equals(Duration.ofMillis(1))) {
        punctuator.getPunctuator().punctuate(context.currentSystemTimeMs());
      }
    }
  }

  private static List<?> decisions(MockProcessorContext<String, EngineOutput> context) {
    return context.forwarded().stream()
        .filter(forward -> forward.record().value() instanceof DecisionOutput)
        .toList();
  }

  private static SyncMarker syncMarker() {
    return new SyncMarker("g1", SyncMarker.Phase.SYNCED, T0, Map.of());
  }

  /** The driver emitted one decision since the last read, choosing {@code targets}. */
  private void assertOneDecisionChoosing(String why, String... targets) {
    assertThat(driver.read())
        .as(why)
        .singleElement()
        .satisfies(
            decision ->
                assertThat(decision.value.explanation().chosenTargets()).containsExactly(targets));
  }

  private static PeerAnswer answer(String geoTag, String target) {
    return EngineDriverFixtures.okAnswer(geoTag, HOST, target, T0);
  }
}
