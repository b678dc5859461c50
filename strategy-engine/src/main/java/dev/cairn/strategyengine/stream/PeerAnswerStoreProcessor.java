package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.EventTime;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.validation.Hostnames;
import java.time.Instant;
import java.util.Objects;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processor of the global peer-answers store: checks each record's key against its value, keeps
 * the answer in the store (under {@code <host>|<geoTag>}, the host normalised, as the bytes it
 * arrived as) and decoded in the {@link PeerAnswerBoard}, and tells the stream tasks which host
 * changed. A record that changes nothing (the same answer again) tells nobody. Runs on the global
 * thread, also while the store is restored from the topic at start.
 */
final class PeerAnswerStoreProcessor
    implements Processor<String, PeerAnswerStoreProcessor.Received, Void, Void> {

  /**
   * A peer answer as read from its topic: decoded, with the bytes it arrived as ({@code null} both
   * for a tombstone).
   *
   * @param value the answer, {@code null} for a tombstone
   * @param encoded its Cairn JSON bytes, stored as they are
   */
  record Received(PeerAnswer value, byte[] encoded) {

    /** An answer made here (tests): encoded as the prober writes it. */
    static Received of(PeerAnswer value) {
      return new Received(value, EngineJson.encode(value));
    }
  }

  private static final Logger log = LoggerFactory.getLogger(PeerAnswerStoreProcessor.class);
  private static final String PREFIX = "PeerAnswer/";
  private static final long NO_EVENT_TIME = Long.MAX_VALUE;

  private final PeerAnswerBoard board;
  private final EngineMetrics metrics;
  private final Deserializer<PeerAnswer> decoder =
      EngineJson.serde(Topics.PEER_ANSWERS).deserializer();
  private KeyValueStore<String, byte[]> store;

  PeerAnswerStoreProcessor(PeerAnswerBoard board, EngineMetrics metrics) {
    this.board = Objects.requireNonNull(board, "board");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    store = context.getStateStore(EngineTopology.PEER_ANSWERS_STORE);
    // A persistent store may hold answers restored before this processor ran (from its
    // checkpoint): the board starts from what the store holds.
    try (KeyValueIterator<String, byte[]> all = store.all()) {
      all.forEachRemaining(
          entry -> board.load(entry.key, decoder.deserialize(store.name(), entry.value)));
    }
  }

  @Override
  public void process(Record<String, Received> record) {
    String key = record.key();
    Received received = record.value();
    PeerAnswer value = received == null ? null : received.value();
    if (key == null) {
      return;
    }
    String rest = key.startsWith(PREFIX) ? key.substring(PREFIX.length()) : "";
    int slash = rest.indexOf('/');
    if (slash <= 0
        || slash == rest.length() - 1
        || rest.indexOf('/', slash + 1) >= 0
        || (value != null && !key.equals(value.key()))) {
      metrics.malformedRecord(Topics.PEER_ANSWERS.name());
      log.atWarn()
          .addKeyValue("topic", Topics.PEER_ANSWERS.name())
          .addKeyValue("key", key)
          .addKeyValue("valueKey", value == null ? "PeerAnswer/<geoTag>/<host>" : value.key())
          .log("Skipping a record whose key does not match its value");
      return;
    }
    String host = Hostnames.normalise(rest.substring(slash + 1));
    String peerKey = StoreGslbView.peerKey(host, rest.substring(0, slash));
    if (Objects.equals(board.get(peerKey), value)) {
      return;
    }
    StoreWrites.putOrDelete(store, peerKey, value == null ? null : received.encoded());
    long eventTime =
        EventTime.read(record.headers()).map(Instant::toEpochMilli).orElse(NO_EVENT_TIME);
    board.apply(peerKey, value, new PeerAnswerBoard.Change(host, record.timestamp(), eventTime));
  }
}
