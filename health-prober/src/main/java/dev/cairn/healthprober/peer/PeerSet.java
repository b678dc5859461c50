package dev.cairn.healthprober.peer;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The peers to probe, by geo tag. Immutable; equal sets compare equal, so a refresh that finds the
 * same peers changes nothing.
 *
 * @param peers the peers keyed by geo tag, sorted
 */
public record PeerSet(Map<String, Peer> peers) {

  public PeerSet {
    TreeMap<String, Peer> copy = new TreeMap<>();
    if (peers != null) {
      peers.forEach(
          (tag, peer) -> {
            if (!tag.equals(peer.geoTag())) {
              throw new IllegalArgumentException("peer " + peer.geoTag() + " keyed as " + tag);
            }
            copy.put(tag, peer);
          });
    }
    peers = Collections.unmodifiableMap(copy);
  }

  /** No peers. */
  public static PeerSet empty() {
    return new PeerSet(Map.of());
  }

  /**
   * The union of peers; servers of the same geo tag are merged and {@code ownGeoTag} is left out (a
   * cluster never probes itself).
   */
  public static PeerSet of(Collection<Peer> peers, String ownGeoTag) {
    TreeMap<String, Peer> byTag = new TreeMap<>();
    for (Peer p : peers) {
      if (p.geoTag().equals(ownGeoTag)) {
        continue;
      }
      byTag.merge(p.geoTag(), p, Peer::union);
    }
    return new PeerSet(byTag);
  }

  /** The geo tags, sorted. */
  public java.util.Set<String> geoTags() {
    return peers.keySet();
  }

  /** The number of peers. */
  public int size() {
    return peers.size();
  }
}
