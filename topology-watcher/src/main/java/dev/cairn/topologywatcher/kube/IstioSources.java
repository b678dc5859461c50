package dev.cairn.topologywatcher.kube;

import static dev.cairn.topologywatcher.kube.UntypedFields.list;
import static dev.cairn.topologywatcher.kube.UntypedFields.map;
import static dev.cairn.topologywatcher.kube.UntypedFields.number;
import static dev.cairn.topologywatcher.kube.UntypedFields.text;

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
 * are the same in every version. A field of another type than Istio's is read as absent.
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

    @Override
    Object digest(GenericKubernetesResource vs) {
      Map<?, ?> spec = spec(vs);
      List<String> hosts = strings(spec.get("hosts"));
      List<String> gateways = strings(spec.get("gateways"));
      List<IstioInput.Destination> destinations = new ArrayList<>();
      for (String section : List.of("http", "tls", "tcp")) {
        List<?> routes = list(spec.get(section));
        for (int r = 0; r < routes.size(); r++) {
          List<?> targets = list(map(routes.get(r)).get("route"));
          for (int t = 0; t < targets.size(); t++) {
            Map<?, ?> target = map(targets.get(t));
            Map<?, ?> destination = map(target.get("destination"));
            destinations.add(
                new IstioInput.Destination(
                    "spec." + section + "[" + r + "].route[" + t + "].destination",
                    text(destination.get("host")),
                    number(map(destination.get("port")).get("number")),
                    number(target.get("weight"))));
          }
        }
      }
      return IstioNormalizer.virtualService(
          new IstioInput.VirtualService(meta(vs), apiVersion(), hosts, gateways, destinations));
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
      Object raw = spec(gateway).get("selector");
      Map<String, String> selector = null;
      if (raw instanceof Map<?, ?> m) {
        selector = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
          selector.put(
              e.getKey() instanceof String k ? k : null,
              e.getValue() instanceof String v ? v : null);
        }
      }
      return IstioNormalizer.gateway(new IstioInput.Gateway(meta(gateway), apiVersion(), selector));
    }
  }

  private static Map<?, ?> spec(GenericKubernetesResource object) {
    return object.getAdditionalProperties() == null
        ? Map.of()
        : map(object.getAdditionalProperties().get("spec"));
  }

  private static List<String> strings(Object value) {
    List<String> out = new ArrayList<>();
    for (Object item : list(value)) {
      out.add(item instanceof String s ? s : null);
    }
    return out;
  }
}
