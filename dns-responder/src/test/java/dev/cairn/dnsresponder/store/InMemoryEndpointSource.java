package dev.cairn.dnsresponder.store;

import dev.cairn.dnsresponder.zone.EndpointInput;
import java.util.List;
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

  @Override
  public List<EndpointInput> inputs() {
    return List.copyOf(inputs);
  }

  @Override
  public void close() {}
}
