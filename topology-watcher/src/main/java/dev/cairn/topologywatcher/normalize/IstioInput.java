package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.validation.Problem;
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
   * @param hosts {@code spec.hosts}, as written ({@code null} items kept, reported unless {@code
   *     readProblems} names them already)
   * @param gateways {@code spec.gateways}, as written, {@code null} items likewise
   * @param destinations the {@code route[].destination} of every {@code http}, {@code tls} and
   *     {@code tcp} route, in that order and spec order within each
   * @param readProblems the fields that could not be read, each naming the field and what was found
   *     there (a string where a list belongs, a number where a host name belongs); an item of
   *     {@code hosts} or {@code gateways} named here is {@code null} in its list
   */
  public record VirtualService(
      Meta meta,
      String apiVersion,
      List<String> hosts,
      List<String> gateways,
      List<Destination> destinations,
      List<Problem> readProblems) {

    public VirtualService {
      hosts = hosts == null ? List.of() : java.util.Collections.unmodifiableList(hosts);
      gateways = gateways == null ? List.of() : java.util.Collections.unmodifiableList(gateways);
      destinations = destinations == null ? List.of() : List.copyOf(destinations);
      readProblems = readProblems == null ? List.of() : List.copyOf(readProblems);
    }

    /** A VirtualService all of whose fields were read. */
    public VirtualService(
        Meta meta,
        String apiVersion,
        List<String> hosts,
        List<String> gateways,
        List<Destination> destinations) {
      this(meta, apiVersion, hosts, gateways, destinations, List.of());
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
  public record Gateway(
      Meta meta, String apiVersion, Map<String, String> selector, List<Problem> readProblems) {

    public Gateway {
      readProblems = readProblems == null ? List.of() : List.copyOf(readProblems);
    }
  }
}
