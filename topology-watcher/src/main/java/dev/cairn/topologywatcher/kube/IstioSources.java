package dev.cairn.topologywatcher.kube;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.topologywatcher.normalize.IstioGatewayState;
import dev.cairn.topologywatcher.normalize.IstioInput;
import dev.cairn.topologywatcher.normalize.IstioJoin;
import dev.cairn.topologywatcher.normalize.IstioNormalizer;
import dev.cairn.topologywatcher.state.Entity;
import dev.cairn.topologywatcher.state.TopologyView;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Istio's VirtualServices and Gateways ({@code networking.istio.io} {@code v1}, else {@code
 * v1beta1}, else {@code v1alpha3}), read untyped: fabric8 has no Istio model, and the fields read
 * are the same in every version. A field of a VirtualService of another type than Istio's is a
 * problem of its record ({@link CheckedFields}); one of a Gateway is read as absent.
 *
 * <p>An Istio Gateway is held, never published (the internal {@link Entity#ISTIO_GATEWAY}). A
 * VirtualService's record is computed from its own digest joined with the Gateways and Services the
 * view holds ({@link IstioJoin}); {@link KubeWatcher} recomputes the VirtualServices a Gateway or
 * Service change can touch.
 */
final class IstioSources {

  static final String VIRTUAL_SERVICES = "virtualservices";
  static final String GATEWAYS = "gateways";
  private static final List<String> VERSIONS = List.of("v1", "v1beta1", "v1alpha3");

  private IstioSources() {}

  /** The VirtualService sources, in preference order. */
  static List<KindSource<?>> virtualServices(TopologyView view) {
    List<KindSource<?>> sources = new ArrayList<>(VERSIONS.size());
    for (String version : VERSIONS) {
      sources.add(new VirtualServiceSource(version, view));
    }
    return sources;
  }

  /** The Istio Gateway sources, in preference order. */
  static List<KindSource<?>> gateways() {
    List<KindSource<?>> sources = new ArrayList<>(VERSIONS.size());
    for (String version : VERSIONS) {
      sources.add(new GatewaySource(version));
    }
    return sources;
  }

  /** The common part: an untyped namespaced kind of {@code networking.istio.io}. */
  private abstract static class Untyped extends KindSource<GenericKubernetesResource> {
    private final ResourceDefinitionContext context;

    Untyped(Entity entity, String kind, String plural, String version) {
      super(entity, IstioNormalizer.GROUP + "/" + version, true);
      this.context =
          new ResourceDefinitionContext.Builder()
              .withGroup(IstioNormalizer.GROUP)
              .withVersion(version)
              .withKind(kind)
              .withPlural(plural)
              .withNamespaced(true)
              .build();
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
  }

  /** VirtualServices: their hosts, route destinations and gateways, joined on compute. */
  static final class VirtualServiceSource extends Untyped {
    private final TopologyView view;

    VirtualServiceSource(String version, TopologyView view) {
      super(Entity.VIRTUAL_SERVICE, IstioNormalizer.VIRTUAL_SERVICE, VIRTUAL_SERVICES, version);
      this.view = view;
    }

    /**
     * Reads hosts, gateways and route destinations; a field of another type than Istio's (a string
     * where a list belongs, a number where a host belongs) is a problem naming it and what was
     * found, and is left out, as is the destination it belongs to when it is the destination, its
     * route or its host.
     */
    @Override
    Object digest(GenericKubernetesResource vs) {
      CheckedFields read = new CheckedFields();
      Map<?, ?> spec = read.map(rawSpec(vs), "spec");
      if (spec == null) {
        spec = Map.of();
      }
      List<String> hosts = read.strings(spec.get("hosts"), "spec.hosts");
      List<String> gateways = read.strings(spec.get("gateways"), "spec.gateways");
      List<IstioInput.Destination> destinations = new ArrayList<>();
      for (String section : List.of("http", "tls", "tcp")) {
        List<?> routes = read.list(spec.get(section), "spec." + section, "objects");
        for (int r = 0; r < routes.size(); r++) {
          String routeField = "spec." + section + "[" + r + "]";
          Map<?, ?> route = read.map(routes.get(r), routeField);
          if (route == null) {
            continue;
          }
          List<?> targets = read.list(route.get("route"), routeField + ".route", "objects");
          for (int t = 0; t < targets.size(); t++) {
            String targetField = routeField + ".route[" + t + "]";
            Map<?, ?> target = read.map(targets.get(t), targetField);
            if (target == null) {
              continue;
            }
            String field = targetField + ".destination";
            Map<?, ?> destination = read.map(target.get("destination"), field);
            if (destination == null) {
              continue;
            }
            Object rawHost = destination.get("host");
            String host = read.string(rawHost, field + ".host");
            if (rawHost != null && host == null) {
              continue;
            }
            Map<?, ?> port = read.map(destination.get("port"), field + ".port");
            destinations.add(
                new IstioInput.Destination(
                    field,
                    host,
                    port == null ? null : read.integer(port.get("number"), field + ".port.number"),
                    read.integer(target.get("weight"), targetField + ".weight")));
          }
        }
      }
      return IstioNormalizer.virtualService(
          new IstioInput.VirtualService(
              meta(vs), apiVersion(), hosts, gateways, destinations, read.problems()));
    }

    @Override
    Object compute(String key, Lookup lookup) {
      ObjectRef ref = ObjectRef.parse(key);
      Object digest = lookup.digest(ref.namespace(), ref.name());
      if (!(digest instanceof IstioNormalizer.VirtualServiceRecord record)) {
        return digest; // null (gone) or DigestStore.FAILED (keep the last state)
      }
      return IstioJoin.join(
          record,
          gatewayKey -> (IstioGatewayState) view.get(Entity.ISTIO_GATEWAY, gatewayKey),
          services());
    }

    private Iterable<ServiceState> services() {
      List<ServiceState> services = new ArrayList<>();
      for (Object value : view.values(Entity.SERVICE)) {
        if (value instanceof ServiceState s) {
          services.add(s);
        }
      }
      return services;
    }
  }

  /** Istio Gateways: their selector. */
  static final class GatewaySource extends Untyped {
    GatewaySource(String version) {
      super(Entity.ISTIO_GATEWAY, "Gateway", GATEWAYS, version);
    }

    @Override
    Object digest(GenericKubernetesResource gateway) {
      CheckedFields read = new CheckedFields();
      Map<?, ?> spec = read.map(rawSpec(gateway), "spec");
      Map<?, ?> raw = spec == null ? null : read.map(spec.get("selector"), "spec.selector");
      Map<String, String> selector = new LinkedHashMap<>();
      if (raw != null) {
        for (Map.Entry<?, ?> e : raw.entrySet()) {
          String label = String.valueOf(e.getKey());
          selector.put(label, read.string(e.getValue(), "spec.selector[" + label + "]"));
        }
      }
      return IstioNormalizer.gateway(
          new IstioInput.Gateway(meta(gateway), apiVersion(), selector, read.problems()));
    }
  }

  private static Object rawSpec(GenericKubernetesResource object) {
    return object.getAdditionalProperties() == null
        ? null
        : object.getAdditionalProperties().get("spec");
  }
}
