package dev.cairn.topologywatcher.kube;

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
 * API's (which the API server's schema does not let through, but a CRD without one does) is read as
 * absent and is a problem of the route that names it ({@link CheckedFields}).
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
    CheckedFields fields = new CheckedFields();
    Map<?, ?> spec =
        route.getAdditionalProperties() == null
            ? Map.of()
            : fields.map(route.getAdditionalProperties().get("spec"), "spec");
    if (spec == null) {
      spec = Map.of();
    }
    List<String> hostnames = fields.strings(spec.get("hostnames"), "spec.hostnames");
    List<HttpRouteInput.Rule> rules = new ArrayList<>();
    List<?> ruleItems = fields.list(spec.get("rules"), "spec.rules", "objects");
    for (int i = 0; i < ruleItems.size(); i++) {
      String ruleField = "spec.rules[" + i + "]";
      Map<?, ?> rule = fields.map(ruleItems.get(i), ruleField);
      if (rule == null) {
        rules.add(null);
        continue;
      }
      List<BackendRefInput> refs = new ArrayList<>();
      List<?> refItems =
          fields.list(rule.get("backendRefs"), ruleField + ".backendRefs", "objects");
      for (int j = 0; j < refItems.size(); j++) {
        String field = ruleField + ".backendRefs[" + j + "]";
        Map<?, ?> r = fields.map(refItems.get(j), field);
        refs.add(
            r == null
                ? null
                : new BackendRefInput(
                    fields.string(r.get("group"), field + ".group"),
                    fields.string(r.get("kind"), field + ".kind"),
                    fields.string(r.get("namespace"), field + ".namespace"),
                    fields.string(r.get("name"), field + ".name"),
                    fields.integer(r.get("port"), field + ".port"),
                    fields.integer(r.get("weight"), field + ".weight")));
      }
      rules.add(new HttpRouteInput.Rule(refs));
    }
    List<RouteState.ParentRef> parents = new ArrayList<>();
    List<?> parentItems = fields.list(spec.get("parentRefs"), "spec.parentRefs", "objects");
    for (int i = 0; i < parentItems.size(); i++) {
      String field = "spec.parentRefs[" + i + "]";
      Map<?, ?> p = fields.map(parentItems.get(i), field);
      parents.add(
          p == null
              ? null
              : new RouteState.ParentRef(
                  fields.string(p.get("group"), field + ".group"),
                  fields.string(p.get("kind"), field + ".kind"),
                  fields.string(p.get("namespace"), field + ".namespace"),
                  fields.string(p.get("name"), field + ".name"),
                  fields.string(p.get("sectionName"), field + ".sectionName")));
    }
    return RouteNormalizer.gatewayRoute(
        entity().label(),
        new HttpRouteInput(meta(route), apiVersion(), hostnames, rules, parents),
        fields.problems());
  }
}
