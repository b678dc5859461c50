package dev.cairn.recordwriter.kube;

import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Ownership;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The writer's view of the DNSEndpoints it cares about: the ones Cairn owns (fed by the informer,
 * by the periodic list and by the results of its own writes, so a plan never waits for the watch to
 * catch up with a write it made) and foreign ones found at names Cairn wants (fed by reads after a
 * refused create).
 *
 * <p>Kubernetes resourceVersions are opaque, but etcd (and the CRUD mock) use increasing integers;
 * when both versions parse as numbers an older observation never replaces a newer one, so a late
 * watch event cannot roll the view back. A delete leaves a short-lived marker for the same reason,
 * which also keeps out the deleted version itself (a list taken while the delete was in flight).
 * Thread-safe.
 */
public final class DnsEndpointCache implements CachedResources.Cache {

  private record Entry(GenericKubernetesResource object, long version) {}

  private final Map<ObjectKey, Entry> owned = new ConcurrentHashMap<>();
  private final Map<ObjectKey, GenericKubernetesResource> foreign = new ConcurrentHashMap<>();
  private final Map<String, Set<ObjectKey>> bySource = new ConcurrentHashMap<>();

  /** Records an object as read or written; it is filed as owned or foreign by its labels. */
  public synchronized void observe(GenericKubernetesResource r) {
    ObjectKey key = DnsEndpointMapper.keyOf(r);
    long version = version(r.getMetadata().getResourceVersion());
    Entry existing = owned.get(key);
    if (existing != null && version >= 0 && existing.version() > version) {
      return;
    }
    if (existing != null
        && existing.object() == null
        && version >= 0
        && existing.version() == version) {
      return; // deleted at this version: a list taken before the delete (writes run concurrently)
    }
    if (Ownership.isOwned(r.getMetadata().getLabels())) {
      foreign.remove(key);
      unindex(existing);
      owned.put(key, new Entry(r, version));
      index(key, r);
    } else {
      unindex(existing);
      owned.put(key, new Entry(null, version));
      foreign.put(key, r);
    }
  }

  /**
   * Records that an object is gone (or no longer selected as owned).
   *
   * @param key the object
   * @param resourceVersion the last version seen, may be {@code null}
   */
  public synchronized void forget(ObjectKey key, String resourceVersion) {
    long version = version(resourceVersion);
    Entry existing = owned.get(key);
    if (existing != null && version >= 0 && existing.version() > version) {
      return;
    }
    unindex(existing);
    owned.put(key, new Entry(null, Math.max(version, existing == null ? -1 : existing.version())));
    foreign.remove(key);
  }

  /**
   * Replaces the owned view with a full list taken at {@code listVersion}. Entries newer than the
   * list (written after it was taken) are kept.
   */
  public synchronized void replaceOwned(
      Collection<GenericKubernetesResource> listed, String listVersion) {
    long at = version(listVersion);
    Set<ObjectKey> seen = new HashSet<>();
    for (GenericKubernetesResource r : listed) {
      seen.add(DnsEndpointMapper.keyOf(r));
      observe(r);
    }
    for (Map.Entry<ObjectKey, Entry> e : Set.copyOf(owned.entrySet())) {
      if (seen.contains(e.getKey())) {
        continue;
      }
      boolean newer = at >= 0 && e.getValue().version() > at;
      if (e.getValue().object() == null) {
        if (!newer) {
          owned.remove(e.getKey());
        }
      } else if (!newer) {
        unindex(e.getValue());
        owned.remove(e.getKey());
      }
    }
  }

  /** The object at a name, owned or foreign. */
  public Optional<GenericKubernetesResource> get(ObjectKey key) {
    Entry e = owned.get(key);
    if (e != null && e.object() != null) {
      return Optional.of(e.object());
    }
    return Optional.ofNullable(foreign.get(key));
  }

  /** True when a foreign object is known at the name. */
  public boolean isForeign(ObjectKey key) {
    return foreign.containsKey(key);
  }

  /** The names of every owned object. */
  public Set<ObjectKey> ownedKeys() {
    Set<ObjectKey> keys = new HashSet<>();
    owned.forEach(
        (k, e) -> {
          if (e.object() != null) {
            keys.add(k);
          }
        });
    return keys;
  }

  /** The names where a foreign object is known. */
  public Set<ObjectKey> foreignKeys() {
    return Set.copyOf(foreign.keySet());
  }

  /** The owned objects whose source annotation names this source. */
  public Set<ObjectKey> keysOfSource(String source) {
    Set<ObjectKey> keys = bySource.get(source);
    return keys == null ? Set.of() : Set.copyOf(keys);
  }

  /** The number of owned objects. */
  public int ownedCount() {
    return (int) owned.values().stream().filter(e -> e.object() != null).count();
  }

  private void index(ObjectKey key, GenericKubernetesResource r) {
    String source = sourceOf(r);
    if (source != null) {
      bySource.computeIfAbsent(source, s -> ConcurrentHashMap.newKeySet()).add(key);
    }
  }

  private void unindex(Entry e) {
    if (e == null || e.object() == null) {
      return;
    }
    String source = sourceOf(e.object());
    if (source != null) {
      Set<ObjectKey> keys = bySource.get(source);
      if (keys != null) {
        keys.remove(DnsEndpointMapper.keyOf(e.object()));
        if (keys.isEmpty()) {
          bySource.remove(source);
        }
      }
    }
  }

  private static String sourceOf(GenericKubernetesResource r) {
    Map<String, String> annotations = r.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(Ownership.SOURCE_ANNOTATION);
  }

  private static long version(String resourceVersion) {
    return ResourceVersion.order(resourceVersion);
  }
}
