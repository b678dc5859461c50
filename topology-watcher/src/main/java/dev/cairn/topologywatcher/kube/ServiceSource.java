package dev.cairn.topologywatcher.kube;

import dev.cairn.topologywatcher.normalize.ServiceInput;
import dev.cairn.topologywatcher.normalize.ServiceNormalizer;
import dev.cairn.topologywatcher.state.Entity;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import java.util.ArrayList;
import java.util.List;

/** Core Services. */
final class ServiceSource extends KindSource<Service> {

  ServiceSource() {
    super(Entity.SERVICE, "v1", true);
  }

  @Override
  Class<Service> type() {
    return Service.class;
  }

  @Override
  Informable<Service> informable(KubernetesClient client, String namespace, String labelSelector) {
    return scoped(client.services(), namespace, labelSelector);
  }

  @Override
  Object digest(Service service) {
    List<ServiceInput.LoadBalancerIngress> lb = new ArrayList<>();
    if (service.getStatus() != null && service.getStatus().getLoadBalancer() != null) {
      for (LoadBalancerIngress i : orEmpty(service.getStatus().getLoadBalancer().getIngress())) {
        if (i != null) {
          lb.add(new ServiceInput.LoadBalancerIngress(i.getIp(), i.getHostname()));
        }
      }
    }
    List<ServiceInput.Port> ports = new ArrayList<>();
    String type = null;
    if (service.getSpec() != null) {
      type = service.getSpec().getType();
      for (ServicePort p : orEmpty(service.getSpec().getPorts())) {
        if (p != null) {
          ports.add(new ServiceInput.Port(p.getName(), p.getProtocol(), p.getPort()));
        }
      }
    }
    return ServiceNormalizer.normalize(new ServiceInput(meta(service), type, lb, ports));
  }
}
