package dev.cairn.recordwriter.kube;

import dev.cairn.recordwriter.plan.ControllerRef;
import dev.cairn.recordwriter.plan.CurrentRecord;
import dev.cairn.recordwriter.plan.DesiredRecord;
import dev.cairn.recordwriter.plan.Endpoint;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Ownership;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Translates between DNSEndpoint objects ({@code externaldns.k8s.io/v1alpha1}, as fabric8 generic
 * resources) and the plan's records. Reading is lenient, since anyone may have edited the object;
 * writing produces exactly the fields of the CRD schema.
 */
public final class DnsEndpointMapper {

  /** The apiVersion of DNSEndpoint. */
  public static final String API_VERSION = "externaldns.k8s.io/v1alpha1";

  /** The kind of DNSEndpoint. */
  public static final String KIND = "DNSEndpoint";

  private final KubernetesSerialization serialization;

  /** A mapper that copies objects with the client's serialization. */
  public DnsEndpointMapper(KubernetesSerialization serialization) {
    this.serialization = serialization;
  }

  /** The key of an object. */
  public static ObjectKey keyOf(GenericKubernetesResource r) {
    return ObjectKey.of(r.getMetadata().getNamespace(), r.getMetadata().getName());
  }

  /** The plan's view of an object read from the API. */
  public CurrentRecord toCurrent(GenericKubernetesResource r) {
    ObjectMeta m = r.getMetadata();
    ControllerRef controller = null;
    if (m.getOwnerReferences() != null) {
      for (OwnerReference o : m.getOwnerReferences()) {
        if (Boolean.TRUE.equals(o.getController())
            && o.getApiVersion() != null
            && o.getKind() != null
            && o.getName() != null
            && o.getUid() != null) {
          controller = new ControllerRef(o.getApiVersion(), o.getKind(), o.getName(), o.getUid());
        }
      }
    }
    return new CurrentRecord(
        keyOf(r),
        m.getResourceVersion(),
        m.getLabels(),
        m.getAnnotations(),
        controller,
        readEndpoints(r));
  }

  /** The object to create for a desired record. */
  public GenericKubernetesResource toNew(DesiredRecord d) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion(API_VERSION);
    r.setKind(KIND);
    ObjectMeta m = new ObjectMeta();
    m.setNamespace(d.key().namespace());
    m.setName(d.key().name());
    r.setMetadata(m);
    applyMetadata(m, d);
    r.setAdditionalProperty("spec", spec(d.endpoints()));
    return r;
  }

  /**
   * The object to send to turn {@code base} (as read) into the desired record: labels replaced,
   * Cairn's annotations set or removed and other annotations kept, the controller reference set,
   * the spec replaced only when its normalised endpoints differ, the resourceVersion kept so the
   * update is conditional on it, status untouched.
   */
  public GenericKubernetesResource toUpdated(GenericKubernetesResource base, DesiredRecord d) {
    // A copy that leaves base (the cache's object) untouched: the metadata copied by its builder
    // (its maps, lists and nested objects are new), the top-level fields shallowly, since the only
    // one changed below, the spec, is replaced and never modified in place. (A JSON round trip of
    // the whole object took about a quarter of the CPU of a write in a 10k failover.)
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion(base.getApiVersion());
    r.setKind(base.getKind());
    r.setMetadata(
        base.getMetadata() == null
            ? new ObjectMeta()
            : new ObjectMetaBuilder(base.getMetadata()).build());
    base.getAdditionalProperties().forEach(r::setAdditionalProperty);
    applyMetadata(r.getMetadata(), d);
    if (!readEndpoints(base).equals(d.endpoints())) {
      @SuppressWarnings("unchecked")
      Map<String, Object> spec =
          r.getAdditionalProperties().get("spec") instanceof Map<?, ?> s
              ? new LinkedHashMap<>((Map<String, Object>) s)
              : new LinkedHashMap<>();
      spec.put("endpoints", endpointList(d.endpoints()));
      r.setAdditionalProperty("spec", spec);
    }
    return r;
  }

  /** The JSON form of an object (maps and lists). */
  @SuppressWarnings("unchecked")
  public Map<String, Object> toJsonMap(GenericKubernetesResource r) {
    return serialization.convertValue(r, Map.class);
  }

  /**
   * The JSON form of an object for the CRD schema check ({@link CrdSchema#validate}): every
   * top-level field as {@link #toJsonMap} gives it, but {@code metadata} as an empty object, since
   * the check leaves metadata to the API server. Converting the typed metadata was most of the
   * conversion, itself about a fifth of a write's CPU in a 10k failover.
   */
  @SuppressWarnings("unchecked")
  public Map<String, Object> toSchemaInput(GenericKubernetesResource r) {
    Map<String, Object> json = new LinkedHashMap<>();
    if (r.getApiVersion() != null) {
      json.put("apiVersion", r.getApiVersion());
    }
    if (r.getKind() != null) {
      json.put("kind", r.getKind());
    }
    if (r.getMetadata() != null) {
      json.put("metadata", new LinkedHashMap<>());
    }
    json.putAll(serialization.convertValue(r.getAdditionalProperties(), Map.class));
    return json;
  }

  private static void applyMetadata(ObjectMeta m, DesiredRecord d) {
    m.setLabels(new TreeMap<>(d.labels()));
    Map<String, String> annotations =
        m.getAnnotations() == null ? new TreeMap<>() : new TreeMap<>(m.getAnnotations());
    annotations.put(Ownership.SOURCE_ANNOTATION, d.source());
    if (d.staleSince() == null) {
      annotations.remove(Ownership.STALE_SINCE_ANNOTATION);
    } else {
      annotations.put(Ownership.STALE_SINCE_ANNOTATION, d.staleSince());
    }
    m.setAnnotations(annotations);
    List<OwnerReference> refs = new ArrayList<>();
    if (m.getOwnerReferences() != null) {
      for (OwnerReference o : m.getOwnerReferences()) {
        if (!Boolean.TRUE.equals(o.getController())) {
          refs.add(o);
        }
      }
    }
    if (d.controller() != null) {
      ControllerRef c = d.controller();
      refs.add(
          new OwnerReferenceBuilder()
              .withApiVersion(c.apiVersion())
              .withKind(c.kind())
              .withName(c.name())
              .withUid(c.uid())
              .withController(true)
              .withBlockOwnerDeletion(true)
              .build());
    }
    m.setOwnerReferences(refs.isEmpty() ? null : refs);
  }

  private static Map<String, Object> spec(List<Endpoint> endpoints) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("endpoints", endpointList(endpoints));
    return spec;
  }

  private static List<Object> endpointList(List<Endpoint> endpoints) {
    List<Object> list = new ArrayList<>(endpoints.size());
    for (Endpoint e : endpoints) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("dnsName", e.dnsName());
      m.put("recordType", e.recordType());
      if (e.ttlSeconds() > 0) {
        m.put("recordTTL", e.ttlSeconds());
      }
      m.put("targets", new ArrayList<>(e.targets()));
      if (!e.labels().isEmpty()) {
        m.put("labels", new LinkedHashMap<>(e.labels()));
      }
      if (e.setIdentifier() != null) {
        m.put("setIdentifier", e.setIdentifier());
      }
      if (!e.providerSpecific().isEmpty()) {
        List<Object> ps = new ArrayList<>();
        e.providerSpecific()
            .forEach(
                (name, value) -> {
                  Map<String, Object> p = new LinkedHashMap<>();
                  p.put("name", name);
                  p.put("value", value);
                  ps.add(p);
                });
        m.put("providerSpecific", ps);
      }
      list.add(m);
    }
    return list;
  }

  private static List<Endpoint> readEndpoints(GenericKubernetesResource r) {
    Object spec = r.getAdditionalProperties().get("spec");
    if (!(spec instanceof Map<?, ?> specMap)
        || !(specMap.get("endpoints") instanceof List<?> raw)) {
      return List.of();
    }
    List<Endpoint> out = new ArrayList<>(raw.size());
    for (Object o : raw) {
      if (!(o instanceof Map<?, ?> e)) {
        continue;
      }
      out.add(
          new Endpoint(
              text(e.get("dnsName")),
              text(e.get("recordType")),
              e.get("recordTTL") instanceof Number n ? n.longValue() : 0,
              strings(e.get("targets")),
              stringMap(e.get("labels")),
              e.get("setIdentifier") == null ? null : text(e.get("setIdentifier")),
              providerSpecific(e.get("providerSpecific"))));
    }
    return Endpoint.sorted(out);
  }

  private static String text(Object o) {
    return o == null ? "" : String.valueOf(o);
  }

  private static List<String> strings(Object o) {
    if (!(o instanceof List<?> list)) {
      return List.of();
    }
    List<String> out = new ArrayList<>(list.size());
    for (Object t : list) {
      if (t != null) {
        out.add(String.valueOf(t));
      }
    }
    return out;
  }

  private static Map<String, String> stringMap(Object o) {
    if (!(o instanceof Map<?, ?> map)) {
      return Map.of();
    }
    Map<String, String> out = new TreeMap<>();
    map.forEach((k, v) -> out.put(String.valueOf(k), v == null ? "" : String.valueOf(v)));
    return out;
  }

  private static Map<String, String> providerSpecific(Object o) {
    if (!(o instanceof List<?> list)) {
      return Map.of();
    }
    Map<String, String> out = new TreeMap<>();
    for (Object p : list) {
      if (p instanceof Map<?, ?> m && m.get("name") != null) {
        out.put(String.valueOf(m.get("name")), m.get("value") == null ? "" : text(m.get("value")));
      }
    }
    return out;
  }
}
