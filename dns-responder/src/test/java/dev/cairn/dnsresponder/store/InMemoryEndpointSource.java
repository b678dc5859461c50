package dev.cairn.dnsresponder.store;

import dev.cairn.dnsresponder.zone.EndpointInput;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** An {@link EndpointSource} whose content and sync the test sets. */
final class InMemoryEndpointSource implements EndpointSource {

  private final List<EndpointInput> inputs = new CopyOnWriteArrayList<>();
  private volatile Listener listener;
  private volatile boolean synced;

  @Override
  public void start(Listener listener) {
    this.listener = listener;
  }

  void sync(List<EndpointInput> initial) {
    inputs.clear();
    inputs.addAll(initial);
    synced = true;
    listener.synced();
  }

  void set(List<EndpointInput> current) {
    inputs.clear();
    inputs.addAll(current);
    listener.changed();
  }

  @Override
  public boolean synced() {
    return synced;
  }

  @Override
  public boolean watching() {
    return synced;
  }

  /** What {@link #inputs()} or {@link #changes()} last handed out, by object. */
  private Map<String, List<EndpointInput>> reported = Map.of();

  @Override
  public synchronized List<EndpointInput> inputs() {
    List<EndpointInput> now = List.copyOf(inputs);
    reported = byObject(now);
    return now;
  }

  @Override
  public synchronized Map<String, List<EndpointInput>> changes() {
    Map<String, List<EndpointInput>> now = byObject(List.copyOf(inputs));
    Map<String, List<EndpointInput>> changes = new LinkedHashMap<>();
    now.forEach(
        (source, endpoints) -> {
          if (!endpoints.equals(reported.get(source))) {
            changes.put(source, endpoints);
          }
        });
    reported.keySet().stream()
        .filter(source -> !now.containsKey(source))
        .forEach(source -> changes.put(source, List.of()));
    reported = now;
    return changes;
  }

  private static Map<String, List<EndpointInput>> byObject(List<EndpointInput> inputs) {
    Map<String, List<EndpointInput>> objects = new LinkedHashMap<>();
    for (EndpointInput input : inputs) {
      objects.computeIfAbsent(input.source(), s -> new ArrayList<>()).add(input);
    }
    return objects;
  }

  @Override
  public void close() {}
}
