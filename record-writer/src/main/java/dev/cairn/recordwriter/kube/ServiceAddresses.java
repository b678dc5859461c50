package dev.cairn.recordwriter.kube;

import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The load-balancer addresses of one Service (the dns-responder's), watched: every change of its
 * {@code status.loadBalancer.ingress} IPs is passed on, an empty list when the Service is gone or
 * has none. Host names there are not resolved (logged once per value). Thread-safe.
 */
public final class ServiceAddresses {

  private static final Logger log = LoggerFactory.getLogger(ServiceAddresses.class);

  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private volatile SharedIndexInformer<Service> informer;
  private volatile List<String> last;

  /** The Service {@code namespace/name}. */
  public ServiceAddresses(KubernetesClient client, String namespace, String name) {
    this.client = client;
    this.namespace = namespace;
    this.name = name;
  }

  /** {@code namespace/name}. */
  public String service() {
    return namespace + "/" + name;
  }

  /** Starts watching; {@code changed} gets the addresses after the first list and on change. */
  public synchronized void start(Consumer<List<String>> changed) {
    if (informer != null) {
      return;
    }
    informer =
        client
            .services()
            .inNamespace(namespace)
            .withName(name)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(Service s) {
                    publish(addresses(s), changed);
                  }

                  @Override
                  public void onUpdate(Service old, Service s) {
                    publish(addresses(s), changed);
                  }

                  @Override
                  public void onDelete(Service s, boolean finalStateUnknown) {
                    publish(List.of(), changed);
                  }
                },
                0);
  }

  /** True once the Service has been listed (whether it exists or not). */
  public boolean synced() {
    SharedIndexInformer<Service> i = informer;
    return i != null && i.hasSynced();
  }

  /** Stops watching. */
  public synchronized void close() {
    if (informer != null) {
      informer.close();
      informer = null;
    }
  }

  private synchronized void publish(List<String> addresses, Consumer<List<String>> changed) {
    if (addresses.equals(last)) {
      return;
    }
    last = addresses;
    log.atInfo()
        .addKeyValue("service", service())
        .addKeyValue("addresses", addresses)
        .log("name server addresses from Service {}: {}", service(), addresses);
    changed.accept(addresses);
  }

  private List<String> addresses(Service s) {
    List<String> ips = new ArrayList<>();
    if (s.getStatus() == null
        || s.getStatus().getLoadBalancer() == null
        || s.getStatus().getLoadBalancer().getIngress() == null) {
      return ips;
    }
    for (LoadBalancerIngress i : s.getStatus().getLoadBalancer().getIngress()) {
      if (i.getIp() != null && !i.getIp().isBlank()) {
        ips.add(i.getIp());
      } else if (i.getHostname() != null) {
        log.atWarn()
            .addKeyValue("service", service())
            .addKeyValue("hostname", i.getHostname())
            .log(
                "Service {} has a load-balancer host name, which is not resolved; set"
                    + " writer.delegation.addresses instead",
                service());
      }
    }
    return List.copyOf(ips);
  }
}
