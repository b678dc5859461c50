package dev.cairn.healthprober.peer;

import dev.cairn.commonmodel.validation.GeoTags;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * One peer cluster: its geo tag and the DNS servers that answer for it (every glue address, not
 * only one). Servers are sorted and distinct.
 *
 * @param geoTag the peer's geo tag (letters, digits and {@code -}, as k8gb allows)
 * @param servers the peer's DNS servers, never empty
 */
public record Peer(String geoTag, List<ServerAddress> servers) {

  public Peer {
    Objects.requireNonNull(geoTag, "geoTag");
    if (!isValidGeoTag(geoTag)) {
      throw new IllegalArgumentException(
          "geo tag '" + geoTag + "' may hold only letters, digits and '-' (1 to 63)");
    }
    if (servers == null || servers.isEmpty()) {
      throw new IllegalArgumentException("peer '" + geoTag + "' has no servers");
    }
    servers = List.copyOf(new TreeSet<>(servers));
  }

  /** True when the text is a usable geo tag. */
  public static boolean isValidGeoTag(String tag) {
    return GeoTags.isValid(tag);
  }

  /** This peer with the servers of both. */
  public Peer union(Peer other) {
    if (!geoTag.equals(other.geoTag)) {
      throw new IllegalArgumentException("cannot merge peers " + geoTag + " and " + other.geoTag);
    }
    TreeSet<ServerAddress> all = new TreeSet<>(servers);
    all.addAll(other.servers);
    return new Peer(geoTag, List.copyOf(all));
  }
}
