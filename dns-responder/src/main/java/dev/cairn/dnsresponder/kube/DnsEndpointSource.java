package dev.cairn.dnsresponder.kube;

import dev.cairn.dnsresponder.store.EndpointSource;
import dev.cairn.dnsresponder.zone.EndpointInput;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches DNSEndpoints ({@code externaldns.k8s.io/v1alpha1}, all namespaces) with one informer per
 * label selector; the selectors are OR'd, like repeated {@code filter} lines of k8gb's {@code
 * k8s_crd}. An object matched by several selectors counts once. Informers retry forever when the
 * API server cannot be reached, so a responder started during an outage syncs when it returns.
 */
public final class DnsEndpointSource implements EndpointSource {

  private static final Logger log = LoggerFactory.getLogger(DnsEndpointSource.class);

  /** The DNSEndpoint resource. */
  public static final ResourceDefinitionContext DNS_ENDPOINTS =
      new ResourceDefinitionContext.Builder()
          .withGroup("externaldns.k8s.io")
          .withVersion("v1alpha1")
          .withPlural("dnsendpoints")
          .withKind("DNSEndpoint")
          .withNamespaced(true)
          .build();

  private final KubernetesClient client;
  private final List<String> selectors;
  private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();
  private volatile boolean synced;
  private volatile boolean closed;

  /**
   * @param client the Kubernetes client
   * @param selectors label selectors in the API's syntax ({@code k8gb.io/dnstype=local}); an empty
   *     selector matches every object
   */
  public DnsEndpointSource(KubernetesClient client, List<String> selectors) {
    this.client = Objects.requireNonNull(client, "client");
    this.selectors = List.copyOf(selectors);
    if (this.selectors.isEmpty()) {
      throw new IllegalArgumentException("at least one label selector is needed");
    }
  }

  @Override
  public void start(Listener listener) {
    ResourceEventHandler<GenericKubernetesResource> handler =
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(GenericKubernetesResource obj) {
            changed(obj);
          }

          @Override
          public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
            changed(newObj);
          }

          @Override
          public void onDelete(GenericKubernetesResource obj, boolean finalStateUnknown) {
            changed(obj);
          }

          private void changed(GenericKubernetesResource obj) {
            dirty.add(Cache.metaNamespaceKeyFunc(obj));
            listener.changed();
          }
        };
    List<CompletableFuture<Void>> started = new ArrayList<>();
    for (String selector : selectors) {
      var resources = client.genericKubernetesResources(DNS_ENDPOINTS).inAnyNamespace();
      SharedIndexInformer<GenericKubernetesResource> informer =
          (selector.isBlank() ? resources : resources.withLabelSelector(selector))
              .runnableInformer(0);
      informer.exceptionHandler(
          (isStarted, t) -> {
            if (closed) {
              return false;
            }
            log.atWarn()
                .addKeyValue("selector", selector)
                .addKeyValue("started", isStarted)
                .log("DNSEndpoint watch failed, retrying: {}", t.toString());
            return true;
          });
      informer.addEventHandler(handler);
      informers.add(informer);
      started.add(informer.start().toCompletableFuture());
    }
    CompletableFuture.allOf(started.toArray(CompletableFuture[]::new))
        .whenComplete(
            (ok, error) -> {
              if (error != null) {
                if (!closed) {
                  log.atError().setCause(error).log("DNSEndpoint informers stopped before syncing");
                }
                return;
              }
              synced = true;
              log.atInfo()
                  .addKeyValue("selectors", selectors)
                  .addKeyValue("objects", objectCount())
                  .log("DNSEndpoint informers synced");
              listener.synced();
            });
  }

  /**
   * The keys ({@code namespace/name}) of the objects added, changed or deleted in any informer
   * since {@link #inputs} last looked; the informers' handlers add to it.
   */
  private final Set<String> dirty = ConcurrentHashMap.newKeySet();

  /** The inputs of each object as last mapped, by informer key (the zone cache's thread only). */
  private final Map<String, Mapped> mapped = new HashMap<>();

  @Override
  public boolean synced() {
    return synced;
  }

  @Override
  public boolean watching() {
    if (informers.isEmpty()) {
      return false;
    }
    for (SharedIndexInformer<GenericKubernetesResource> informer : informers) {
      if (!informer.isWatching()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Every endpoint of every selected object, read from the informers' caches (level-triggered: the
   * caches are the truth, not the notifications about them). An informer is synced once its cache
   * holds the initial list, while its add notifications may still be on their way to the handler: a
   * build at the sync that looked only at the notified objects served a zone without the others
   * (NXDOMAIN from a synced responder; seen after a restart in the local stack's system test). So
   * every key cached and not yet mapped, and every key mapped and no longer cached, is looked at
   * here too; an object mapped at its current resource version keeps its endpoint objects, which
   * the snapshot builder takes as unchanged.
   */
  @Override
  public List<EndpointInput> inputs() {
    Set<String> cached = new HashSet<>();
    for (SharedIndexInformer<GenericKubernetesResource> informer : informers) {
      cached.addAll(informer.getStore().listKeys());
    }
    for (String key : cached) {
      if (!mapped.containsKey(key)) {
        dirty.add(key);
      }
    }
    for (String key : mapped.keySet()) {
      if (!cached.contains(key)) {
        dirty.add(key);
      }
    }
    changes();
    List<EndpointInput> inputs = new ArrayList<>(mapped.size() * 2);
    for (Mapped m : mapped.values()) {
      inputs.addAll(m.inputs());
    }
    return inputs;
  }

  /**
   * The objects the informers reported changed since the last look, looked up in the informers'
   * caches (the first informer holding the key winning, as for an object that several selectors
   * match); of those only the ones with a new resource version or UID are mapped again and
   * reported.
   */
  @Override
  public Map<String, List<EndpointInput>> changes() {
    if (dirty.isEmpty()) {
      return Map.of();
    }
    Map<String, List<EndpointInput>> changes = new LinkedHashMap<>();
    for (Iterator<String> keys = dirty.iterator(); keys.hasNext(); ) {
      String key = keys.next();
      keys.remove(); // a change reported from now on is looked at by the next call
      GenericKubernetesResource resource = current(key);
      Mapped known = mapped.get(key);
      if (resource == null) {
        if (known != null) {
          mapped.remove(key);
          changes.put(known.source(), List.of());
        }
        continue;
      }
      String version = resource.getMetadata().getResourceVersion();
      String uid = resource.getMetadata().getUid();
      if (known == null
          || version == null
          || !version.equals(known.resourceVersion())
          || !Objects.equals(uid, known.uid())) {
        Mapped next =
            new Mapped(
                DnsEndpointMapper.key(resource), version, uid, DnsEndpointMapper.map(resource));
        mapped.put(key, next);
        changes.put(next.source(), next.inputs());
      }
    }
    return changes;
  }

  /** The object under {@code key} in the first informer that holds it, or {@code null}. */
  private GenericKubernetesResource current(String key) {
    for (SharedIndexInformer<GenericKubernetesResource> informer : informers) {
      GenericKubernetesResource resource = informer.getStore().getByKey(key);
      if (resource != null) {
        return resource;
      }
    }
    return null;
  }

  /**
   * An object's inputs as mapped at a resource version, with the object's name as its endpoints
   * give it ({@code source}): a rebuild maps again only the objects that changed since the last one
   * (the API server gives an object a new resource version on every change), not all of them.
   */
  private record Mapped(
      String source, String resourceVersion, String uid, List<EndpointInput> inputs) {}

  /** The objects the informers hold, one per key however many selectors match it. */
  private int objectCount() {
    Set<String> keys = new HashSet<>();
    for (SharedIndexInformer<GenericKubernetesResource> informer : informers) {
      keys.addAll(informer.getStore().listKeys());
    }
    return keys.size();
  }

  @Override
  public void close() {
    closed = true;
    for (SharedIndexInformer<GenericKubernetesResource> informer : informers) {
      informer.stop();
    }
  }
}
