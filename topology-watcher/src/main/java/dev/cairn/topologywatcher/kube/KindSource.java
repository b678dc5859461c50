package dev.cairn.topologywatcher.kube;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.topologywatcher.normalize.Meta;
import dev.cairn.topologywatcher.state.Entity;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * How one kind is read: which API it is listed from, what the informer store keeps of each object
 * (its digest), which view keys an object feeds, and how a key's record is computed from the
 * digests. Subclasses only copy fabric8 fields into the normaliser's input records; the normalisers
 * decide.
 *
 * @param <T> the fabric8 type
 */
abstract class KindSource<T extends HasMetadata> {

  /** Reads the digests of the current informer stores. */
  interface Lookup {
    /**
     * The digest of an object; {@code null} when it does not exist, {@link DigestStore#FAILED} when
     * it could not be computed. {@code namespace} is {@code null} for cluster-scoped kinds.
     */
    Object digest(String namespace, String name);

    /** The digests of the objects of a namespace whose index {@code index} holds {@code value}. */
    List<Object> digestsByIndex(String namespace, String index, String value);
  }

  private final Entity entity;
  private final String apiVersion;
  private final boolean namespaced;

  KindSource(Entity entity, String apiVersion, boolean namespaced) {
    this.entity = entity;
    this.apiVersion = apiVersion;
    this.namespaced = namespaced;
  }

  final Entity entity() {
    return entity;
  }

  /** The API version listed, e.g. {@code gateway.networking.k8s.io/v1}. */
  final String apiVersion() {
    return apiVersion;
  }

  final boolean namespaced() {
    return namespaced;
  }

  /**
   * The listable, watchable set of objects in one namespace ({@code null}: all namespaces, or the
   * cluster for cluster-scoped kinds), filtered by the selector when there is one.
   */
  abstract Informable<T> informable(
      KubernetesClient client, String namespace, String labelSelector);

  /** The fabric8 type (its no-argument constructor makes the store's skeletons). */
  abstract Class<T> type();

  /**
   * What the informer store keeps of an object when it arrives: its normalised record, by default.
   * Must not throw for any object the API server can hold; a failure keeps the key's last state.
   */
  abstract Object digest(T object);

  /** The labels the store keeps on its skeletons: those the index functions read. */
  List<String> keptLabels() {
    return List.of();
  }

  /** Index functions the informer must maintain; none by default. */
  Map<String, Function<T, List<String>>> indexers() {
    return Map.of();
  }

  /** The view keys this object contributes to; by default its own {@code ObjectRef} key. */
  List<String> keys(T object) {
    ObjectMeta m = object.getMetadata();
    if (m == null || m.getName() == null) {
      return List.of();
    }
    return List.of(
        new ObjectRef(entity.label(), namespaced ? m.getNamespace() : null, m.getName()).key());
  }

  /**
   * The record of a key computed from the stored digests: {@code null} when the key no longer
   * exists, {@link DigestStore#FAILED} when it cannot be computed now. By default a key is one
   * object and its digest is its record.
   */
  Object compute(String key, Lookup lookup) {
    ObjectRef ref = ObjectRef.parse(key);
    return lookup.digest(ref.namespace(), ref.name());
  }

  static Meta meta(HasMetadata object) {
    ObjectMeta m = object.getMetadata();
    RouteState.Controller controller = null;
    for (OwnerReference o : orEmpty(m.getOwnerReferences())) {
      if (o != null && Boolean.TRUE.equals(o.getController())) {
        controller =
            new RouteState.Controller(o.getApiVersion(), o.getKind(), o.getName(), o.getUid());
        break;
      }
    }
    return new Meta(
        m.getNamespace(), m.getName(), m.getUid(), m.getLabels(), m.getAnnotations(), controller);
  }

  static <T, L, R extends Resource<T>> Informable<T> scoped(
      MixedOperation<T, L, R> operation, String namespace, String labelSelector) {
    FilterWatchListDeletable<T, L, R> objects =
        namespace == null ? operation.inAnyNamespace() : operation.inNamespace(namespace);
    return labelSelector == null ? objects : objects.withLabelSelector(labelSelector);
  }

  static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
