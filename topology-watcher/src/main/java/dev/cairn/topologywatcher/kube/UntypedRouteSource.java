package dev.cairn.topologywatcher.kube;

import static dev.cairn.topologywatcher.kube.UntypedFields.list;
import static dev.cairn.topologywatcher.kube.UntypedFields.map;
import static dev.cairn.topologywatcher.kube.UntypedFields.number;
import static dev.cairn.topologywatcher.kube.UntypedFields.text;

import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.topologywatcher.normalize.BackendRefInput;
import dev.cairn.topologywatcher.normalize.HttpRouteInput;
import dev.cairn.topologywatcher.normalize.RouteNormalizer;
import dev.cairn.topologywatcher.state.Entity;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Gateway API routes of the experimental channel, TLSRoute, TCPRoute and UDPRoute, read untyped
 * in whichever version is served: their versions differ from release to release, and the parts DNS
 * needs are the same in all of them ({@code spec.hostnames}, none for TCP and UDP routes; {@code
 * spec.rules[].backendRefs[]}; {@code spec.parentRefs[]}). A field of another type than the Gateway
 * API's (which the API server's schema does not let through) is read as absent.
 */
final class UntypedRouteSource extends KindSource<GenericKubernetesResource> {

  static final String TLS_ROUTES = "tlsroutes";
  static final String TCP_ROUTES = "tcproutes";
  static final String UDP_ROUTES = "udproutes";

  private final ResourceDefinitionContext context;

  private UntypedRouteSource(Entity entity, String plural, String version) {
    super(entity, RouteSource.GROUP + "/" + version, true);
    this.context =
        new ResourceDefinitionContext.Builder()
            .withGroup(RouteSource.GROUP)
            .withVersion(version)
            .withKind(entity.label())
            .withPlural(plural)
            .withNamespaced(true)
            .build();
  }

  /** TLSRoutes, as {@code v1}, {@code v1alpha3} or {@code v1alpha2}, the first one served. */
  static List<KindSource<?>> tls() {
    return versions(Entity.TLS_ROUTE, TLS_ROUTES, "v1", "v1alpha3", "v1alpha2");
  }

  /** TCPRoutes, as {@code v1} or {@code v1alpha2}. */
  static List<KindSource<?>> tcp() {
    return versions(Entity.TCP_ROUTE, TCP_ROUTES, "v1", "v1alpha2");
  }

  /** UDPRoutes, as {@code v1} or {@code v1alpha2}. */
  static List<KindSource<?>> udp() {
    return versions(Entity.UDP_ROUTE, UDP_ROUTES, "v1", "v1alpha2");
  }

  private static List<KindSource<?>> versions(Entity entity, String plural, String... versions) {
    List<KindSource<?>> sources = new ArrayList<>(versions.length);
    for (String version : versions) {
      sources.add(new UntypedRouteSource(entity, plural, version));
    }
    return sources;
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
    Map<?, ?> spec =
        route.getAdditionalProperties() == null
            ? Map.of()
            : map(route.getAdditionalProperties().get("spec"));
    List<String> hostnames = new ArrayList<>();
    for (Object host : list(spec.get("hostnames"))) {
      if (host instanceof String s) {
        hostnames.add(s);
      }
    }
    List<HttpRouteInput.Rule> rules = new ArrayList<>();
    for (Object rule : list(spec.get("rules"))) {
      List<BackendRefInput> refs = new ArrayList<>();
      for (Object ref : list(map(rule).get("backendRefs"))) {
        Map<?, ?> r = map(ref);
        refs.add(
            new BackendRefInput(
                text(r.get("group")),
                text(r.get("kind")),
                text(r.get("namespace")),
                text(r.get("name")),
                number(r.get("port")),
                number(r.get("weight"))));
      }
      rules.add(new HttpRouteInput.Rule(refs));
    }
    List<RouteState.ParentRef> parents = new ArrayList<>();
    for (Object parent : list(spec.get("parentRefs"))) {
      Map<?, ?> p = map(parent);
      parents.add(
          new RouteState.ParentRef(
              text(p.get("group")),
              text(p.get("kind")),
              text(p.get("namespace")),
              text(p.get("name")),
              text(p.get("sectionName"))));
    }
    return RouteNormalizer.gatewayRoute(
        entity().label(), new HttpRouteInput(meta(route), apiVersion(), hostnames, rules, parents));
  }
}
