package dev.cairn.topologywatcher.kube;

import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.topologywatcher.normalize.BackendRefInput;
import dev.cairn.topologywatcher.normalize.HttpRouteInput;
import dev.cairn.topologywatcher.normalize.RouteNormalizer;
import dev.cairn.topologywatcher.state.Entity;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRouteRule;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRouteSpec;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteRule;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteSpec;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ParentReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The Gateway API routes of the standard channel: HTTPRoutes, read as {@code v1} or, where only
 * that is served, {@code v1beta1}; GRPCRoutes, as {@code v1} or {@code v1alpha2}. Both have the
 * same parts for DNS (host names, each rule's backendRefs, parentRefs). The experimental channel's
 * routes are read untyped ({@link UntypedRouteSource}).
 *
 * <p>Listed and watched untyped and converted to fabric8's model one object at a time ({@link
 * TypedConversion}): a CRD without a schema lets a route with a field of the wrong type through,
 * which a typed informer could not read, and would then see no route of the kind at all. Such a
 * field is a problem of its route and read as absent.
 *
 * @param <T> the fabric8 type an object is converted to
 */
final class RouteSource<T> extends KindSource<GenericKubernetesResource> {

  static final String GROUP = "gateway.networking.k8s.io";
  static final String HTTP_ROUTES = "httproutes";
  static final String GRPC_ROUTES = "grpcroutes";

  /** What DNS needs of a route's spec, with the fabric8 types left behind. */
  private record Parts(
      List<String> hostnames, List<HttpRouteInput.Rule> rules, List<RouteState.ParentRef> parents) {

    /**
     * The parts of a route spec, from its host names, its rules with their backendRefs, and its
     * parentRefs; a {@code null} item (one that could not be read) stays in place, so that the
     * others keep their index.
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
            refs.add(ref == null ? null : input.apply(ref));
          }
        }
        read.add(new HttpRouteInput.Rule(refs));
      }
      List<RouteState.ParentRef> parents = new ArrayList<>();
      for (ParentReference ref : orEmpty(parentRefs)) {
        parents.add(
            ref == null
                ? null
                : new RouteState.ParentRef(
                    ref.getGroup(),
                    ref.getKind(),
                    ref.getNamespace(),
                    ref.getName(),
                    ref.getSectionName()));
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

  private final ResourceDefinitionContext context;
  private final Class<T> type;
  private final Function<T, Parts> parts;

  private RouteSource(
      Entity entity, String plural, String version, Class<T> type, Function<T, Parts> parts) {
    super(entity, GROUP + "/" + version, true);
    this.context =
        new ResourceDefinitionContext.Builder()
            .withGroup(GROUP)
            .withVersion(version)
            .withKind(entity.label())
            .withPlural(plural)
            .withNamespaced(true)
            .build();
    this.type = type;
    this.parts = parts;
  }

  static RouteSource<HTTPRoute> httpV1() {
    return new RouteSource<>(
        Entity.HTTP_ROUTE, HTTP_ROUTES, "v1", HTTPRoute.class, r -> Parts.of(r.getSpec()));
  }

  static RouteSource<io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.HTTPRoute> httpV1beta1() {
    return new RouteSource<>(
        Entity.HTTP_ROUTE,
        HTTP_ROUTES,
        "v1beta1",
        io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.HTTPRoute.class,
        r -> Parts.of(r.getSpec()));
  }

  static RouteSource<GRPCRoute> grpcV1() {
    return new RouteSource<>(
        Entity.GRPC_ROUTE, GRPC_ROUTES, "v1", GRPCRoute.class, r -> Parts.of(r.getSpec()));
  }

  static RouteSource<io.fabric8.kubernetes.api.model.gatewayapi.v1alpha2.GRPCRoute> grpcV1alpha2() {
    return new RouteSource<>(
        Entity.GRPC_ROUTE,
        GRPC_ROUTES,
        "v1alpha2",
        io.fabric8.kubernetes.api.model.gatewayapi.v1alpha2.GRPCRoute.class,
        r -> Parts.of(r.getSpec()));
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
  Object digest(GenericKubernetesResource route) {
    TypedConversion.Converted<T> typed = TypedConversion.convert(route, type);
    Parts p = parts.apply(typed.object());
    HttpRouteInput input =
        new HttpRouteInput(meta(route), apiVersion(), p.hostnames(), p.rules(), p.parents());
    return RouteNormalizer.gatewayRoute(entity().label(), input, typed.problems());
  }
}
