package dev.cairn.strategyengine.api;

import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.strategyengine.placement.PlacementDecider;
import dev.cairn.strategyengine.stream.PlacementTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.stereotype.Component;

/**
 * Reads the current decisions from the engine's {@value PlacementTopology#DECISIONS_STORE} store
 * (Kafka Streams interactive queries). It answers for the partitions this instance holds; a
 * single-instance engine (the default and the local stack) holds them all.
 */
@Component
class DecisionQueries {

  private final StreamsBuilderFactoryBean factory;

  DecisionQueries(StreamsBuilderFactoryBean factory) {
    this.factory = factory;
  }

  /** The decision of an HTTPRoute. */
  Optional<TargetDecision> forRoute(String namespace, String name) {
    String key = PlacementDecider.HTTP_ROUTE + "/" + namespace + "/" + name;
    try {
      return Optional.ofNullable(store().get(key));
    } catch (InvalidStateStoreException e) {
      throw new StreamsUnavailableException(
          "the decision store is being moved: " + e.getMessage(), e);
    }
  }

  /** Every decision with a record for {@code hostname} (normalised), sorted by source key. */
  List<TargetDecision> forHostname(String hostname) {
    List<TargetDecision> found = new ArrayList<>();
    try (KeyValueIterator<String, TargetDecision> all = store().all()) {
      while (all.hasNext()) {
        KeyValue<String, TargetDecision> entry = all.next();
        for (DnsRecord record : entry.value.records()) {
          if (record.dnsName().equals(hostname)) {
            found.add(entry.value);
            break;
          }
        }
      }
    } catch (InvalidStateStoreException e) {
      throw new StreamsUnavailableException(
          "the decision store is being moved: " + e.getMessage(), e);
    }
    found.sort((a, b) -> a.source().key().compareTo(b.source().key()));
    return found;
  }

  private ReadOnlyKeyValueStore<String, TargetDecision> store() {
    KafkaStreams streams = factory.getKafkaStreams();
    KafkaStreams.State state = streams == null ? null : streams.state();
    if (state != KafkaStreams.State.RUNNING) {
      throw new StreamsUnavailableException(
          "Kafka Streams is " + (state == null ? "not started" : state) + ", not RUNNING");
    }
    return streams.store(
        StoreQueryParameters.fromNameAndType(
            PlacementTopology.DECISIONS_STORE, QueryableStoreTypes.keyValueStore()));
  }
}
