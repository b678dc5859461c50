package dev.cairn.topologywatcher.kube;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.topologywatcher.normalize.EndpointSliceInput;
import dev.cairn.topologywatcher.normalize.EndpointsNormalizer;
import dev.cairn.topologywatcher.state.Entity;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code discovery.k8s.io/v1} EndpointSlices, merged per Service: a slice feeds the key {@code
 * Service/<ns>/<label kubernetes.io/service-name>}, and that key is recomputed from every slice
 * carrying the label (found through an informer index), so the record never depends on which slice
 * changed last. Slices without the label belong to no Service and are ignored.
 */
final class EndpointSliceSource extends KindSource<EndpointSlice> {

  static final String BY_SERVICE = "cairn-service";

  EndpointSliceSource() {
    super(Entity.SERVICE_ENDPOINTS, "discovery.k8s.io/v1", true);
  }

  @Override
  Class<EndpointSlice> type() {
    return EndpointSlice.class;
  }

  @Override
  Informable<EndpointSlice> informable(
      KubernetesClient client, String namespace, String labelSelector) {
    return scoped(client.discovery().v1().endpointSlices(), namespace, labelSelector);
  }

  @Override
  Map<String, Function<EndpointSlice, List<String>>> indexers() {
    return Map.of(
        BY_SERVICE,
        slice -> {
          String service = serviceOf(slice);
          return service == null
              ? List.of()
              : List.of(slice.getMetadata().getNamespace() + "/" + service);
        });
  }

  @Override
  List<String> keys(EndpointSlice slice) {
    String service = serviceOf(slice);
    if (service == null) {
      return List.of();
    }
    return List.of(ObjectRef.of("Service", slice.getMetadata().getNamespace(), service).key());
  }

  @Override
  List<String> keptLabels() {
    return List.of(EndpointsNormalizer.SERVICE_NAME_LABEL);
  }

  /** A slice is kept as its compact input: addresses, node, zone and conditions only. */
  @Override
  Object digest(EndpointSlice slice) {
    return input(slice);
  }

  @Override
  Object compute(String key, Lookup lookup) {
    ObjectRef ref = ObjectRef.parse(key);
    List<EndpointSliceInput> inputs = new ArrayList<>();
    for (Object digest :
        lookup.digestsByIndex(ref.namespace(), BY_SERVICE, ref.namespace() + "/" + ref.name())) {
      if (digest == DigestStore.FAILED) {
        return DigestStore.FAILED;
      }
      if (digest != null) {
        inputs.add((EndpointSliceInput) digest);
      }
    }
    return EndpointsNormalizer.merge(ref.namespace(), ref.name(), inputs).orElse(null);
  }

  private static EndpointSliceInput input(EndpointSlice slice) {
    List<EndpointSliceInput.Endpoint> endpoints = new ArrayList<>();
    for (Endpoint e : orEmpty(slice.getEndpoints())) {
      if (e == null) {
        continue;
      }
      EndpointConditions c = e.getConditions();
      endpoints.add(
          new EndpointSliceInput.Endpoint(
              e.getAddresses(),
              e.getNodeName(),
              e.getZone(),
              c == null ? null : c.getReady(),
              c == null ? null : c.getServing(),
              c == null ? null : c.getTerminating()));
    }
    return new EndpointSliceInput(slice.getMetadata().getName(), slice.getAddressType(), endpoints);
  }

  /** The Service a slice belongs to, or {@code null} when the label is missing or unusable. */
  static String serviceOf(EndpointSlice slice) {
    if (slice.getMetadata() == null
        || slice.getMetadata().getLabels() == null
        || slice.getMetadata().getNamespace() == null) {
      return null;
    }
    String service = slice.getMetadata().getLabels().get(EndpointsNormalizer.SERVICE_NAME_LABEL);
    if (service == null || service.isBlank() || service.contains("/")) {
      return null;
    }
    return service;
  }
}
