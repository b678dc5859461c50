package dev.cairn.topologywatcher.kafka;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.kafka.StateTopicReader;
import dev.cairn.topologywatcher.state.Entity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what the state topics hold now, to the end, with common-model's {@link StateTopicReader}. A
 * new leader compares this with its informer view and publishes only the differences, so a restart
 * without changes publishes nothing and deletions made while no watcher ran become tombstones.
 */
public final class TopicSnapshotReader {

  private static final Logger log = LoggerFactory.getLogger(TopicSnapshotReader.class);

  private final String bootstrapServers;
  private final Map<String, Object> consumerConfig;
  private final TopicSettings topics;

  public TopicSnapshotReader(
      String bootstrapServers, Map<String, Object> consumerConfig, TopicSettings topics) {
    this.bootstrapServers = bootstrapServers;
    this.consumerConfig = Map.copyOf(consumerConfig);
    this.topics = topics;
  }

  /**
   * Reads every state topic up to the end offsets seen at start.
   *
   * @param keepGoing polled while waiting; reading stops when it turns false
   * @return topic to (key to value), or {@code null} when stopped before done
   * @throws IllegalStateException when a topic holds records of a newer schema than this watcher
   *     understands (a newer watcher wrote them; this one must not overwrite them)
   */
  public Map<TopicSpec<?>, Map<String, Object>> read(BooleanSupplier keepGoing)
      throws InterruptedException {
    List<StateTopicReader<?>> readers = new ArrayList<>();
    try {
      for (TopicSpec<?> topic : Entity.STATE_TOPICS) {
        readers.add(reader(topic).start());
      }
      for (StateTopicReader<?> reader : readers) {
        while (!reader.awaitCaughtUp(Duration.ofMillis(250))) {
          if (reader.blockedReason() != null) {
            throw new IllegalStateException(reader.blockedReason());
          }
          if (!keepGoing.getAsBoolean()) {
            return null;
          }
        }
      }
      Map<TopicSpec<?>, Map<String, Object>> contents = new HashMap<>();
      for (int i = 0; i < readers.size(); i++) {
        StateTopicReader<?> reader = readers.get(i);
        contents.put(Entity.STATE_TOPICS.get(i), new HashMap<>(reader.snapshot()));
        if (reader.malformedCount() > 0) {
          log.atWarn()
              .addKeyValue("topic", reader.topic())
              .addKeyValue("skipped", reader.malformedCount())
              .log(
                  "skipped malformed records while reading back; keys the cluster still has are republished");
        }
      }
      return contents;
    } finally {
      closeAll(readers);
    }
  }

  /** Closes the readers in parallel: each close waits for its consumer's poll to end. */
  private static void closeAll(List<StateTopicReader<?>> readers) throws InterruptedException {
    List<Thread> closers = new ArrayList<>();
    for (StateTopicReader<?> reader : readers) {
      Thread closer = new Thread(reader::close, "cairn-reader-close-" + reader.topic());
      closer.setDaemon(true);
      closer.start();
      closers.add(closer);
    }
    for (Thread closer : closers) {
      closer.join();
    }
  }

  private <V> StateTopicReader<V> reader(TopicSpec<V> topic) {
    return new StateTopicReader<>(
        bootstrapServers, consumerConfig, topics.name(topic), topic.valueType(), null);
  }
}
