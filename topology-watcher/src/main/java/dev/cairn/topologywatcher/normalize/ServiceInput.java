package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.Copies;
import java.util.List;
import java.util.Objects;

/**
 * The parts of a core Service that normalisation reads.
 *
 * @param meta the metadata
 * @param type {@code spec.type}, {@code null} when absent
 * @param loadBalancer {@code status.loadBalancer.ingress}, in status order
 * @param ports {@code spec.ports}, in spec order
 */
public record ServiceInput(
    Meta meta, String type, List<LoadBalancerIngress> loadBalancer, List<Port> ports) {

  public ServiceInput {
    Objects.requireNonNull(meta, "meta");
    loadBalancer = Copies.list(HttpRouteInput.nullSafe(loadBalancer));
    ports = Copies.list(HttpRouteInput.nullSafe(ports));
  }

  /**
   * One entry of {@code status.loadBalancer.ingress}.
   *
   * @param ip the IP, {@code null} when absent
   * @param hostname the host name, {@code null} when absent
   */
  public record LoadBalancerIngress(String ip, String hostname) {}

  /**
   * One entry of {@code spec.ports}.
   *
   * @param name the name, {@code null} when absent
   * @param protocol the protocol, {@code null} when absent
   * @param port the port number, {@code null} when absent
   */
  public record Port(String name, String protocol, Integer port) {}
}
