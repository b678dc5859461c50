package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.Copies;
import java.util.List;
import java.util.Objects;

/**
 * The parts of a Gateway API Gateway that normalisation reads.
 *
 * @param meta the metadata
 * @param apiVersion the API version the object was read with, e.g. {@code
 *     gateway.networking.k8s.io/v1}
 * @param listeners {@code spec.listeners}, in spec order
 * @param addresses {@code status.addresses}, in status order (the addresses the Gateway is
 *     reachable at: a Gslb's local targets in k8gb's Gateway mode)
 */
public record GatewayInput(
    Meta meta, String apiVersion, List<Listener> listeners, List<Address> addresses) {

  public GatewayInput {
    Objects.requireNonNull(meta, "meta");
    Objects.requireNonNull(apiVersion, "apiVersion");
    listeners = Copies.list(HttpRouteInput.nullSafe(listeners));
    addresses = Copies.list(HttpRouteInput.nullSafe(addresses));
  }

  /**
   * One listener.
   *
   * @param hostname {@code hostname} as written, {@code null} when absent (the listener matches
   *     every host)
   */
  public record Listener(String hostname) {}

  /**
   * One {@code status.addresses} entry.
   *
   * @param type {@code type} as written: {@code IPAddress} (the default when absent), {@code
   *     Hostname}, or an implementation-specific type
   * @param value {@code value} as written
   */
  public record Address(String type, String value) {}
}
