package dev.cairn.recordwriter.kube;

import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.metrics.WriterMetrics;
import dev.cairn.recordwriter.plan.Changes.Change;
import dev.cairn.recordwriter.plan.Changes.Create;
import dev.cairn.recordwriter.plan.Changes.Delete;
import dev.cairn.recordwriter.plan.Changes.Update;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Ownership;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DNSEndpoint API adapter: reads (list of owned objects, get by name, an informer on owned
 * objects) and writes. Every write is checked against the CRD schema, is sent only while {@code
 * mayWrite} holds, and is conditional: an update carries the resourceVersion it was planned from
 * and a delete carries it as a precondition, so a concurrent change makes the write fail with 409
 * instead of overwriting it. After a 409 the object is read again into the cache and the caller
 * plans again. Writes are paced and spread over threads by the caller ({@code WriteScheduler}: the
 * rate limit, at most one write per object at a time); the store is thread-safe.
 */
public final class DnsEndpointStore {

  /** {@code externaldns.k8s.io/v1alpha1} {@code dnsendpoints}, namespaced. */
  public static final ResourceDefinitionContext CONTEXT =
      new ResourceDefinitionContext.Builder()
          .withGroup("externaldns.k8s.io")
          .withVersion("v1alpha1")
          .withPlural("dnsendpoints")
          .withKind(DnsEndpointMapper.KIND)
          .withNamespaced(true)
          .build();

  private static final Logger log = LoggerFactory.getLogger(DnsEndpointStore.class);

  private final CachedResources dnsEndpoints;
  private final DnsEndpointMapper mapper;
  private final DnsEndpointCache cache;
  private final CrdSchema schema;
  private final WriterMetrics metrics;

  /** A store writing through this client. */
  public DnsEndpointStore(
      KubernetesClient client,
      DnsEndpointMapper mapper,
      DnsEndpointCache cache,
      CrdSchema schema,
      WriterMetrics metrics) {
    this.dnsEndpoints = new CachedResources(client, CONTEXT, cache, DnsEndpointMapper::keyOf, log);
    this.mapper = mapper;
    this.cache = cache;
    this.schema = schema;
    this.metrics = metrics;
  }

  /**
   * True when the API server serves DNSEndpoints; false when it answers 404 (the CRD is not
   * installed).
   *
   * @throws KubernetesClientException on other errors
   */
  public boolean served() {
    try {
      dnsEndpoints
          .resources()
          .inAnyNamespace()
          .list(new ListOptionsBuilder().withLimit(1L).build());
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Lists every DNSEndpoint Cairn owns ({@link Ownership#OWNED_SELECTOR}) in all namespaces and
   * makes it the cache's owned view.
   *
   * @return the number of owned objects
   * @throws KubernetesClientException when the list fails
   */
  public int listOwned() {
    GenericKubernetesResourceList list =
        dnsEndpoints
            .resources()
            .inAnyNamespace()
            .withLabel(Ownership.MANAGED_BY_LABEL, Ownership.MANAGED_BY_VALUE)
            .list();
    List<GenericKubernetesResource> items = list.getItems();
    cache.replaceOwned(
        items, list.getMetadata() == null ? null : list.getMetadata().getResourceVersion());
    return items.size();
  }

  /**
   * Reads one object into the cache.
   *
   * @return the object, or empty when it does not exist
   * @throws KubernetesClientException when the read fails
   */
  public Optional<GenericKubernetesResource> read(ObjectKey key) {
    return dnsEndpoints.read(key);
  }

  /**
   * Starts an informer on the owned DNSEndpoints of all namespaces; every event updates the cache
   * and is passed on so the object can be planned again (a manual edit or delete is repaired).
   */
  public SharedIndexInformer<GenericKubernetesResource> inform(Consumer<ObjectKey> changed) {
    return dnsEndpoints.inform(Ownership.MANAGED_BY_LABEL, Ownership.MANAGED_BY_VALUE, changed);
  }

  /**
   * Sends one planned write.
   *
   * @param change the write
   * @param base for an update, the object as read when planning (its resourceVersion is used)
   * @param mayWrite checked right before the call
   */
  public WriteResult apply(
      Change change, GenericKubernetesResource base, BooleanSupplier mayWrite) {
    GenericKubernetesResource body = null;
    if (change instanceof Create c) {
      body = mapper.toNew(c.desired());
    } else if (change instanceof Update u) {
      body = mapper.toUpdated(base, u.desired());
    }
    if (body != null) {
      List<Problem> problems = schema.validate(mapper.toSchemaInput(body));
      if (!problems.isEmpty()) {
        metrics.schemaRejected("DNSEndpoint");
        return WriteResult.of(
            WriteResult.Status.INVALID,
            "not sent: violates the " + schema.description() + " schema: " + problems);
      }
    }
    GenericKubernetesResource sent = body;
    String operation = operation(change);
    return dnsEndpoints.send(
        change.key(),
        change instanceof Create,
        "the object",
        mayWrite,
        () -> send(change, sent),
        (result, latency) -> metrics.write(operation, result, latency));
  }

  private WriteResult send(Change change, GenericKubernetesResource body) {
    ObjectKey key = change.key();
    if (change instanceof Create) {
      GenericKubernetesResource created =
          dnsEndpoints.resources().inNamespace(key.namespace()).resource(body).create();
      cache.observe(created);
      return WriteResult.of(WriteResult.Status.DONE, "created");
    }
    if (change instanceof Update) {
      GenericKubernetesResource updated =
          dnsEndpoints.resources().inNamespace(key.namespace()).resource(body).update();
      cache.observe(updated);
      return WriteResult.of(WriteResult.Status.DONE, "updated");
    }
    String version = ((Delete) change).current().version();
    Resource<GenericKubernetesResource> target =
        dnsEndpoints.resources().inNamespace(key.namespace()).withName(key.name());
    List<StatusDetails> deleted =
        version == null ? target.delete() : target.lockResourceVersion(version).delete();
    cache.forget(key, version);
    return deleted.isEmpty()
        ? WriteResult.of(WriteResult.Status.GONE, "already gone")
        : WriteResult.of(WriteResult.Status.DONE, "deleted");
  }

  /** {@code create}, {@code update} or {@code delete}. */
  public static String operation(Change change) {
    if (change instanceof Create) {
      return "create";
    }
    return change instanceof Update ? "update" : "delete";
  }
}
