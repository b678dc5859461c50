package dev.cairn.strategyengine.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.TestRecords;
import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.topology.GslbState;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The stores' memory copies: {@link InputStore} and {@link EncodedStore}. */
class StoreCopiesTest {

  private static final String KEY = "Gslb/shop/app";
  private static final byte[] NOT_JSON = "{not json".getBytes(StandardCharsets.UTF_8);

  private KeyValueStore<String, byte[]> store;

  @BeforeEach
  void store() {
    MockProcessorContext<Void, Void> context = new MockProcessorContext<>();
    store =
        Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore("copies"), Serdes.String(), Serdes.ByteArray())
            .withLoggingDisabled()
            .build();
    store.init(context.getStateStoreContext(), store);
  }

  private InputStore<GslbState> inputs() {
    InputStore<GslbState> inputs =
        new InputStore<>(store, EngineJson.serde(Topics.GSLBS).deserializer());
    inputs.load();
    return inputs;
  }

  private static GslbState gslb(String name) {
    return TestRecords.aGslb().named("shop", name).build();
  }

  @Test
  void anInputIsStoredAsTheBytesItArrivedAsAndReadDecoded() {
    GslbState app = gslb("app");
    // The same value with other whitespace: stored as received, not re-encoded.
    byte[] received =
        (" " + new String(EngineJson.encode(app), StandardCharsets.UTF_8))
            .getBytes(StandardCharsets.UTF_8);
    InputStore<GslbState> inputs = inputs();

    inputs.put(KEY, app, received);

    assertThat(store.get(KEY)).isEqualTo(received);
    assertThat(inputs.get(KEY)).isEqualTo(app);
    assertThat(inputs().get(KEY)).as("loaded again after a restart").isEqualTo(app);
  }

  @Test
  void aStoredInputThatNoLongerDecodesIsLeftOutAndATombstoneStillDeletesIt() {
    store.put(KEY, NOT_JSON);
    store.put("Gslb/shop/other", EngineJson.encode(gslb("other")));

    InputStore<GslbState> inputs = inputs();

    assertThat(inputs.keys()).containsExactly("Gslb/shop/other");
    inputs.put(KEY, null, null);
    assertThat(store.get(KEY)).isNull();
  }

  @Test
  void aTombstoneForAnUnknownKeyWritesNothing() {
    InputStore<GslbState> inputs = inputs();

    inputs.put(KEY, null, null);

    assertThat(store.approximateNumEntries()).isZero();
  }

  @Test
  void anEqualDecisionIsHeldWithoutEncodingAndAnotherIsStoredAsItsBytes() {
    EncodedStore<TargetDecision> decisions = new EncodedStore<>(store, TargetDecision.class);
    TargetDecision first = decision("192.0.2.1");

    byte[] encoded = changedAndStored(decisions, KEY, first);

    assertThat(encoded).isEqualTo(EngineJson.encode(first));
    assertThat(store.get(KEY)).isEqualTo(encoded);
    assertThat(changedAndStored(decisions, KEY, decision("192.0.2.1"))).isNull();
    assertThat(decisions.holds(KEY, decision("192.0.2.2"))).isFalse();
    assertThat(changedAndStored(decisions, KEY, decision("192.0.2.2")))
        .isEqualTo(EngineJson.encode(decision("192.0.2.2")));
  }

  @Test
  void aChangedValueIsNotStoredUntilItIsPut() {
    EncodedStore<TargetDecision> decisions = new EncodedStore<>(store, TargetDecision.class);
    changedAndStored(decisions, KEY, decision("192.0.2.1"));

    byte[] encoded = decisions.changed(KEY, decision("192.0.2.2"));

    assertThat(encoded).isEqualTo(EngineJson.encode(decision("192.0.2.2")));
    assertThat(store.get(KEY)).isEqualTo(EngineJson.encode(decision("192.0.2.1")));
    assertThat(decisions.get(KEY)).isEqualTo(decision("192.0.2.1"));
    decisions.put(KEY, decision("192.0.2.2"), encoded);
    assertThat(store.get(KEY)).isEqualTo(encoded);
  }

  /** What the engine does with an output: the changed bytes, published, then stored. */
  private static byte[] changedAndStored(
      EncodedStore<TargetDecision> decisions, String key, TargetDecision value) {
    byte[] encoded = decisions.changed(key, value);
    if (encoded != null) {
      decisions.put(key, value, encoded);
    }
    return encoded;
  }

  @Test
  void aStoredDecisionIsComparedDecodedAfterARestart() {
    store.put(KEY, EngineJson.encode(decision("192.0.2.1")));

    EncodedStore<TargetDecision> decisions = new EncodedStore<>(store, TargetDecision.class);

    assertThat(decisions.keys()).containsExactly(KEY);
    assertThat(decisions.holds(KEY, decision("192.0.2.1"))).isTrue();
    assertThat(decisions.holds(KEY, decision("192.0.2.9"))).isFalse();
    assertThat(decisions.holds("Gslb/shop/none", decision("192.0.2.1"))).isFalse();
  }

  @Test
  void aStoredDecisionThatNoLongerDecodesIsReplacedByTheNextOne() {
    store.put(KEY, NOT_JSON);
    EncodedStore<TargetDecision> decisions = new EncodedStore<>(store, TargetDecision.class);

    assertThat(changedAndStored(decisions, KEY, decision("192.0.2.1"))).isNotNull();
    assertThat(store.get(KEY)).isEqualTo(EngineJson.encode(decision("192.0.2.1")));
    decisions.delete(KEY);
    assertThat(store.get(KEY)).isNull();
    assertThat(decisions.keys()).isEmpty();
  }

  @Test
  void aStoredDecisionIsReadAndDeletedAfterARestartWithoutBeingComparedFirst() {
    store.put(KEY, EngineJson.encode(decision("192.0.2.1")));
    store.put("Gslb/shop/other", EngineJson.encode(decision("192.0.2.3")));

    EncodedStore<TargetDecision> decisions = new EncodedStore<>(store, TargetDecision.class);

    assertThat(decisions.contains(KEY)).isTrue();
    assertThat(decisions.get(KEY)).isEqualTo(decision("192.0.2.1"));
    assertThat(decisions.get("Gslb/shop/none")).isNull();
    decisions.delete("Gslb/shop/other");
    assertThat(store.get("Gslb/shop/other")).isNull();
    assertThat(decisions.contains("Gslb/shop/other")).isFalse();
    assertThat(decisions.keys()).containsExactly(KEY);
  }

  @Test
  void aChangedStatusAfterARestartIsStoredAndAnUnchangedOneIsNot() {
    store.put(KEY, EngineJson.encode(decision("192.0.2.1")));
    EncodedStore<TargetDecision> decisions = new EncodedStore<>(store, TargetDecision.class);

    assertThat(changedAndStored(decisions, KEY, decision("192.0.2.1"))).isNull();
    byte[] changed = changedAndStored(decisions, KEY, decision("192.0.2.2"));

    assertThat(changed).isEqualTo(EngineJson.encode(decision("192.0.2.2")));
    assertThat(store.get(KEY)).isEqualTo(changed);
    assertThat(decisions.get(KEY)).isEqualTo(decision("192.0.2.2"));
  }

  private static TargetDecision decision(String target) {
    return TestRecords.aDecision()
        .forGslb("shop", "app")
        .withARecord("app.cloud.example.com", 30, target)
        .build();
  }
}
