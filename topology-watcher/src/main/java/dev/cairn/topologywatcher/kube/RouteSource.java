package dev.cairn.topologywatcher.kube;

import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.topologywatcher.normalize.BackendRefInput;
import dev.cairn.topologywatcher.normalize.HttpRouteInput;
import dev.cairn.topologywatcher.normalize.RouteNormalizer;
import dev.cairn.topologywatcher.state.Entity;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRouteRule;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRouteSpec;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteRule;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteSpec;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ParentReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The Gateway API routes of the standard channel: HTTPRoutes, read as {@code v1} or, where only
 * that is served, {@code v1beta1}; GRPCRoutes, as {@code v1} or {@code v1alpha2}. Both have the
 * same parts for DNS (host names, each rule's backendRefs, parentRefs). The experimental channel's
 * routes are read untyped ({@link UntypedRouteSource}).
 *
 * @param <T> the fabric8 type
 */
final class RouteSource<T extends HasMetadata> extends KindSource<T> {

  static final String GROUP = "gateway.networking.k8s.io";
  static final String HTTP_ROUTES = "httproutes";
  static final String GRPC_ROUTES = "grpcroutes";

  /** What DNS needs of a route's spec, with the fabric8 types left behind. */
  private record Parts(
      List<String> hostnames, List<HttpRouteInput.Rule> rules, List<RouteState.ParentRef> parents) {

    /**
     * The parts of a route spec, from its host names, its rules with their backendRefs, and its
     * parentRefs.
     */
    static <R, B> Parts of(
        List<String> hostnames,
        List<R> rules,
        Function<R, List<B>> backendRefs,
        Function<B, BackendRefInput> input,
        List<ParentReference> parentRefs) {
      List<HttpRouteInput.Rule> read = new ArrayList<>();
      for (R rule : orEmpty(rules)) {
        List<BackendRefInput> refs = new ArrayList<>();
        if (rule != null) {
          for (B ref : orEmpty(backendRefs.apply(rule))) {
            if (ref != null) {
              refs.add(input.apply(ref));
            }
          }
        }
        read.add(new HttpRouteInput.Rule(refs));
      }
      List<RouteState.ParentRef> parents = new ArrayList<>();
      for (ParentReference ref : orEmpty(parentRefs)) {
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
      return new Parts(orEmpty(hostnames), read, parents);
    }

    static Parts of(HTTPRouteSpec s) {
      return s == null
          ? NONE
          : of(
              s.getHostnames(),
              s.getRules(),
              HTTPRouteRule::getBackendRefs,
              r ->
                  new BackendRefInput(
                      r.getGroup(),
                      r.getKind(),
                      r.getNamespace(),
                      r.getName(),
                      r.getPort(),
                      r.getWeight()),
              s.getParentRefs());
    }

    static Parts of(GRPCRouteSpec s) {
      return s == null
          ? NONE
          : of(
              s.getHostnames(),
              s.getRules(),
              GRPCRouteRule::getBackendRefs,
              r ->
                  new BackendRefInput(
                      r.getGroup(),
                      r.getKind(),
                      r.getNamespace(),
                      r.getName(),
                      r.getPort(),
                      r.getWeight()),
              s.getParentRefs());
    }

    static final Parts NONE = new Parts(List.of(), List.of(), List.of());
  }

  private final Class<T> type;
  private final Function<T, Parts> parts;

  private RouteSource(Entity entity, String version, Class<T> type, Function<T, Parts> parts) {
    super(entity, GROUP + "/" + version, true);
    this.type = type;
    this.parts = parts;
  }

  static RouteSource<HTTPRoute> httpV1() {
    return new RouteSource<>(Entity.HTTP_ROUTE, "v1", HTTPRoute.class, r -> Parts.of(r.getSpec()));
  }

  static RouteSource<io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.HTTPRoute> httpV1beta1() {
    return new RouteSource<>(
        Entity.HTTP_ROUTE,
        "v1beta1",
        io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.HTTPRoute.class,
        r -> Parts.of(r.getSpec()));
  }

  static RouteSource<GRPCRoute> grpcV1() {
    return new RouteSource<>(Entity.GRPC_ROUTE, "v1", GRPCRoute.class, r -> Parts.of(r.getSpec()));
  }

  static RouteSource<io.fabric8.kubernetes.api.model.gatewayapi.v1alpha2.GRPCRoute> grpcV1alpha2() {
    return new RouteSource<>(
        Entity.GRPC_ROUTE,
        "v1alpha2",
        io.fabric8.kubernetes.api.model.gatewayapi.v1alpha2.GRPCRoute.class,
        r -> Parts.of(r.getSpec()));
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
    Parts p = parts.apply(route);
    HttpRouteInput input =
        new HttpRouteInput(meta(route), apiVersion(), p.hostnames(), p.rules(), p.parents());
    return RouteNormalizer.gatewayRoute(entity().label(), input);
  }
}
