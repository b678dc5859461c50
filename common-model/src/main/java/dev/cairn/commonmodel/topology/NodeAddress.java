package dev.cairn.commonmodel.topology;

import java.util.Objects;

/**
 * One entry of {@code Node.status.addresses}.
 *
 * @param type {@code ExternalIP}, {@code InternalIP}, {@code ExternalDNS}, {@code InternalDNS} or
 *     {@code Hostname}, as Kubernetes writes it
 * @param address the address as written, trimmed
 */
public record NodeAddress(String type, String address) {

  public NodeAddress {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(address, "address");
  }
}
