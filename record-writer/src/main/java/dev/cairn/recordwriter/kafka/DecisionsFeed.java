package dev.cairn.recordwriter.kafka;

import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.kafka.StateTopicReader;
import dev.cairn.recordwriter.reconcile.RecordReconciler;
import java.util.Map;

/**
 * Follows the decisions topic ({@code Topics.DECISIONS}) with a {@link StateTopicReader} and passes
 * every change, and the moment the initial read reaches the end, to the reconciler.
 */
public final class DecisionsFeed implements StateTopicReader.Listener<TargetDecision> {

  private final RecordReconciler reconciler;
  private final StateTopicReader<TargetDecision> reader;

  /**
   * A feed; {@link #start()} starts reading.
   *
   * @param bootstrapServers the Kafka bootstrap servers
   * @param consumerConfig further consumer settings (security and the like)
   * @param topic the full topic name, prefix included
   */
  public DecisionsFeed(
      String bootstrapServers,
      Map<String, Object> consumerConfig,
      String topic,
      RecordReconciler reconciler) {
    this.reconciler = reconciler;
    this.reader =
        new StateTopicReader<>(bootstrapServers, consumerConfig, topic, TargetDecision.class, this);
  }

  @Override
  public void onChange(String key, TargetDecision oldValue, TargetDecision newValue) {
    reconciler.onDecision(key, newValue);
  }

  @Override
  public void onCaughtUp() {
    reconciler.onDecisionsCaughtUp();
  }

  /** Starts reading on the reader's own thread. */
  public void start() {
    reader.start();
  }

  /** Stops reading. */
  public void close() {
    reader.close();
  }

  /** The current decision of a source, or {@code null}. */
  public TargetDecision get(String source) {
    return reader.get(source);
  }

  /** True once the topic has been read to the end offsets seen at start. */
  public boolean caughtUp() {
    return reader.caughtUp();
  }

  /** Why the reader stopped (a newer schema version), or {@code null}. */
  public String blockedReason() {
    return reader.blockedReason();
  }

  /** The number of decisions known. */
  public int size() {
    return reader.size();
  }

  /** Records skipped as malformed. */
  public long malformedCount() {
    return reader.malformedCount();
  }

  /** The topic followed. */
  public String topic() {
    return reader.topic();
  }
}
