package dev.cairn.recordwriter.kafka;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.kafka.StateTopicReader;
import dev.cairn.recordwriter.reconcile.GslbStatusReconciler;
import java.util.Map;

/**
 * Follows the Gslb status topic ({@code Topics.GSLB_STATUS}) with a {@link StateTopicReader} and
 * passes every change, and the moment the initial read reaches the end, to the status reconciler.
 */
public final class GslbStatusFeed implements StateTopicReader.Listener<GslbStatus> {

  private final GslbStatusReconciler reconciler;
  private final StateTopicReader<GslbStatus> reader;

  /**
   * A feed; {@link #start()} starts reading.
   *
   * @param bootstrapServers the Kafka bootstrap servers
   * @param consumerConfig further consumer settings (security and the like)
   * @param topic the full topic name, prefix included
   */
  public GslbStatusFeed(
      String bootstrapServers,
      Map<String, Object> consumerConfig,
      String topic,
      GslbStatusReconciler reconciler) {
    this.reconciler = reconciler;
    this.reader =
        new StateTopicReader<>(bootstrapServers, consumerConfig, topic, GslbStatus.class, this);
  }

  @Override
  public void onChange(String key, GslbStatus oldValue, GslbStatus newValue) {
    reconciler.onStatus(key, newValue);
  }

  @Override
  public void onCaughtUp() {
    reconciler.onStatusesCaughtUp();
  }

  /** Starts reading on the reader's own thread. */
  public void start() {
    reader.start();
  }

  /** Stops reading. */
  public void close() {
    reader.close();
  }

  /** The current desired status under a topic key ({@code Gslb/<ns>/<name>}), or {@code null}. */
  public GslbStatus get(String key) {
    return reader.get(key);
  }

  /** True once the topic has been read to the end offsets seen at start. */
  public boolean caughtUp() {
    return reader.caughtUp();
  }

  /** Why the reader stopped (a newer schema version), or {@code null}. */
  public String blockedReason() {
    return reader.blockedReason();
  }

  /** The number of statuses known. */
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
