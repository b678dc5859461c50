package dev.cairn.healthprober.kafka;

import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceState;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/** An in-memory {@link TopologyView} for tests: put and remove objects, flip caught-up. */
public final class InMemoryTopology implements TopologyView {

  private final Map<String, GslbState> gslbs = new ConcurrentHashMap<>();
  private final Map<String, RouteState> routes = new ConcurrentHashMap<>();
  private final Map<String, ServiceState> services = new ConcurrentHashMap<>();
  private final Map<String, NodeState> nodes = new ConcurrentHashMap<>();
  private final AtomicBoolean hostsDirty = new AtomicBoolean(true);
  private final AtomicBoolean targetsDirty = new AtomicBoolean(true);
  private volatile boolean caughtUp = true;
  private volatile OwnState own = new OwnState(Map.of(), Map.of());

  public InMemoryTopology put(GslbState g) {
    gslbs.put(g.ref().key(), g);
    hostsDirty.set(true);
    return this;
  }

  public InMemoryTopology removeGslb(String key) {
    gslbs.remove(key);
    hostsDirty.set(true);
    return this;
  }

  public InMemoryTopology put(RouteState r) {
    routes.put(r.ref().key(), r);
    hostsDirty.set(true);
    targetsDirty.set(true);
    return this;
  }

  public InMemoryTopology removeRoute(String key) {
    routes.remove(key);
    hostsDirty.set(true);
    targetsDirty.set(true);
    return this;
  }

  public InMemoryTopology put(ServiceState s) {
    services.put(s.ref().key(), s);
    targetsDirty.set(true);
    return this;
  }

  public InMemoryTopology removeService(String key) {
    services.remove(key);
    targetsDirty.set(true);
    return this;
  }

  public InMemoryTopology put(NodeState n) {
    nodes.put(n.ref().key(), n);
    targetsDirty.set(true);
    return this;
  }

  public InMemoryTopology caughtUp(boolean value) {
    this.caughtUp = value;
    return this;
  }

  public InMemoryTopology published(
      Map<String, PeerAnswer> answers, Map<String, HostnameResolution> resolutions) {
    this.own = new OwnState(answers, resolutions);
    return this;
  }

  @Override
  public boolean caughtUp() {
    return caughtUp;
  }

  @Override
  public boolean takeHostsDirty() {
    return hostsDirty.getAndSet(false);
  }

  @Override
  public boolean takeTargetsDirty() {
    return targetsDirty.getAndSet(false);
  }

  @Override
  public Collection<GslbState> gslbs() {
    return List.copyOf(gslbs.values());
  }

  @Override
  public Collection<RouteState> routes() {
    return List.copyOf(routes.values());
  }

  @Override
  public Collection<ServiceState> services() {
    return List.copyOf(services.values());
  }

  @Override
  public Collection<NodeState> nodes() {
    return List.copyOf(nodes.values());
  }

  @Override
  public OwnState takeOwnState() {
    return own;
  }
}
