package dev.cairn.recordwriter.kube;

import dev.cairn.recordwriter.ingress.GslbFromIngressPlan;
import dev.cairn.recordwriter.ingress.LiveIngress;
import dev.cairn.recordwriter.plan.ObjectKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Ingresses of all namespaces, read only, for k8gb's Ingress-annotation mode ({@link
 * GslbFromIngressPlan}): an annotation cannot be selected on, so the informer sees every Ingress,
 * and the plans look at those annotated {@value GslbFromIngressPlan#STRATEGY}. Thread-safe.
 */
public final class AnnotatedIngressStore {

  private static final Logger log = LoggerFactory.getLogger(AnnotatedIngressStore.class);

  private final CachedResources ingresses;
  private final ObjectCache cache;
  private final InformerSlot informer = new InformerSlot();

  /** A store reading through this client. */
  public AnnotatedIngressStore(KubernetesClient client, ObjectCache cache) {
    this.ingresses =
        new CachedResources(client, IngressStore.CONTEXT, cache, ObjectCache::keyOf, log);
    this.cache = cache;
  }

  /** Starts the informer on all Ingresses unless it runs already; every event is passed on. */
  public void startInformer(Consumer<ObjectKey> changed) {
    informer.start(() -> ingresses.inform(null, null, changed));
  }

  /** True once the informer has listed the Ingresses. */
  public boolean synced() {
    return informer.synced();
  }

  /** True while the informer is watching. */
  public boolean watching() {
    return informer.watching();
  }

  /** Stops the informer. */
  public void close() {
    informer.close();
  }

  /** The Ingress of that name as last seen, if it exists. */
  public Optional<LiveIngress> get(ObjectKey key) {
    return cache.get(key).map(AnnotatedIngressStore::live);
  }

  /** The names of the Ingresses annotated {@value GslbFromIngressPlan#STRATEGY}. */
  public Set<ObjectKey> annotated() {
    return cache.keys().stream()
        .filter(k -> cache.get(k).map(AnnotatedIngressStore::annotated).orElse(false))
        .collect(Collectors.toSet());
  }

  /** Drops the markers of deleted Ingresses. */
  public void dropMarkers() {
    cache.dropMarkers();
  }

  private static boolean annotated(GenericKubernetesResource r) {
    Map<String, String> a = r.getMetadata().getAnnotations();
    return a != null && a.containsKey(GslbFromIngressPlan.STRATEGY);
  }

  private static LiveIngress live(GenericKubernetesResource r) {
    return new LiveIngress(
        ObjectCache.keyOf(r),
        r.getMetadata().getUid(),
        r.getMetadata().getResourceVersion(),
        r.getMetadata().getLabels(),
        r.getMetadata().getAnnotations(),
        IngressStore.owners(r.getMetadata()),
        r.getAdditionalProperties().get("spec"),
        null);
  }
}
