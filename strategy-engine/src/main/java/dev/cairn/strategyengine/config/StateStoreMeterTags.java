package dev.cairn.strategyengine.config;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.ArrayList;
import java.util.List;

/**
 * Gives Kafka Streams' state-store meters one set of tag keys whatever the store type. Kafka
 * Streams tags a store's metrics with the store's name under a key that names its type ({@code
 * rocksdb-state-id}, {@code in-memory-state-id}, {@code rocksdb-window-state-id}, ...), so the same
 * metric name ({@code kafka.stream.state.put.rate}) comes with different tag keys for the engine's
 * RocksDB and in-memory stores; Prometheus allows one set of keys per name, and Micrometer's
 * Prometheus registry dropped the in-memory stores' meters with a warning at every start. Here such
 * a tag becomes {@code state.id} (the store's name) and {@code store.type} (the type the key named:
 * {@code rocksdb}, {@code in.memory}, {@code rocksdb.window}, ...).
 */
final class StateStoreMeterTags implements MeterFilter {

  private static final String STATE_METERS = "kafka.stream.state.";
  private static final String STATE_ID = ".state.id";

  @Override
  public Meter.Id map(Meter.Id id) {
    if (!id.getName().startsWith(STATE_METERS)) {
      return id;
    }
    List<Tag> tags = new ArrayList<>();
    String type = null;
    String store = null;
    for (Tag tag : id.getTagsAsIterable()) {
      String key = tag.getKey();
      if (key.endsWith(STATE_ID) && key.length() > STATE_ID.length()) {
        type = key.substring(0, key.length() - STATE_ID.length());
        store = tag.getValue();
      } else {
        tags.add(tag);
      }
    }
    if (store == null) {
      return id;
    }
    tags.add(Tag.of("state.id", store));
    tags.add(Tag.of("store.type", type));
    return id.replaceTags(tags);
  }
}
