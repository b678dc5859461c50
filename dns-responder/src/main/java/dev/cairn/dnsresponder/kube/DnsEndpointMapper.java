package dev.cairn.dnsresponder.kube;

import dev.cairn.dnsresponder.zone.EndpointInput;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps a DNSEndpoint ({@code externaldns.k8s.io/v1alpha1}) to {@link EndpointInput}s. Lenient on
 * shapes the API server's schema would reject anyway: a field of the wrong type reads as absent,
 * and the snapshot builder then reports the endpoint, naming the object and field.
 */
final class DnsEndpointMapper {

  private DnsEndpointMapper() {}

  /** The endpoints of one object, in {@code spec.endpoints} order. */
  static List<EndpointInput> map(GenericKubernetesResource resource) {
    ObjectMeta meta = resource.getMetadata();
    String source = key(resource);
    Instant created = created(meta);
    Object spec = resource.getAdditionalProperties().get("spec");
    if (!(spec instanceof Map<?, ?> specMap)
        || !(specMap.get("endpoints") instanceof List<?> eps)) {
      return List.of();
    }
    List<EndpointInput> inputs = new ArrayList<>(eps.size());
    for (int i = 0; i < eps.size(); i++) {
      Map<?, ?> ep = eps.get(i) instanceof Map<?, ?> m ? m : Map.of();
      inputs.add(
          new EndpointInput(
              source,
              created,
              i,
              text(ep.get("dnsName")),
              text(ep.get("recordType")),
              ep.get("recordTTL") instanceof Number n ? n.longValue() : 0L,
              strings(ep.get("targets")),
              labels(ep.get("labels"))));
    }
    return inputs;
  }

  /** {@code namespace/name}. */
  static String key(GenericKubernetesResource resource) {
    ObjectMeta meta = resource.getMetadata();
    return (meta.getNamespace() == null ? "" : meta.getNamespace()) + "/" + meta.getName();
  }

  private static Instant created(ObjectMeta meta) {
    String text = meta.getCreationTimestamp();
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static String text(Object value) {
    return value instanceof String s ? s : null;
  }

  private static List<String> strings(Object value) {
    if (!(value instanceof List<?> list)) {
      return List.of();
    }
    List<String> out = new ArrayList<>(list.size());
    for (Object o : list) {
      out.add(o instanceof String s ? s : null);
    }
    return out;
  }

  private static Map<String, String> labels(Object value) {
    if (!(value instanceof Map<?, ?> map)) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (e.getKey() instanceof String k && e.getValue() instanceof String v) {
        out.put(k, v);
      }
    }
    return out;
  }
}
