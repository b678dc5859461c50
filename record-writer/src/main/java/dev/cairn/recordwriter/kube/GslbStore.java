package dev.cairn.recordwriter.kube;

import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.ingress.GslbFromIngressPlan;
import dev.cairn.recordwriter.ingress.LiveGslbObject;
import dev.cairn.recordwriter.metrics.WriterMetrics;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.status.LiveGslb;
import dev.cairn.recordwriter.status.StatusPlan;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Gslb API adapter: an informer on the Gslbs of all namespaces (read only), reads by name, and
 * status writes through the status subresource ({@code PUT .../gslbs/<name>/status}). A status
 * write is checked against the status schema of the CRD, is sent only while {@code mayWrite} holds,
 * and carries the resourceVersion it was planned from, so a concurrent change makes it fail with
 * 409 instead of overwriting it; the object is then read again and the caller plans again. Gslbs
 * themselves are created and updated only for annotated Ingresses ({@link GslbFromIngressPlan},
 * k8gb's Ingress-annotation mode), never deleted. Writes are paced by the caller ({@code
 * WriteScheduler}, the same rate limit as DNSEndpoint writes); the store is thread-safe.
 *
 * <p>Gslb support is optional: when the API server does not serve {@code k8gb.io/v1beta1 gslbs}
 * (the k8gb CRD is not installed) nothing is watched, every status is skipped as naming a missing
 * Gslb, and {@link #startInformer} is tried again at the next resync.
 */
public final class GslbStore {

  /** {@code k8gb.io/v1beta1} {@code gslbs}, namespaced. */
  public static final ResourceDefinitionContext CONTEXT =
      new ResourceDefinitionContext.Builder()
          .withGroup("k8gb.io")
          .withVersion("v1beta1")
          .withPlural("gslbs")
          .withKind("Gslb")
          .withNamespaced(true)
          .build();

  private static final Logger log = LoggerFactory.getLogger(GslbStore.class);

  private final CachedResources gslbs;
  private final GslbCache cache;
  private final CrdSchema schema;
  private final WriterMetrics metrics;
  private final InformerSlot informer = new InformerSlot();
  private volatile boolean served = true;
  private final List<Consumer<ObjectKey>> listeners = new CopyOnWriteArrayList<>();

  /** A store reading and writing through this client. */
  public GslbStore(
      KubernetesClient client, GslbCache cache, CrdSchema schema, WriterMetrics metrics) {
    this.gslbs = new CachedResources(client, CONTEXT, cache, ObjectCache::keyOf, log);
    this.cache = cache;
    this.schema = schema;
    this.metrics = metrics;
  }

  /**
   * Adds a listener told the key of every Gslb the informer sees added, changed or deleted (the
   * status loop, the embedded-Ingress loop). Add listeners before {@link #startInformer()}.
   */
  public void addListener(Consumer<ObjectKey> changed) {
    listeners.add(changed);
  }

  /**
   * Starts the informer on all Gslbs unless it runs already; every event updates the cache and is
   * passed on to the listeners so the Gslb is planned again (a manual status edit is repaired, a
   * Gslb created after its status gets it, an embedded ingress follows its spec).
   *
   * @return true when the informer runs; false when the API does not serve Gslbs (logged once; try
   *     again later)
   */
  public synchronized boolean startInformer() {
    if (informer.running()) {
      return true;
    }
    try {
      gslbs.resources().inAnyNamespace().list(new ListOptionsBuilder().withLimit(1L).build());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        if (served) {
          log.atInfo().log(
              "the API server does not serve k8gb.io/v1beta1 gslbs (the Gslb CRD is not"
                  + " installed); Gslb statuses are skipped, checked again at every resync");
        }
        served = false;
        return false;
      }
      log.atWarn()
          .addKeyValue("error", e.getMessage())
          .log("could not check the Gslb API; starting the informer anyway, it retries");
    }
    served = true;
    informer.start(() -> gslbs.inform(null, null, key -> listeners.forEach(l -> l.accept(key))));
    return true;
  }

  /** False after the API answered 404 for Gslbs (the CRD is not installed). */
  public boolean served() {
    return served;
  }

  /** True while the informer on Gslbs is watching. */
  public boolean watching() {
    return informer.watching();
  }

  /** True once the informer has listed the Gslbs. */
  public boolean synced() {
    return informer.synced();
  }

  /** Stops the informer. */
  public void close() {
    informer.close();
  }

  /**
   * Reads one Gslb into the cache.
   *
   * @return the object, or empty when it does not exist
   * @throws KubernetesClientException when the read fails
   */
  public Optional<GenericKubernetesResource> read(ObjectKey key) {
    return gslbs.read(key);
  }

  /** A Gslb reduced to what the status plan compares. */
  public static LiveGslb live(GenericKubernetesResource r) {
    return new LiveGslb(
        ObjectCache.keyOf(r),
        r.getMetadata().getUid(),
        r.getMetadata().getResourceVersion(),
        r.getAdditionalProperties().get("status"));
  }

  /** A Gslb as the plan of an annotated Ingress reads it. */
  @SuppressWarnings("unchecked")
  public static LiveGslbObject liveObject(GenericKubernetesResource r) {
    Object spec = r.getAdditionalProperties().get("spec");
    return new LiveGslbObject(
        ObjectCache.keyOf(r),
        r.getMetadata().getUid(),
        r.getMetadata().getResourceVersion(),
        r.getMetadata().getLabels(),
        r.getMetadata().getAnnotations(),
        IngressStore.owners(r.getMetadata()),
        spec instanceof Map<?, ?> m ? (Map<String, Object>) m : null);
  }

  /**
   * Creates or updates the Gslb of an annotated Ingress. The spec is checked against the CRD's
   * schema first; an update carries the resourceVersion it was planned from and sends the base's
   * status back unchanged.
   *
   * @param plan a plan that {@linkplain GslbFromIngressPlan#writes() writes}
   * @param base for an update, the Gslb as read when planning; {@code null} for a create
   * @param mayWrite checked right before the call
   */
  public WriteResult apply(
      GslbFromIngressPlan plan, GenericKubernetesResource base, BooleanSupplier mayWrite) {
    if (!plan.writes()) {
      throw new IllegalArgumentException("not a write: " + plan.action());
    }
    List<Problem> problems = schema.validateField("spec", plan.body().spec());
    if (!problems.isEmpty()) {
      metrics.schemaRejected("Gslb");
      return WriteResult.of(
          WriteResult.Status.INVALID,
          "not sent: violates the " + schema.description() + " spec schema: " + problems);
    }
    boolean create = plan.action() == GslbFromIngressPlan.Action.CREATE;
    String operation = create ? "create" : "update";
    return gslbs.send(
        plan.key(),
        create,
        "the Gslb",
        mayWrite,
        () -> {
          var api =
              gslbs.resources().inNamespace(plan.key().namespace()).resource(body(plan, base));
          GenericKubernetesResource written = create ? api.create() : api.update();
          cache.observe(written);
          return WriteResult.of(WriteResult.Status.DONE, create ? "created" : "updated");
        },
        (result, latency) -> metrics.gslbWrite(operation, result, latency));
  }

  private GenericKubernetesResource body(GslbFromIngressPlan plan, GenericKubernetesResource base) {
    GslbFromIngressPlan.Body b = plan.body();
    return gslbs.body(
        plan.key(),
        base,
        plan.version(),
        b.labels(),
        b.annotations(),
        IngressStore.ownerReferences(b.owners()),
        b.spec());
  }

  /**
   * Writes one planned status.
   *
   * @param plan a {@link StatusPlan.Action#WRITE} plan
   * @param base the object as read when planning
   * @param mayWrite checked right before the call
   */
  public WriteResult writeStatus(
      StatusPlan plan, GenericKubernetesResource base, BooleanSupplier mayWrite) {
    if (plan.action() != StatusPlan.Action.WRITE) {
      throw new IllegalArgumentException("not a status write: " + plan.action());
    }
    List<Problem> problems = schema.validateField("status", plan.status());
    if (!problems.isEmpty()) {
      metrics.schemaRejected("Gslb");
      return WriteResult.of(
          WriteResult.Status.INVALID,
          "not sent: violates the " + schema.description() + " status schema: " + problems);
    }
    return gslbs.send(
        plan.key(),
        false,
        "the Gslb",
        mayWrite,
        () -> {
          GenericKubernetesResource written =
              gslbs
                  .resources()
                  .inNamespace(plan.key().namespace())
                  .resource(withStatus(base, plan))
                  .updateStatus();
          cache.observe(written);
          return WriteResult.of(WriteResult.Status.DONE, "status written");
        },
        metrics::statusWrite);
  }

  private static GenericKubernetesResource withStatus(
      GenericKubernetesResource base, StatusPlan plan) {
    GenericKubernetesResource body = new GenericKubernetesResource();
    body.setApiVersion(base.getApiVersion());
    body.setKind(base.getKind());
    body.setMetadata(
        new ObjectMetaBuilder(base.getMetadata()).withResourceVersion(plan.version()).build());
    Map<String, Object> rest = new HashMap<>(base.getAdditionalProperties());
    rest.put("status", plan.status());
    body.setAdditionalProperties(rest);
    return body;
  }
}
