package dev.cairn.strategyengine.stream;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** {@link EngineMetrics} that count in memory, for assertions. */
final class CountingMetrics implements EngineMetrics {

  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

  @Override
  public void recomputed(Trigger trigger) {
    increment("recomputed:" + trigger);
  }

  @Override
  public void emitted(String outcome) {
    increment("emitted:" + outcome);
  }

  @Override
  public void held(String outcome) {
    increment("held:" + outcome);
  }

  @Override
  public void placementFailed() {
    increment("failed");
  }

  @Override
  public void malformedRecord(String topic) {
    increment("malformed:" + topic);
  }

  @Override
  public void statusEmitted(String outcome) {
    increment("status:" + outcome);
  }

  @Override
  public void gslbUndecided() {
    increment("undecided");
  }

  @Override
  public void gslbFailed() {
    increment("gslb-failed");
  }

  @Override
  public void outputTooLarge(String output) {
    increment("too-large:" + output);
  }

  long tooLarge(String output) {
    return count("too-large:" + output);
  }

  long statuses(String outcome) {
    return count("status:" + outcome);
  }

  long undecided() {
    return count("undecided");
  }

  long gslbFailures() {
    return count("gslb-failed");
  }

  long recomputations(Trigger trigger) {
    return count("recomputed:" + trigger);
  }

  long recomputations() {
    return counts.entrySet().stream()
        .filter(e -> e.getKey().startsWith("recomputed:"))
        .mapToLong(e -> e.getValue().get())
        .sum();
  }

  long emissions(String outcome) {
    return count("emitted:" + outcome);
  }

  long holds(String outcome) {
    return count("held:" + outcome);
  }

  long malformedRecords(String topic) {
    return count("malformed:" + topic);
  }

  void reset() {
    counts.clear();
  }

  private long count(String key) {
    AtomicLong value = counts.get(key);
    return value == null ? 0 : value.get();
  }

  private void increment(String key) {
    counts.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
  }
}
