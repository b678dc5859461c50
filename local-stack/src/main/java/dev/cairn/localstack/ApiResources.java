package dev.cairn.localstack;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The resource types the mock Kubernetes APIs serve, by group/version: what discovery lists, and
 * the kind a list of each type is named after ({@code <Kind>List}, as the API server names it).
 */
final class ApiResources {

  /** group/version ({@code v1} for the core group) → resources served. */
  static final Map<String, List<APIResource>> BY_GROUP_VERSION;

  static {
    Map<String, List<APIResource>> resources = new LinkedHashMap<>();
    resources.put(
        "v1",
        List.of(
            resource("nodes", "Node", false, "no"),
            resource("services", "Service", true, "svc"),
            resource("namespaces", "Namespace", false, "ns"),
            resource("configmaps", "ConfigMap", true, "cm"),
            resource("events", "Event", true, "ev")));
    resources.put(
        "discovery.k8s.io/v1", List.of(resource("endpointslices", "EndpointSlice", true)));
    resources.put("networking.k8s.io/v1", List.of(resource("ingresses", "Ingress", true, "ing")));
    resources.put("coordination.k8s.io/v1", List.of(resource("leases", "Lease", true)));
    resources.put("events.k8s.io/v1", List.of(resource("events", "Event", true, "ev")));
    resources.put(
        "gateway.networking.k8s.io/v1",
        List.of(
            resource("httproutes", "HTTPRoute", true),
            resource("grpcroutes", "GRPCRoute", true),
            resource("tlsroutes", "TLSRoute", true),
            resource("tcproutes", "TCPRoute", true),
            resource("udproutes", "UDPRoute", true),
            resource("gateways", "Gateway", true, "gtw")));
    resources.put(
        "networking.istio.io/v1",
        List.of(
            resource("virtualservices", "VirtualService", true, "vs"),
            resource("gateways", "Gateway", true, "gw")));
    resources.put("k8gb.io/v1beta1", List.of(resource("gslbs", "Gslb", true)));
    resources.put(
        "externaldns.k8s.io/v1alpha1", List.of(resource("dnsendpoints", "DNSEndpoint", true)));
    resources.put(
        "apiextensions.k8s.io/v1",
        List.of(
            resource(
                "customresourcedefinitions", "CustomResourceDefinition", false, "crd", "crds")));
    BY_GROUP_VERSION = java.util.Collections.unmodifiableMap(resources);
  }

  private ApiResources() {}

  /**
   * The kind of a served resource type.
   *
   * @param group the API group, empty or null for the core group
   * @param version the version
   * @param plural the resource's plural name
   */
  static Optional<String> kind(String group, String version, String plural) {
    String groupVersion = group == null || group.isEmpty() ? version : group + "/" + version;
    for (APIResource r : BY_GROUP_VERSION.getOrDefault(groupVersion, List.of())) {
      if (r.getName().equals(plural)) {
        return Optional.of(r.getKind());
      }
    }
    return Optional.empty();
  }

  /** A resource type, with the short names the API server gives it ({@code kubectl get svc}). */
  private static APIResource resource(
      String plural, String kind, boolean namespaced, String... shortNames) {
    return new APIResourceBuilder()
        .withName(plural)
        .withKind(kind)
        .withNamespaced(namespaced)
        .withShortNames(shortNames.length == 0 ? null : List.of(shortNames))
        .withSingularName(kind.toLowerCase(Locale.ROOT))
        .withVerbs("get", "list", "watch", "create", "update", "patch", "delete")
        .build();
  }
}
