package dev.cairn.topologywatcher.normalize;

import java.util.List;
import java.util.Map;

/** What normalisation reads of Istio's {@code networking.istio.io} objects. */
public final class IstioInput {

  private IstioInput() {}

  /**
   * A VirtualService.
   *
   * @param meta its metadata
   * @param apiVersion the API version it was read with, e.g. {@code networking.istio.io/v1}
   * @param hosts {@code spec.hosts}, as written ({@code null} items kept, reported)
   * @param gateways {@code spec.gateways}, as written
   * @param destinations the {@code route[].destination} of every {@code http}, {@code tls} and
   *     {@code tcp} route, in that order and spec order within each
   */
  public record VirtualService(
      Meta meta,
      String apiVersion,
      List<String> hosts,
      List<String> gateways,
      List<Destination> destinations) {

    public VirtualService {
      hosts = hosts == null ? List.of() : java.util.Collections.unmodifiableList(hosts);
      gateways = gateways == null ? List.of() : java.util.Collections.unmodifiableList(gateways);
      destinations = destinations == null ? List.of() : List.copyOf(destinations);
    }
  }

  /**
   * One route destination.
   *
   * @param field where it is, e.g. {@code spec.http[0].route[1].destination}
   * @param host {@code destination.host}
   * @param port {@code destination.port.number}, {@code null} when absent
   * @param weight the route's {@code weight}, {@code null} when absent
   */
  public record Destination(String field, String host, Integer port, Integer weight) {}

  /**
   * An Istio Gateway.
   *
   * @param meta its metadata
   * @param apiVersion the API version it was read with
   * @param selector {@code spec.selector}, as written ({@code null} when absent)
   */
  public record Gateway(Meta meta, String apiVersion, Map<String, String> selector) {}
}
