package dev.cairn.commonmodel.decision;

import dev.cairn.commonmodel.Copies;
import dev.cairn.commonmodel.ObjectRef;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The desired {@code status} of a {@code k8gb.io/v1beta1} Gslb, decided by the strategy-engine and
 * written by the record-writer to the status subresource only when it differs. Published on {@code
 * cairn.decision.gslb-status.v1}, keyed {@code Gslb/<namespace>/<name>}; a tombstone when the Gslb
 * is gone. Field names follow the Gslb CRD's status schema.
 *
 * @param namespace the Gslb namespace
 * @param name the Gslb name
 * @param uid the Gslb uid the status was decided for ({@code null} if unknown); the writer skips a
 *     status whose uid no longer matches the object
 * @param geoTag this cluster's geo tag
 * @param serviceHealth host → {@code Healthy}, {@code Unhealthy} or {@code NotFound}
 * @param healthyRecords host → the final targets of every host record with at least one target
 * @param hosts the hosts, sorted, joined with {@code ", "} as k8gb writes them
 * @param exposedIps the local targets (IPv4 and IPv6), {@code status.loadBalancer.exposedIps}
 * @param servers the hosts and the Services behind each
 * @param problems one line per invalid spec field or input (shown to users beside the status)
 */
public record GslbStatus(
    String namespace,
    String name,
    String uid,
    String geoTag,
    Map<String, String> serviceHealth,
    Map<String, List<String>> healthyRecords,
    String hosts,
    List<String> exposedIps,
    List<Server> servers,
    List<String> problems) {

  public GslbStatus {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    serviceHealth = Copies.sortedMap(serviceHealth);
    healthyRecords = Copies.sortedMap(healthyRecords);
    exposedIps = Copies.list(exposedIps);
    servers = Copies.list(servers);
    problems = Copies.list(problems);
  }

  /** The stable id of the Gslb this status belongs to. */
  public ObjectRef ref() {
    return ObjectRef.of("Gslb", namespace, name);
  }

  /**
   * One host and the Services behind it ({@code status.servers[]}).
   *
   * @param host the host
   * @param services the Services, as {@code namespace/name} references
   */
  public record Server(String host, List<ServiceRef> services) {
    public Server {
      Objects.requireNonNull(host, "host");
      services = Copies.list(services);
    }
  }

  /**
   * A Service reference in {@code status.servers[].services[]}.
   *
   * @param namespace the namespace
   * @param name the name
   */
  public record ServiceRef(String namespace, String name) {
    public ServiceRef {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(name, "name");
    }
  }
}
