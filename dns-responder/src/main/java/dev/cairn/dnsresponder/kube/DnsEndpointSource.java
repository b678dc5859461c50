package dev.cairn.dnsresponder.kube;

import dev.cairn.dnsresponder.store.EndpointSource;
import dev.cairn.dnsresponder.zone.EndpointInput;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
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
            listener.changed();
          }

          @Override
          public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
            listener.changed();
          }

          @Override
          public void onDelete(GenericKubernetesResource obj, boolean finalStateUnknown) {
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
   * The inputs of each object as last mapped, by object key; read and replaced by {@link #inputs},
   * which the zone cache calls from its one thread.
   */
  private Map<String, Mapped> mapped = Map.of();

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

  @Override
  public List<EndpointInput> inputs() {
    List<EndpointInput> inputs = new ArrayList<>();
    Map<String, Mapped> next = new HashMap<>();
    for (Map.Entry<String, GenericKubernetesResource> entry : objects().entrySet()) {
      GenericKubernetesResource resource = entry.getValue();
      String version = resource.getMetadata().getResourceVersion();
      String uid = resource.getMetadata().getUid();
      Mapped known = mapped.get(entry.getKey());
      if (known == null
          || version == null
          || !version.equals(known.resourceVersion())
          || !Objects.equals(uid, known.uid())) {
        known = new Mapped(version, uid, DnsEndpointMapper.map(resource));
      }
      next.put(entry.getKey(), known);
      inputs.addAll(known.inputs());
    }
    mapped = next;
    return inputs;
  }

  /**
   * An object's inputs as mapped at a resource version: a rebuild maps again only the objects that
   * changed since the last one (the API server gives an object a new resource version on every
   * change), not all of them.
   */
  private record Mapped(String resourceVersion, String uid, List<EndpointInput> inputs) {}

  private Map<String, GenericKubernetesResource> objects() {
    Map<String, GenericKubernetesResource> objects = new LinkedHashMap<>();
    for (SharedIndexInformer<GenericKubernetesResource> informer : informers) {
      for (GenericKubernetesResource resource : informer.getStore().list()) {
        objects.putIfAbsent(DnsEndpointMapper.key(resource), resource);
      }
    }
    return objects;
  }

  private int objectCount() {
    return objects().size();
  }

  @Override
  public void close() {
    closed = true;
    for (SharedIndexInformer<GenericKubernetesResource> informer : informers) {
      informer.stop();
    }
  }
}
