package dev.cairn.strategyengine.stream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link EngineMetrics} on Micrometer:
 *
 * <ul>
 *   <li>{@code cairn.engine.decisions.emitted} by {@code disposition} (PUBLISH, NO_TARGETS,
 *       WITHDRAW, TOMBSTONE);
 *   <li>{@code cairn.engine.decisions.held} by {@code disposition}: held back while unsynced;
 *   <li>{@code cairn.engine.recomputations} by {@code trigger} (route, endpoints, node, sync,
 *       resolution, resolution-expiry);
 *   <li>{@code cairn.engine.records.malformed} by {@code topic}: input records skipped;
 *   <li>{@code cairn.engine.placement.failures}: placements that threw;
 *   <li>{@code cairn.engine.gslb.status.emitted} by {@code outcome} (UPDATE, TOMBSTONE);
 *   <li>{@code cairn.engine.gslb.undecided}: Gslb evaluations left undecided (invalid spec, no geo
 *       tag);
 *   <li>{@code cairn.engine.gslb.failures}: Gslb decisions that threw;
 *   <li>{@code cairn.engine.outputs.too.large} by {@code output} (decision, status): outputs over
 *       {@code engine.max-output-size}, not sent (the previous one stays).
 * </ul>
 */
public final class EngineMeters implements EngineMetrics {

  private final MeterRegistry registry;

  /** The counters by name, then by tag value (no key built per increment: one per decision). */
  private final Map<String, Map<String, Counter>> counters = new ConcurrentHashMap<>();

  private final Map<Trigger, Counter> recomputations = new EnumMap<>(Trigger.class);

  /**
   * Meters in {@code registry}, with {@code cairn.engine.records.malformed} created at 0 for each
   * of {@code inputTopics}, so that Prometheus sees the first malformed record as an increase.
   */
  public EngineMeters(MeterRegistry registry, java.util.Collection<String> inputTopics) {
    this.registry = registry;
    for (String topic : inputTopics) {
      counter("cairn.engine.records.malformed", "topic", topic);
    }
    for (Trigger trigger : Trigger.values()) {
      recomputations.put(trigger, counter("cairn.engine.recomputations", "trigger", trigger.tag()));
    }
    for (String disposition : new String[] {"PUBLISH", "NO_TARGETS", "WITHDRAW", "TOMBSTONE"}) {
      counter("cairn.engine.decisions.emitted", "disposition", disposition);
    }
    for (String disposition : new String[] {"NO_TARGETS", "WITHDRAW", "TOMBSTONE"}) {
      counter("cairn.engine.decisions.held", "disposition", disposition);
    }
    counter("cairn.engine.placement.failures", null, null);
    for (String outcome : new String[] {"UPDATE", "TOMBSTONE"}) {
      counter("cairn.engine.gslb.status.emitted", "outcome", outcome);
    }
    counter("cairn.engine.gslb.undecided", null, null);
    counter("cairn.engine.gslb.failures", null, null);
    for (String output : new String[] {"decision", "status"}) {
      counter("cairn.engine.outputs.too.large", "output", output);
    }
  }

  @Override
  public void recomputed(Trigger trigger) {
    recomputations.get(trigger).increment();
  }

  @Override
  public void emitted(String outcome) {
    counter("cairn.engine.decisions.emitted", "disposition", outcome).increment();
  }

  @Override
  public void held(String outcome) {
    counter("cairn.engine.decisions.held", "disposition", outcome).increment();
  }

  @Override
  public void outputTooLarge(String output) {
    counter("cairn.engine.outputs.too.large", "output", output).increment();
  }

  @Override
  public void placementFailed() {
    counter("cairn.engine.placement.failures", null, null).increment();
  }

  @Override
  public void malformedRecord(String topic) {
    counter("cairn.engine.records.malformed", "topic", topic).increment();
  }

  @Override
  public void statusEmitted(String outcome) {
    counter("cairn.engine.gslb.status.emitted", "outcome", outcome).increment();
  }

  @Override
  public void gslbUndecided() {
    counter("cairn.engine.gslb.undecided", null, null).increment();
  }

  @Override
  public void gslbFailed() {
    counter("cairn.engine.gslb.failures", null, null).increment();
  }

  private Counter counter(String name, String tag, String value) {
    return counters
        .computeIfAbsent(name, k -> new ConcurrentHashMap<>())
        .computeIfAbsent(
            value == null ? "" : value,
            k -> {
              Counter.Builder builder = Counter.builder(name);
              if (tag != null) {
                builder.tag(tag, value);
              }
              return builder.register(registry);
            });
  }
}
