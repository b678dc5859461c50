package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.Copies;
import java.util.List;
import java.util.Objects;

/**
 * The parts of a Node that normalisation reads. Conditions, heartbeats, images and capacity are
 * deliberately absent: they change all the time and no DNS decision depends on them.
 *
 * @param meta the metadata
 * @param addresses {@code status.addresses}, in API order
 */
public record NodeInput(Meta meta, List<Address> addresses) {

  public NodeInput {
    Objects.requireNonNull(meta, "meta");
    addresses = Copies.list(HttpRouteInput.nullSafe(addresses));
  }

  /**
   * One entry of {@code status.addresses}.
   *
   * @param type the address type, {@code null} when absent
   * @param address the address, {@code null} when absent
   */
  public record Address(String type, String address) {}
}
