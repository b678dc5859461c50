package dev.cairn.commonmodel.topology;

import dev.cairn.commonmodel.Copies;
import java.util.List;

/**
 * One endpoint of an EndpointSlice ({@code discovery.k8s.io/v1}).
 *
 * @param addresses the endpoint addresses as written
 * @param nodeName {@code endpoints[].nodeName}, {@code null} when absent
 * @param zone {@code endpoints[].zone}, {@code null} when absent
 * @param ready {@code conditions.ready}; {@code null} (absent) counts as ready
 * @param serving {@code conditions.serving}, {@code null} when absent
 * @param terminating {@code conditions.terminating}, {@code null} when absent
 */
public record EndpointState(
    List<String> addresses,
    String nodeName,
    String zone,
    Boolean ready,
    Boolean serving,
    Boolean terminating) {

  public EndpointState {
    addresses = Copies.list(addresses);
  }

  /** Kubernetes semantics: an absent ready condition means ready. */
  public boolean isReady() {
    return ready == null || ready;
  }
}
