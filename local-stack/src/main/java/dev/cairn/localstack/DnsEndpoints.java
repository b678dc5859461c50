package dev.cairn.localstack;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Access to {@code externaldns.k8s.io/v1alpha1} DNSEndpoints, and a one-line rendering of them. */
final class DnsEndpoints {

  static final ResourceDefinitionContext CONTEXT =
      new ResourceDefinitionContext.Builder()
          .withGroup("externaldns.k8s.io")
          .withVersion("v1alpha1")
          .withKind("DNSEndpoint")
          .withPlural("dnsendpoints")
          .withNamespaced(true)
          .build();

  private DnsEndpoints() {}

  static MixedOperation<
          GenericKubernetesResource,
          io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      of(KubernetesClient client) {
    return client.genericKubernetesResources(CONTEXT);
  }

  /** The spec endpoints as {@code name type [targets] ttl N} items. */
  @SuppressWarnings("unchecked")
  static List<String> describeEndpoints(GenericKubernetesResource r) {
    List<String> out = new ArrayList<>();
    Object spec = r.getAdditionalProperties().get("spec");
    if (!(spec instanceof Map<?, ?> specMap)) {
      return out;
    }
    Object endpoints = specMap.get("endpoints");
    if (!(endpoints instanceof List<?> list)) {
      return out;
    }
    for (Object e : list) {
      if (e instanceof Map<?, ?> ep) {
        out.add(
            ep.get("dnsName")
                + " "
                + ep.get("recordType")
                + " "
                + ep.get("targets")
                + " ttl "
                + ep.get("recordTTL"));
      }
    }
    return out;
  }

  /** The targets of the endpoint with the given name and type, empty when absent. */
  @SuppressWarnings("unchecked")
  static List<String> targets(GenericKubernetesResource r, String dnsName, String type) {
    if (r == null) {
      return List.of();
    }
    Object spec = r.getAdditionalProperties().get("spec");
    if (spec instanceof Map<?, ?> specMap && specMap.get("endpoints") instanceof List<?> list) {
      for (Object e : list) {
        if (e instanceof Map<?, ?> ep
            && dnsName.equals(ep.get("dnsName"))
            && type.equals(ep.get("recordType"))
            && ep.get("targets") instanceof List<?> targets) {
          return (List<String>) targets;
        }
      }
    }
    return List.of();
  }
}
