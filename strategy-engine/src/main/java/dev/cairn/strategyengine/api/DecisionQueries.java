package dev.cairn.strategyengine.api;

import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.strategyengine.gslb.GslbReport;
import dev.cairn.strategyengine.stream.EngineTopology;
import dev.cairn.strategyengine.stream.GslbReports;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.stereotype.Component;

/**
 * Reads the current decisions and Gslb statuses from the engine's stores ({@value
 * EngineTopology#DECISIONS_STORE}, {@value EngineTopology#GSLB_STATUS_STORE}) through Kafka Streams
 * interactive queries, and the Gslb reports from the engine's {@link GslbReports}. It answers for
 * the partitions this instance holds; a single-instance engine (the default and the local stack)
 * holds them all.
 */
@Component
class DecisionQueries {

  private final StreamsBuilderFactoryBean factory;
  private final GslbReports reports;

  DecisionQueries(StreamsBuilderFactoryBean factory, GslbReports reports) {
    this.factory = factory;
    this.reports = reports;
  }

  /** The decision of the source {@code <kind>/<namespace>/<name>}. */
  Optional<TargetDecision> forSource(String kind, String namespace, String name) {
    String key = kind + "/" + namespace + "/" + name;
    return query(
        () -> Optional.ofNullable(read(EngineTopology.DECISIONS_STORE, TargetDecision.class, key)));
  }

  /** Everything the engine holds about a Gslb; empty when it holds nothing. */
  Optional<GslbSnapshot> forGslb(String namespace, String name) {
    String key = "Gslb/" + namespace + "/" + name;
    return query(
        () -> {
          TargetDecision decision = read(EngineTopology.DECISIONS_STORE, TargetDecision.class, key);
          GslbStatus status = read(EngineTopology.GSLB_STATUS_STORE, GslbStatus.class, key);
          GslbReport report = reports.get(key);
          if (decision == null && status == null && report == null) {
            return Optional.empty();
          }
          return Optional.of(new GslbSnapshot(decision, status, report));
        });
  }

  /** Every decision with a record for {@code hostname} (normalised), sorted by source key. */
  List<TargetDecision> forHostname(String hostname) {
    return query(
        () -> {
          List<TargetDecision> found = new ArrayList<>();
          try (KeyValueIterator<String, byte[]> all = store(EngineTopology.DECISIONS_STORE).all()) {
            while (all.hasNext()) {
              TargetDecision decision =
                  EngineTopology.decode(
                      EngineTopology.DECISIONS_STORE, TargetDecision.class, all.next().value);
              for (DnsRecord record : decision.records()) {
                if (record.dnsName().equals(hostname)) {
                  found.add(decision);
                  break;
                }
              }
            }
          }
          found.sort((a, b) -> a.source().key().compareTo(b.source().key()));
          return found;
        });
  }

  /**
   * What the engine holds about one Gslb.
   *
   * @param decision the last decision emitted, {@code null} if none
   * @param status the last status emitted, {@code null} if none
   * @param report the last evaluation's report, {@code null} if none
   */
  record GslbSnapshot(TargetDecision decision, GslbStatus status, GslbReport report) {}

  private <T> T query(Supplier<T> read) {
    try {
      return read.get();
    } catch (InvalidStateStoreException e) {
      throw new StreamsUnavailableException(
          "the decision stores are being moved: " + e.getMessage(), e);
    }
  }

  private <V> V read(String store, Class<V> type, String key) {
    return EngineTopology.decode(store, type, store(store).get(key));
  }

  /** One of the stores of encoded values (the bytes the engine publishes). */
  private ReadOnlyKeyValueStore<String, byte[]> store(String name) {
    KafkaStreams streams = factory.getKafkaStreams();
    KafkaStreams.State state = streams == null ? null : streams.state();
    if (state != KafkaStreams.State.RUNNING) {
      throw new StreamsUnavailableException(
          "Kafka Streams is " + (state == null ? "not started" : state) + ", not RUNNING");
    }
    return streams.store(
        StoreQueryParameters.fromNameAndType(
            name, QueryableStoreTypes.<String, byte[]>keyValueStore()));
  }
}
