package dev.cairn.topologywatcher.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An informer store that keeps, per object, only what the watcher needs: the digest computed from
 * it when it arrives (its normalised record, or for EndpointSlices the compact slice input), its
 * resourceVersion and the few labels the index functions read. Whole objects (status, images,
 * managed fields, last-applied annotations) are never held.
 *
 * <p>fabric8 itself only needs key, resourceVersion and index fields from stored objects, so it is
 * handed skeletons carrying exactly those ({@link #isFullState()} is false, as for fabric8's own
 * {@code ReducedStateItemStore}); the watcher reads digests through {@link #digest(String)}.
 *
 * @param <T> the fabric8 type
 */
final class DigestStore<T extends HasMetadata> implements ItemStore<T> {

  private static final Logger log = LoggerFactory.getLogger(DigestStore.class);

  /** The digest of an object that could not be computed: keep the last published state. */
  static final Object FAILED = new Object();

  private record Entry(String resourceVersion, Map<String, String> labels, Object digest) {}

  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
  private final String kind;
  private final Constructor<T> skeletons;
  private final Function<T, Object> digester;
  private final List<String> keptLabels;

  DigestStore(String kind, Class<T> type, Function<T, Object> digester, List<String> keptLabels) {
    this.kind = kind;
    try {
      this.skeletons = type.getDeclaredConstructor();
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(type + " has no no-argument constructor", e);
    }
    this.digester = digester;
    this.keptLabels = List.copyOf(keptLabels);
  }

  /** The digest stored under a key; {@code null} when absent, {@link #FAILED} when unusable. */
  Object digest(String key) {
    Entry entry = entries.get(key);
    return entry == null ? null : entry.digest();
  }

  @Override
  public String getKey(T object) {
    return Cache.metaNamespaceKeyFunc(object);
  }

  @Override
  public T put(String key, T object) {
    Entry fresh = entry(key, object);
    Entry held = entries.get(key);
    if (held != null && held.digest() != fresh.digest() && held.digest().equals(fresh.digest())) {
      // An unchanged object (a heartbeat, a re-list) keeps the digest instance the view shares.
      // fabric8's cache calls put and remove under its lock, so nothing changes in between.
      fresh = new Entry(fresh.resourceVersion(), fresh.labels(), held.digest());
    }
    return skeleton(key, entries.put(key, fresh));
  }

  @Override
  public T remove(String key) {
    return skeleton(key, entries.remove(key));
  }

  @Override
  public Stream<String> keySet() {
    return entries.keySet().stream();
  }

  @Override
  public Stream<T> values() {
    return entries.entrySet().stream().map(e -> skeleton(e.getKey(), e.getValue()));
  }

  @Override
  public int size() {
    return entries.size();
  }

  @Override
  public T get(String key) {
    return skeleton(key, entries.get(key));
  }

  @Override
  public boolean isFullState() {
    return false;
  }

  private Entry entry(String key, T object) {
    ObjectMeta meta = object.getMetadata();
    Map<String, String> labels = Map.of();
    if (!keptLabels.isEmpty() && meta.getLabels() != null) {
      Map<String, String> kept = new HashMap<>();
      for (String label : keptLabels) {
        String value = meta.getLabels().get(label);
        if (value != null) {
          kept.put(label, value);
        }
      }
      labels = Map.copyOf(kept);
    }
    Object digest;
    try {
      digest = digester.apply(object);
    } catch (RuntimeException e) {
      log.atError()
          .addKeyValue("kind", kind)
          .addKeyValue("object", key)
          .setCause(e)
          .log("could not normalise {} {}; its last state is kept", kind, key);
      digest = FAILED;
    }
    return new Entry(meta.getResourceVersion(), labels, digest);
  }

  private T skeleton(String key, Entry entry) {
    if (entry == null) {
      return null;
    }
    int slash = key.indexOf('/');
    ObjectMeta meta =
        new ObjectMetaBuilder()
            .withNamespace(slash < 0 ? null : key.substring(0, slash))
            .withName(slash < 0 ? key : key.substring(slash + 1))
            .withResourceVersion(entry.resourceVersion())
            .withLabels(entry.labels().isEmpty() ? null : new HashMap<>(entry.labels()))
            .build();
    try {
      T skeleton = skeletons.newInstance();
      skeleton.setMetadata(meta);
      return skeleton;
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot create an empty " + kind, e);
    }
  }
}
