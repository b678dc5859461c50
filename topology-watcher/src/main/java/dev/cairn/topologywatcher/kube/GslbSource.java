package dev.cairn.topologywatcher.kube;

import dev.cairn.topologywatcher.normalize.GslbNormalizer;
import dev.cairn.topologywatcher.state.Entity;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * {@code k8gb.io/v1beta1} Gslbs, read untyped so that a field of an unexpected type becomes a
 * problem on that one object instead of a deserialisation failure of the whole informer.
 */
final class GslbSource extends KindSource<GenericKubernetesResource> {

  static final String GROUP = "k8gb.io";
  static final String VERSION = "v1beta1";
  static final String PLURAL = "gslbs";

  private static final ResourceDefinitionContext CONTEXT =
      new ResourceDefinitionContext.Builder()
          .withGroup(GROUP)
          .withVersion(VERSION)
          .withKind("Gslb")
          .withPlural(PLURAL)
          .withNamespaced(true)
          .build();

  GslbSource() {
    super(Entity.GSLB, GROUP + "/" + VERSION, true);
  }

  @Override
  Class<GenericKubernetesResource> type() {
    return GenericKubernetesResource.class;
  }

  @Override
  Informable<GenericKubernetesResource> informable(
      KubernetesClient client, String namespace, String labelSelector) {
    return scoped(client.genericKubernetesResources(CONTEXT), namespace, labelSelector);
  }

  @Override
  Object digest(GenericKubernetesResource gslb) {
    Object spec =
        gslb.getAdditionalProperties() == null ? null : gslb.getAdditionalProperties().get("spec");
    return GslbNormalizer.normalize(meta(gslb), spec);
  }
}
