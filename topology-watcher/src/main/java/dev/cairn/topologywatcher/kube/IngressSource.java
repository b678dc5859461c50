package dev.cairn.topologywatcher.kube;

import dev.cairn.topologywatcher.normalize.BackendRefInput;
import dev.cairn.topologywatcher.normalize.IngressInput;
import dev.cairn.topologywatcher.normalize.RouteNormalizer;
import dev.cairn.topologywatcher.normalize.ServiceInput;
import dev.cairn.topologywatcher.state.Entity;
import io.fabric8.kubernetes.api.model.TypedLocalObjectReference;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressPath;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBackend;
import io.fabric8.kubernetes.api.model.networking.v1.IngressLoadBalancerIngress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.IngressServiceBackend;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import java.util.ArrayList;
import java.util.List;

/** {@code networking.k8s.io/v1} Ingresses. */
final class IngressSource extends KindSource<Ingress> {

  IngressSource() {
    super(Entity.INGRESS, RouteNormalizer.INGRESS_API_VERSION, true);
  }

  @Override
  Class<Ingress> type() {
    return Ingress.class;
  }

  @Override
  Informable<Ingress> informable(KubernetesClient client, String namespace, String labelSelector) {
    return scoped(client.network().v1().ingresses(), namespace, labelSelector);
  }

  @Override
  Object digest(Ingress ingress) {
    List<IngressInput.Rule> rules = new ArrayList<>();
    if (ingress.getSpec() != null) {
      for (IngressRule rule : orEmpty(ingress.getSpec().getRules())) {
        if (rule == null) {
          continue;
        }
        List<BackendRefInput> backends = new ArrayList<>();
        if (rule.getHttp() != null) {
          for (HTTPIngressPath path : orEmpty(rule.getHttp().getPaths())) {
            backends.add(backend(path == null ? null : path.getBackend()));
          }
        }
        rules.add(new IngressInput.Rule(rule.getHost(), backends));
      }
    }
    List<ServiceInput.LoadBalancerIngress> lb = new ArrayList<>();
    if (ingress.getStatus() != null && ingress.getStatus().getLoadBalancer() != null) {
      for (IngressLoadBalancerIngress i :
          orEmpty(ingress.getStatus().getLoadBalancer().getIngress())) {
        if (i != null) {
          lb.add(new ServiceInput.LoadBalancerIngress(i.getIp(), i.getHostname()));
        }
      }
    }
    return RouteNormalizer.ingress(new IngressInput(meta(ingress), rules, lb));
  }

  private static BackendRefInput backend(IngressBackend backend) {
    if (backend == null) {
      return new BackendRefInput(null, null, null, null, null, null);
    }
    IngressServiceBackend service = backend.getService();
    if (service != null) {
      Integer port = service.getPort() == null ? null : service.getPort().getNumber();
      return BackendRefInput.service(service.getName(), port);
    }
    TypedLocalObjectReference resource = backend.getResource();
    if (resource != null) {
      return new BackendRefInput(
          resource.getApiGroup(), resource.getKind(), null, resource.getName(), null, null);
    }
    return new BackendRefInput(null, null, null, null, null, null);
  }
}
