package dev.cairn.strategyengine.stream;

/**
 * What the decision topology counts. The application backs it with Micrometer; tests count in
 * memory.
 */
public interface EngineMetrics {

  /** Counts nothing. */
  EngineMetrics NONE = new CountsNothing();

  /** Counts nothing; extend it to count only some things. */
  class CountsNothing implements EngineMetrics {
    @Override
    public void recomputed(Trigger trigger) {}

    @Override
    public void emitted(String outcome) {}

    @Override
    public void held(String outcome) {}

    @Override
    public void placementFailed() {}

    @Override
    public void malformedRecord(String topic) {}

    @Override
    public void statusEmitted(String outcome) {}

    @Override
    public void gslbUndecided() {}

    @Override
    public void gslbFailed() {}

    @Override
    public void outputTooLarge(String output) {}
  }

  /** A route's or Gslb's decision was recomputed because of this kind of input change. */
  void recomputed(Trigger trigger);

  /**
   * A decision was emitted: {@code PUBLISH}, {@code NO_TARGETS}, {@code WITHDRAW} or {@code
   * TOMBSTONE}.
   */
  void emitted(String outcome);

  /** A decision was held back because the watcher's view is not synced yet. */
  void held(String outcome);

  /** Placing a route threw; the previous decision stays. */
  void placementFailed();

  /** A record that could not be used was skipped. */
  void malformedRecord(String topic);

  /** A Gslb status was emitted: {@code UPDATE} or {@code TOMBSTONE}. */
  void statusEmitted(String outcome);

  /** A Gslb could not be decided (invalid spec, no geo tag); its previous decision stays. */
  void gslbUndecided();

  /** Deciding a Gslb threw; the previous decision and status stay. */
  void gslbFailed();

  /**
   * An output ({@code decision} or {@code status}) was too large for a Kafka record and was not
   * sent; the previous one stays.
   */
  void outputTooLarge(String output);

  /** The input change that caused a recomputation. */
  enum Trigger {
    ROUTE,
    ENDPOINTS,
    NODE,
    SYNC,
    RESOLUTION,
    RESOLUTION_EXPIRY,
    GSLB,
    SERVICE,
    PEER_ANSWER,
    SPLIT_BRAIN_EXPIRY,
    /** The task started: everything it holds is decided again. */
    RESTART;

    /** The metric tag value. */
    public String tag() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }
}
