package dev.cairn.topologywatcher.kube;

import dev.cairn.topologywatcher.normalize.GatewayInput;
import dev.cairn.topologywatcher.normalize.RouteNormalizer;
import dev.cairn.topologywatcher.state.Entity;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.Gateway;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewaySpec;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayStatus;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayStatusAddress;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.Listener;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Gateway API Gateways, read as {@code v1} or, where only that is served, {@code v1beta1}: their
 * listener host names and {@code status.addresses}, which k8gb takes as the local targets of a Gslb
 * on an HTTPRoute.
 *
 * <p>Listed and watched untyped and converted to fabric8's model one object at a time ({@link
 * TypedConversion}), as {@link RouteSource} does routes: a field of the wrong type is a problem of
 * its Gateway, never a failure of the informer.
 *
 * @param <T> the fabric8 type an object is converted to
 */
final class GatewaySource<T> extends KindSource<GenericKubernetesResource> {

  static final String PLURAL = "gateways";

  private final ResourceDefinitionContext context;
  private final Class<T> type;
  private final Function<T, GatewaySpec> spec;
  private final Function<T, GatewayStatus> status;

  private GatewaySource(
      String version,
      Class<T> type,
      Function<T, GatewaySpec> spec,
      Function<T, GatewayStatus> status) {
    super(Entity.GATEWAY, RouteSource.GROUP + "/" + version, true);
    this.context =
        new ResourceDefinitionContext.Builder()
            .withGroup(RouteSource.GROUP)
            .withVersion(version)
            .withKind(Entity.GATEWAY.label())
            .withPlural(PLURAL)
            .withNamespaced(true)
            .build();
    this.type = type;
    this.spec = spec;
    this.status = status;
  }

  static GatewaySource<Gateway> v1() {
    return new GatewaySource<>("v1", Gateway.class, Gateway::getSpec, Gateway::getStatus);
  }

  static GatewaySource<io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.Gateway> v1beta1() {
    return new GatewaySource<>(
        "v1beta1",
        io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.Gateway.class,
        io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.Gateway::getSpec,
        io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.Gateway::getStatus);
  }

  @Override
  Class<GenericKubernetesResource> type() {
    return GenericKubernetesResource.class;
  }

  @Override
  Informable<GenericKubernetesResource> informable(
      KubernetesClient client, String namespace, String labelSelector) {
    return scoped(client.genericKubernetesResources(context), namespace, labelSelector);
  }

  @Override
  Object digest(GenericKubernetesResource object) {
    TypedConversion.Converted<T> typed = TypedConversion.convert(object, type);
    T gateway = typed.object();
    GatewaySpec s = spec.apply(gateway);
    List<GatewayInput.Listener> listeners = new ArrayList<>();
    if (s != null) {
      for (Listener listener : orEmpty(s.getListeners())) {
        listeners.add(new GatewayInput.Listener(listener == null ? null : listener.getHostname()));
      }
    }
    GatewayStatus st = status.apply(gateway);
    List<GatewayInput.Address> addresses = new ArrayList<>();
    if (st != null) {
      for (GatewayStatusAddress address : orEmpty(st.getAddresses())) {
        addresses.add(
            address == null
                ? new GatewayInput.Address(null, null)
                : new GatewayInput.Address(address.getType(), address.getValue()));
      }
    }
    return RouteNormalizer.gateway(
        new GatewayInput(meta(object), apiVersion(), listeners, addresses), typed.problems());
  }
}
