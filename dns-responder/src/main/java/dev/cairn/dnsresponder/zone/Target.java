package dev.cairn.dnsresponder.zone;

import java.net.InetAddress;
import java.util.Objects;

/**
 * One value of a record set.
 *
 * @param value the canonical text: an address literal, a host name without trailing dot, or TXT
 *     text
 * @param address the address for A and AAAA targets, otherwise {@code null}
 * @param tag the target's geo tag from the endpoint labels ({@code geo-<tag>-<i>} or {@code
 *     weight-<tag>-<i>-<w>}), or {@code null}
 * @param weight the weight from a {@code weight-<tag>-<i>-<w>} label, or {@link #NO_WEIGHT}
 */
public record Target(String value, InetAddress address, String tag, int weight) {

  /** The weight of a target that no weight label names. */
  public static final int NO_WEIGHT = -1;

  public Target {
    Objects.requireNonNull(value, "value");
    if (weight < NO_WEIGHT) {
      throw new IllegalArgumentException("weight " + weight + " is negative");
    }
  }

  /** A target without tag or weight. */
  public static Target of(String value, InetAddress address) {
    return new Target(value, address, null, NO_WEIGHT);
  }

  /** True when a weight label names this target. */
  public boolean weighted() {
    return weight != NO_WEIGHT;
  }
}
