package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.topology.ServicePort;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.util.ArrayList;
import java.util.List;

/**
 * Service to {@link ServiceState}: type (Kubernetes default {@code ClusterIP}), load-balancer IPs
 * and host names in status order, ports (protocol default {@code TCP}), relevant annotations.
 */
public final class ServiceNormalizer {

  private ServiceNormalizer() {}

  /**
   * The IPs and host names of a {@code status.loadBalancer.ingress} list (a Service's or an
   * Ingress's), in status order; an entry that is not a strict IP literal or a valid host name is a
   * problem and left out.
   */
  static void loadBalancer(
      List<ServiceInput.LoadBalancerIngress> entries,
      List<String> ips,
      List<String> hostnames,
      Problems problems) {
    for (int i = 0; i < entries.size(); i++) {
      ServiceInput.LoadBalancerIngress ingress = entries.get(i);
      String field = "status.loadBalancer.ingress[" + i + "]";
      if (ingress.ip() != null) {
        if (IpLiteral.parse(ingress.ip()).isPresent()) {
          ips.add(ingress.ip());
        } else {
          problems.add(field + ".ip", ingress.ip(), "not a strict IPv4 or IPv6 address literal");
        }
      }
      if (ingress.hostname() != null
          && problems.check(Hostnames.check(field + ".hostname", ingress.hostname()))) {
        hostnames.add(ingress.hostname());
      }
    }
  }

  /** Normalises a Service. */
  public static ServiceState normalize(ServiceInput input) {
    Problems problems = new Problems();
    List<String> ips = new ArrayList<>();
    List<String> hostnames = new ArrayList<>();
    loadBalancer(input.loadBalancer(), ips, hostnames, problems);
    List<ServicePort> ports = new ArrayList<>();
    for (int i = 0; i < input.ports().size(); i++) {
      ServiceInput.Port port = input.ports().get(i);
      String field = "spec.ports[" + i + "].port";
      if (port.port() == null || port.port() < 1 || port.port() > 65535) {
        problems.add(
            field,
            port.port() == null ? null : port.port().toString(),
            "port must be a number from 1 to 65535; the port is left out");
        continue;
      }
      String protocol =
          port.protocol() == null || port.protocol().isEmpty() ? "TCP" : port.protocol();
      ports.add(new ServicePort(port.name(), protocol, port.port()));
    }
    String type = input.type() == null || input.type().isEmpty() ? "ClusterIP" : input.type();
    Meta meta = input.meta();
    return new ServiceState(
        meta.namespace(),
        meta.name(),
        meta.uid(),
        type,
        ips,
        hostnames,
        ports,
        AnnotationRules.ROUTE.relevant(meta.annotations(), problems),
        problems.list(),
        meta.labels());
  }
}
