package dev.cairn.recordwriter.kube;

import dev.cairn.recordwriter.plan.ObjectKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The writer's view of the objects of one kind in the cluster: fed by an informer, by reads after a
 * conflict and by the results of its own writes, so a plan never waits for the watch to catch up
 * with a write it made. An older observation never replaces a newer one ({@link ResourceVersion});
 * a delete leaves a marker until the next {@link #dropMarkers()}. Thread-safe.
 */
public class ObjectCache implements CachedResources.Cache {

  private record Entry(GenericKubernetesResource object, long version) {}

  private final Map<ObjectKey, Entry> entries = new ConcurrentHashMap<>();

  /** Records an object as read or written. */
  public synchronized void observe(GenericKubernetesResource r) {
    ObjectKey key = keyOf(r);
    long version = ResourceVersion.order(r.getMetadata().getResourceVersion());
    Entry existing = entries.get(key);
    if (existing != null && version >= 0 && existing.version() > version) {
      return;
    }
    entries.put(key, new Entry(r, version));
  }

  /**
   * Records that an object is gone.
   *
   * @param resourceVersion the last version seen, may be {@code null}
   */
  public synchronized void forget(ObjectKey key, String resourceVersion) {
    long version = ResourceVersion.order(resourceVersion);
    Entry existing = entries.get(key);
    if (existing != null && version >= 0 && existing.version() > version) {
      return;
    }
    entries.put(
        key, new Entry(null, Math.max(version, existing == null ? -1 : existing.version())));
  }

  /** Drops the markers of deleted objects (a periodic clean-up; late events are long past). */
  public synchronized void dropMarkers() {
    entries.values().removeIf(e -> e.object() == null);
  }

  /** The object of that name, if it exists. */
  public Optional<GenericKubernetesResource> get(ObjectKey key) {
    Entry e = entries.get(key);
    return e == null ? Optional.empty() : Optional.ofNullable(e.object());
  }

  /** The names of every object known to exist. */
  public Set<ObjectKey> keys() {
    Set<ObjectKey> keys = ConcurrentHashMap.newKeySet();
    entries.forEach(
        (k, e) -> {
          if (e.object() != null) {
            keys.add(k);
          }
        });
    return Set.copyOf(keys);
  }

  /** The number of objects known to exist. */
  public int size() {
    return (int) entries.values().stream().filter(e -> e.object() != null).count();
  }

  /** The key of an object. */
  public static ObjectKey keyOf(GenericKubernetesResource r) {
    return ObjectKey.of(r.getMetadata().getNamespace(), r.getMetadata().getName());
  }
}
