package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.Copies;
import java.util.List;
import java.util.Objects;

/**
 * The parts of a {@code discovery.k8s.io/v1} EndpointSlice that normalisation reads.
 *
 * @param name the slice name
 * @param addressType {@code addressType}: {@code IPv4}, {@code IPv6} or {@code FQDN}
 * @param endpoints {@code endpoints}, in slice order
 */
public record EndpointSliceInput(String name, String addressType, List<Endpoint> endpoints) {

  public EndpointSliceInput {
    Objects.requireNonNull(name, "name");
    endpoints = Copies.list(HttpRouteInput.nullSafe(endpoints));
  }

  /**
   * One endpoint of the slice.
   *
   * @param addresses {@code addresses} as written
   * @param nodeName {@code nodeName}, {@code null} when absent
   * @param zone {@code zone}, {@code null} when absent
   * @param ready {@code conditions.ready}, {@code null} when absent
   * @param serving {@code conditions.serving}, {@code null} when absent
   * @param terminating {@code conditions.terminating}, {@code null} when absent
   */
  public record Endpoint(
      List<String> addresses,
      String nodeName,
      String zone,
      Boolean ready,
      Boolean serving,
      Boolean terminating) {
    public Endpoint {
      addresses = Copies.list(HttpRouteInput.nullSafe(addresses));
    }
  }
}
