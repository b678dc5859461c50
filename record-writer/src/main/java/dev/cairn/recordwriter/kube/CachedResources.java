package dev.cairn.recordwriter.kube;

import dev.cairn.recordwriter.plan.ObjectKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * One namespaced custom resource kind as a store sees it: every object read or seen by an informer
 * goes into the store's cache, and every write is sent only while {@code mayWrite} holds and is
 * optimistic: a 409 reads the object again into the cache and reports a conflict (plan again, never
 * resend), a 404 forgets it. Writes are rate-limited before they get here, by the scheduler that
 * calls the store. Thread-safe: writes to different objects may run at the same time.
 */
final class CachedResources {

  /** What a cache does with what the API shows. */
  interface Cache {
    /** An object as the API showed it. */
    void observe(GenericKubernetesResource r);

    /** An object is gone; {@code resourceVersion} is its last version, or {@code null}. */
    void forget(ObjectKey key, String resourceVersion);
  }

  private final KubernetesClient client;
  private final ResourceDefinitionContext context;
  private final Cache cache;
  private final Function<GenericKubernetesResource, ObjectKey> keyOf;
  private final Logger log;
  private final String logKey;

  /**
   * Access to one kind.
   *
   * @param keyOf the key of an object of this kind
   * @param log the store's logger
   */
  CachedResources(
      KubernetesClient client,
      ResourceDefinitionContext context,
      Cache cache,
      Function<GenericKubernetesResource, ObjectKey> keyOf,
      Logger log) {
    this.client = client;
    this.context = context;
    this.cache = cache;
    this.keyOf = keyOf;
    this.log = log;
    this.logKey = context.getKind().toLowerCase(Locale.ROOT);
  }

  /** The kind's API. */
  MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      resources() {
    return client.genericKubernetesResources(context);
  }

  /**
   * Reads one object into the cache.
   *
   * @return the object, or empty when it does not exist
   * @throws KubernetesClientException when the read fails
   */
  Optional<GenericKubernetesResource> read(ObjectKey key) {
    GenericKubernetesResource r =
        resources().inNamespace(key.namespace()).withName(key.name()).get();
    if (r == null) {
      cache.forget(key, null);
      return Optional.empty();
    }
    cache.observe(r);
    return Optional.of(r);
  }

  /**
   * Starts an informer on the objects of all namespaces, those with the label {@code label=value}
   * only when {@code label} is given; every event updates the cache and is passed on by key.
   */
  SharedIndexInformer<GenericKubernetesResource> inform(
      String label, String value, Consumer<ObjectKey> changed) {
    var all = resources().inAnyNamespace();
    SharedIndexInformer<GenericKubernetesResource> informer =
        label == null ? all.runnableInformer(0) : all.withLabel(label, value).runnableInformer(0);
    informer.addEventHandler(events(changed));
    informer.start();
    return informer;
  }

  /** An informer handler: every event updates the cache and is passed on by key. */
  ResourceEventHandler<GenericKubernetesResource> events(Consumer<ObjectKey> changed) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource r) {
        cache.observe(r);
        changed.accept(keyOf.apply(r));
      }

      @Override
      public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource r) {
        cache.observe(r);
        changed.accept(keyOf.apply(r));
      }

      @Override
      public void onDelete(GenericKubernetesResource r, boolean finalStateUnknown) {
        cache.forget(keyOf.apply(r), r.getMetadata().getResourceVersion());
        changed.accept(keyOf.apply(r));
      }
    };
  }

  /**
   * An object of this kind to send: for an update, {@code base}'s metadata with the given
   * resourceVersion, labels, annotations and owner references, and {@code base}'s status (the API
   * server ignores it, and a PUT without it would read as clearing it); for a create, fresh
   * metadata.
   *
   * @param base the object as read when planning, {@code null} for a create
   * @param version the resourceVersion an update is conditional on
   */
  GenericKubernetesResource body(
      ObjectKey key,
      GenericKubernetesResource base,
      String version,
      Map<String, String> labels,
      Map<String, String> annotations,
      List<OwnerReference> owners,
      Object spec) {
    ObjectMetaBuilder meta =
        base == null
            ? new ObjectMetaBuilder()
            : new ObjectMetaBuilder(base.getMetadata()).withResourceVersion(version);
    GenericKubernetesResource body = new GenericKubernetesResource();
    body.setApiVersion(context.getGroup() + "/" + context.getVersion());
    body.setKind(context.getKind());
    body.setMetadata(
        meta.withNamespace(key.namespace())
            .withName(key.name())
            .withLabels(labels.isEmpty() ? null : new LinkedHashMap<>(labels))
            .withAnnotations(annotations.isEmpty() ? null : new LinkedHashMap<>(annotations))
            .withOwnerReferences(owners.isEmpty() ? null : owners)
            .build());
    Map<String, Object> rest = new HashMap<>();
    rest.put("spec", spec);
    if (base != null && base.getAdditionalProperties().get("status") != null) {
      rest.put("status", base.getAdditionalProperties().get("status"));
    }
    body.setAdditionalProperties(rest);
    return body;
  }

  /**
   * Sends one write: checks {@code mayWrite}, makes the call and turns an API error into a result.
   *
   * @param key the object written
   * @param create true for a create: a 409 means the name is taken, a 404 is not "gone"
   * @param subject how results name an existing object ("the Gslb", "the object")
   * @param mayWrite checked right before the call
   * @param call the API call; it updates the cache and returns the result of a call that succeeded
   * @param timed told the result tag and the duration of a call that was made
   */
  WriteResult send(
      ObjectKey key,
      boolean create,
      String subject,
      BooleanSupplier mayWrite,
      Supplier<WriteResult> call,
      BiConsumer<String, Duration> timed) {
    if (!mayWrite.getAsBoolean()) {
      return WriteResult.of(WriteResult.Status.SKIPPED, "not the leader, or shutting down");
    }
    long start = System.nanoTime();
    WriteResult result;
    try {
      result = call.get();
    } catch (KubernetesClientException e) {
      result = failed(key, create, subject, e);
    }
    timed.accept(result.tag(), Duration.ofNanos(System.nanoTime() - start));
    return result;
  }

  private WriteResult failed(
      ObjectKey key, boolean create, String subject, KubernetesClientException e) {
    int code = e.getCode();
    if (code == 409) {
      try {
        Optional<GenericKubernetesResource> now = read(key);
        return WriteResult.of(
            WriteResult.Status.CONFLICT,
            (create ? "the name is taken" : subject + " changed since it was read")
                + "; read again"
                + now.map(r -> " at resourceVersion " + r.getMetadata().getResourceVersion())
                    .orElse(" (now gone)"));
      } catch (KubernetesClientException readFailure) {
        log.atWarn()
            .addKeyValue(logKey, key)
            .addKeyValue("error", readFailure.getMessage())
            .log("could not read a {} again after a conflict", context.getKind());
        return WriteResult.of(WriteResult.Status.FAILED, "conflict, and the re-read failed");
      }
    }
    if (code == 404 && !create) {
      cache.forget(key, null);
      return WriteResult.of(WriteResult.Status.GONE, subject + " no longer exists");
    }
    if (code == 422 || code == 400) {
      return WriteResult.of(
          WriteResult.Status.INVALID, "refused by the API server (" + code + "): " + message(e));
    }
    return WriteResult.of(
        WriteResult.Status.FAILED,
        (code > 0 ? "API error " + code + ": " : "API call failed: ") + message(e));
  }

  private static String message(KubernetesClientException e) {
    if (e.getStatus() != null && e.getStatus().getMessage() != null) {
      return e.getStatus().getMessage();
    }
    return e.getMessage();
  }
}
