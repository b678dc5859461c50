package dev.cairn.topologywatcher.kube;

import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.topologywatcher.normalize.BackendRefInput;
import dev.cairn.topologywatcher.normalize.HttpRouteInput;
import dev.cairn.topologywatcher.normalize.RouteNormalizer;
import dev.cairn.topologywatcher.state.Entity;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPBackendRef;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteRule;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteSpec;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ParentReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Gateway API HTTPRoutes, read as {@code v1} or, where only that is served, {@code v1beta1}. */
final class HttpRouteSource<T extends HasMetadata> extends KindSource<T> {

  static final String GROUP = "gateway.networking.k8s.io";
  static final String PLURAL = "httproutes";

  private final Class<T> type;
  private final Function<T, HTTPRouteSpec> spec;

  private HttpRouteSource(String version, Class<T> type, Function<T, HTTPRouteSpec> spec) {
    super(Entity.HTTP_ROUTE, GROUP + "/" + version, true);
    this.type = type;
    this.spec = spec;
  }

  static HttpRouteSource<HTTPRoute> v1() {
    return new HttpRouteSource<>("v1", HTTPRoute.class, HTTPRoute::getSpec);
  }

  static HttpRouteSource<io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.HTTPRoute> v1beta1() {
    return new HttpRouteSource<>(
        "v1beta1",
        io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.HTTPRoute.class,
        io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.HTTPRoute::getSpec);
  }

  @Override
  Class<T> type() {
    return type;
  }

  @Override
  Informable<T> informable(KubernetesClient client, String namespace, String labelSelector) {
    return scoped(client.resources(type), namespace, labelSelector);
  }

  @Override
  Object digest(T route) {
    HTTPRouteSpec s = spec.apply(route);
    List<String> hostnames = s == null ? List.of() : orEmpty(s.getHostnames());
    List<HttpRouteInput.Rule> rules = new ArrayList<>();
    if (s != null) {
      for (HTTPRouteRule rule : orEmpty(s.getRules())) {
        List<BackendRefInput> refs = new ArrayList<>();
        if (rule != null) {
          for (HTTPBackendRef ref : orEmpty(rule.getBackendRefs())) {
            if (ref != null) {
              refs.add(
                  new BackendRefInput(
                      ref.getGroup(),
                      ref.getKind(),
                      ref.getNamespace(),
                      ref.getName(),
                      ref.getPort(),
                      ref.getWeight()));
            }
          }
        }
        rules.add(new HttpRouteInput.Rule(refs));
      }
    }
    List<RouteState.ParentRef> parents = new ArrayList<>();
    if (s != null) {
      for (ParentReference ref : orEmpty(s.getParentRefs())) {
        if (ref != null) {
          parents.add(
              new RouteState.ParentRef(
                  ref.getGroup(),
                  ref.getKind(),
                  ref.getNamespace(),
                  ref.getName(),
                  ref.getSectionName()));
        }
      }
    }
    return RouteNormalizer.httpRoute(
        new HttpRouteInput(meta(route), apiVersion(), hostnames, rules, parents));
  }
}
