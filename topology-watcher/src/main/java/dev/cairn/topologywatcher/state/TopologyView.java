package dev.cairn.topologywatcher.state;

import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.topologywatcher.normalize.IstioGatewayState;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The normalised record of every key the watcher currently sees, per entity: what the topics should
 * hold. Informer adapters write it, the publisher reads it. Thread-safe; a write of a value equal
 * to the current one changes nothing and tells no listener.
 */
public final class TopologyView {

  /** Told about every real change, on the writing thread. */
  public interface Listener {
    /**
     * A key changed.
     *
     * @param entity the entity
     * @param key the key
     * @param previous the previous value, {@code null} when the key was absent
     * @param current the new value, {@code null} when the key was removed
     */
    void changed(Entity entity, String key, Object previous, Object current);
  }

  private final Map<Entity, ConcurrentHashMap<String, Object>> tables = new EnumMap<>(Entity.class);
  private final Map<Entity, AtomicInteger> withProblems = new EnumMap<>(Entity.class);
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();

  public TopologyView() {
    for (Entity e : Entity.values()) {
      tables.put(e, new ConcurrentHashMap<>());
      withProblems.put(e, new AtomicInteger());
    }
  }

  /** Registers a listener for later changes. */
  public void addListener(Listener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Sets the value of a key.
   *
   * @param value the new value, {@code null} to remove the key
   * @return true when the value changed
   */
  public boolean put(Entity entity, String key, Object value) {
    ConcurrentHashMap<String, Object> table = tables.get(entity);
    Object previous;
    if (value == null) {
      previous = table.remove(key);
    } else {
      Object[] replaced = new Object[1];
      // An equal value keeps the instance already held, which the publisher may share.
      table.compute(
          key,
          (k, old) -> {
            replaced[0] = old;
            return value.equals(old) ? old : value;
          });
      previous = replaced[0];
    }
    if (Objects.equals(previous, value)) {
      return false;
    }
    int delta = (hasProblems(value) ? 1 : 0) - (hasProblems(previous) ? 1 : 0);
    if (delta != 0) {
      withProblems.get(entity).addAndGet(delta);
    }
    for (Listener listener : listeners) {
      listener.changed(entity, key, previous, value);
    }
    return true;
  }

  /** The value of a key, or {@code null}. */
  public Object get(Entity entity, String key) {
    return tables.get(entity).get(key);
  }

  /** The value of a key of a topic, whichever entity of the topic holds it, or {@code null}. */
  public Object get(TopicSpec<?> topic, String key) {
    Entity entity = Entity.of(topic, key);
    return entity == null ? null : get(entity, key);
  }

  /** A copy of the keys of an entity. */
  public Set<String> keys(Entity entity) {
    return Set.copyOf(tables.get(entity).keySet());
  }

  /** A copy of everything a topic should hold. */
  public Map<String, Object> snapshot(TopicSpec<?> topic) {
    Map<String, Object> copy = new HashMap<>();
    for (Entity e : Entity.on(topic)) {
      copy.putAll(tables.get(e));
    }
    return copy;
  }

  /** The current values of an entity: a live, unmodifiable view, weakly consistent. */
  public Collection<Object> values(Entity entity) {
    return Collections.unmodifiableCollection(tables.get(entity).values());
  }

  /** The number of keys of an entity. */
  public int size(Entity entity) {
    return tables.get(entity).size();
  }

  /** The number of keys per published entity's label, in entity order. */
  public Map<String, Integer> counts() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Entity e : Entity.values()) {
      if (e.published()) {
        counts.put(e.label(), size(e));
      }
    }
    return counts;
  }

  /** The number of keys of an entity whose record names at least one problem. */
  public int withProblems(Entity entity) {
    return withProblems.get(entity).get();
  }

  /** The problems a record names; empty for {@code null} and unknown types. */
  public static List<Problem> problemsOf(Object value) {
    if (value instanceof RouteState r) {
      return r.problems();
    }
    if (value instanceof ServiceState s) {
      return s.problems();
    }
    if (value instanceof ServiceEndpoints e) {
      return e.problems();
    }
    if (value instanceof NodeState n) {
      return n.problems();
    }
    if (value instanceof GslbState g) {
      return g.problems();
    }
    if (value instanceof IstioGatewayState g) {
      return g.problems();
    }
    return List.of();
  }

  private static boolean hasProblems(Object value) {
    return !problemsOf(value).isEmpty();
  }
}
