package dev.cairn.strategyengine.stream;

/**
 * What the placement topology counts. The application backs it with Micrometer; tests count in
 * memory.
 */
public interface EngineMetrics {

  /** Counts nothing. */
  EngineMetrics NONE =
      new EngineMetrics() {
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
      };

  /** A route's decision was recomputed because of this kind of input change. */
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

  /** The input change that caused a recomputation. */
  enum Trigger {
    ROUTE,
    ENDPOINTS,
    NODE,
    SYNC,
    RESOLUTION,
    RESOLUTION_EXPIRY;

    /** The metric tag value. */
    public String tag() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }
}
