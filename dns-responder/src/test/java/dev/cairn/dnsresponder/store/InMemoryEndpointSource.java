package dev.cairn.dnsresponder.store;

import dev.cairn.dnsresponder.zone.EndpointInput;
import dev.cairn.dnsresponder.zone.ZoneFixtures;
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

  /** What {@link #inputs()} or {@link #changes()} last handed out. */
  private List<EndpointInput> reported = List.of();

  @Override
  public synchronized List<EndpointInput> inputs() {
    List<EndpointInput> now = List.copyOf(inputs);
    reported = now;
    return now;
  }

  @Override
  public synchronized Map<String, List<EndpointInput>> changes() {
    List<EndpointInput> now = List.copyOf(inputs);
    Map<String, List<EndpointInput>> changes = ZoneFixtures.changedObjects(reported, now);
    reported = now;
    return changes;
  }

  @Override
  public void close() {}
}
