package dev.cairn.recordwriter.kube;

import dev.cairn.recordwriter.ingress.EmbeddingGslb;
import dev.cairn.recordwriter.ingress.IngressPlan;
import dev.cairn.recordwriter.ingress.LiveIngress;
import dev.cairn.recordwriter.metrics.WriterMetrics;
import dev.cairn.recordwriter.plan.ObjectKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Ingress API adapter for Gslbs' embedded ingresses ({@link IngressPlan}): an informer on the
 * Ingresses labelled {@value IngressPlan#K8GB_MANAGED_BY_LABEL}={@value
 * IngressPlan#K8GB_MANAGED_BY_VALUE} in all namespaces (k8gb's and Cairn's), reads by name (an
 * Ingress of a Gslb's name without the label), and the writes of a plan: create, update and release
 * carry the resourceVersion they were planned from, a delete carries it as a precondition, so a
 * concurrent change fails with 409 and the name is planned again. Thread-safe.
 */
public final class IngressStore {

  /** {@code networking.k8s.io/v1} {@code ingresses}, namespaced. */
  public static final ResourceDefinitionContext CONTEXT =
      new ResourceDefinitionContext.Builder()
          .withGroup("networking.k8s.io")
          .withVersion("v1")
          .withPlural("ingresses")
          .withKind("Ingress")
          .withNamespaced(true)
          .build();

  private static final Logger log = LoggerFactory.getLogger(IngressStore.class);

  private final CachedResources ingresses;
  private final ObjectCache cache;
  private final KubernetesSerialization serialization;
  private final WriterMetrics metrics;
  private final InformerSlot informer = new InformerSlot();

  /** A store reading and writing through this client. */
  public IngressStore(KubernetesClient client, ObjectCache cache, WriterMetrics metrics) {
    this.ingresses = new CachedResources(client, CONTEXT, cache, ObjectCache::keyOf, log);
    this.cache = cache;
    this.serialization = client.getKubernetesSerialization();
    this.metrics = metrics;
  }

  /**
   * Starts the informer on the labelled Ingresses unless it runs already; every event updates the
   * cache and is passed on, so a hand edit or delete is repaired.
   */
  public void startInformer(Consumer<ObjectKey> changed) {
    informer.start(
        () ->
            ingresses.inform(
                IngressPlan.K8GB_MANAGED_BY_LABEL, IngressPlan.K8GB_MANAGED_BY_VALUE, changed));
  }

  /** True once the informer has listed the labelled Ingresses. */
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

  /** The Ingress of that name as last seen, if it exists (and carries the label). */
  public Optional<GenericKubernetesResource> cached(ObjectKey key) {
    return cache.get(key);
  }

  /** The names of the labelled Ingresses known to exist. */
  public Set<ObjectKey> keys() {
    return cache.keys();
  }

  /** Drops the markers of deleted Ingresses. */
  public void dropMarkers() {
    cache.dropMarkers();
  }

  /**
   * Reads one Ingress, labelled or not, into the cache.
   *
   * @return the object, or empty when it does not exist
   * @throws io.fabric8.kubernetes.client.KubernetesClientException when the read fails
   */
  public Optional<GenericKubernetesResource> read(ObjectKey key) {
    return ingresses.read(key);
  }

  /** True when the Ingress carries k8gb's label, as the Ingresses the informer sees do. */
  public static boolean labelled(GenericKubernetesResource r) {
    Map<String, String> labels = r.getMetadata().getLabels();
    return labels != null
        && IngressPlan.K8GB_MANAGED_BY_VALUE.equals(labels.get(IngressPlan.K8GB_MANAGED_BY_LABEL));
  }

  /** A Gslb as the plan reads it. */
  public static EmbeddingGslb embedding(GenericKubernetesResource gslb) {
    return EmbeddingGslb.of(
        ObjectCache.keyOf(gslb),
        gslb.getMetadata().getUid(),
        gslb.getAdditionalProperties().get("spec"));
  }

  /** An Ingress as the plan reads it; an unreadable last-applied annotation reads as absent. */
  public LiveIngress live(GenericKubernetesResource r) {
    ObjectMeta meta = r.getMetadata();
    List<LiveIngress.OwnerRef> owners = owners(meta);
    Map<String, String> annotations = meta.getAnnotations();
    Object lastApplied = null;
    String text = annotations == null ? null : annotations.get(IngressPlan.LAST_APPLIED_ANNOTATION);
    if (text != null) {
      try {
        lastApplied = serialization.unmarshal(text, Object.class);
      } catch (RuntimeException e) {
        log.atDebug()
            .addKeyValue("ingress", ObjectCache.keyOf(r))
            .log(
                "unreadable {} annotation; treated as absent", IngressPlan.LAST_APPLIED_ANNOTATION);
      }
    }
    return new LiveIngress(
        ObjectCache.keyOf(r),
        meta.getUid(),
        meta.getResourceVersion(),
        meta.getLabels(),
        annotations,
        owners,
        r.getAdditionalProperties().get("spec"),
        lastApplied);
  }

  /** The owner references of an object as the plans read them. */
  static List<LiveIngress.OwnerRef> owners(ObjectMeta meta) {
    List<LiveIngress.OwnerRef> owners = new ArrayList<>();
    if (meta.getOwnerReferences() != null) {
      for (OwnerReference o : meta.getOwnerReferences()) {
        owners.add(
            new LiveIngress.OwnerRef(
                o.getApiVersion(),
                o.getKind(),
                o.getName(),
                o.getUid(),
                Boolean.TRUE.equals(o.getController()),
                Boolean.TRUE.equals(o.getBlockOwnerDeletion())));
      }
    }
    return owners;
  }

  /** The owner references to send. */
  static List<OwnerReference> ownerReferences(List<LiveIngress.OwnerRef> owners) {
    List<OwnerReference> refs = new ArrayList<>();
    for (LiveIngress.OwnerRef o : owners) {
      refs.add(
          new OwnerReferenceBuilder()
              .withApiVersion(o.apiVersion())
              .withKind(o.kind())
              .withName(o.name())
              .withUid(o.uid())
              .withController(o.controller() ? Boolean.TRUE : null)
              .withBlockOwnerDeletion(o.blockOwnerDeletion() ? Boolean.TRUE : null)
              .build());
    }
    return refs;
  }

  /**
   * Sends one planned write.
   *
   * @param plan a plan that {@linkplain IngressPlan#writes() writes}
   * @param base for an update or release, the Ingress as read when planning (its status is sent
   *     back unchanged); {@code null} otherwise
   * @param mayWrite checked right before the call
   */
  public WriteResult apply(
      IngressPlan plan, GenericKubernetesResource base, BooleanSupplier mayWrite) {
    if (!plan.writes()) {
      throw new IllegalArgumentException("not a write: " + plan.action());
    }
    String operation = plan.action().name().toLowerCase(Locale.ROOT);
    return ingresses.send(
        plan.key(),
        plan.action() == IngressPlan.Action.CREATE,
        "the Ingress",
        mayWrite,
        () -> send(plan, base),
        (result, latency) -> metrics.ingressWrite(operation, result, latency));
  }

  private WriteResult send(IngressPlan plan, GenericKubernetesResource base) {
    ObjectKey key = plan.key();
    switch (plan.action()) {
      case CREATE -> {
        GenericKubernetesResource created =
            ingresses.resources().inNamespace(key.namespace()).resource(body(plan, null)).create();
        cache.observe(created);
        return WriteResult.of(WriteResult.Status.DONE, "created");
      }
      case UPDATE, RELEASE -> {
        GenericKubernetesResource updated =
            ingresses.resources().inNamespace(key.namespace()).resource(body(plan, base)).update();
        cache.observe(updated);
        return WriteResult.of(
            WriteResult.Status.DONE,
            plan.action() == IngressPlan.Action.UPDATE ? "updated" : "released");
      }
      case DELETE -> {
        Resource<GenericKubernetesResource> target =
            ingresses.resources().inNamespace(key.namespace()).withName(key.name());
        List<StatusDetails> deleted =
            plan.version() == null
                ? target.delete()
                : target.lockResourceVersion(plan.version()).delete();
        cache.forget(key, plan.version());
        return deleted.isEmpty()
            ? WriteResult.of(WriteResult.Status.GONE, "already gone")
            : WriteResult.of(WriteResult.Status.DONE, "deleted");
      }
      default -> throw new IllegalArgumentException("not a write: " + plan.action());
    }
  }

  /** The Ingress to send; an update keeps the base's status. */
  private GenericKubernetesResource body(IngressPlan plan, GenericKubernetesResource base) {
    IngressPlan.Body b = plan.body();
    Map<String, String> annotations = new LinkedHashMap<>(b.annotations());
    if (b.lastApplied() != null) {
      annotations.put(IngressPlan.LAST_APPLIED_ANNOTATION, serialization.asJson(b.lastApplied()));
    }
    return ingresses.body(
        plan.key(),
        base,
        plan.version(),
        b.labels(),
        annotations,
        ownerReferences(b.owners()),
        b.spec());
  }
}
