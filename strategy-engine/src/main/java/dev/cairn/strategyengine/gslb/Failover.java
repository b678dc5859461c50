package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.validation.IpLiteral.Family;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code failover}: traffic goes to the primary cluster ({@code primaryGeoTag}) while it serves the
 * host, else to every serving secondary. Each cluster decides from its own view:
 *
 * <ul>
 *   <li>the primary, serving: its own targets, peers ignored;
 *   <li>the primary, not serving: every serving secondary (nothing if none);
 *   <li>a secondary that sees the primary serve: the primary's targets only, whatever its own
 *       health;
 *   <li>a secondary that does not see the primary serve: its own targets (if serving) plus every
 *       other serving secondary's.
 * </ul>
 *
 * A secondary stops seeing the primary when the primary answers NXDOMAIN or NODATA, or when it has
 * been unreachable for longer than the split-brain threshold; a shorter outage keeps the primary's
 * last answer (see {@link PeerJudgement}), which removes k8gb's premature failover.
 *
 * @param primary the primary's geo tag
 */
record Failover(String primary) implements Strategy {

  /** The spelling of this strategy. */
  static final String TYPE = "failover";

  Failover {
    Objects.requireNonNull(primary, "primary");
  }

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Selection select(
      String me, boolean serving, TagTargets local, SortedMap<String, TagTargets> peers) {
    SortedMap<String, TagTargets> chosen = new TreeMap<>();
    if (primary.equals(me)) {
      if (serving) {
        chosen.put(me, local);
        return new Selection(Branch.PRIMARY_SERVING, chosen);
      }
      if (peers.isEmpty()) {
        return new Selection(Branch.PRIMARY_DOWN_NO_PEERS, chosen);
      }
      chosen.putAll(peers);
      return new Selection(Branch.PRIMARY_FAILED_OVER, chosen);
    }
    TagTargets primaryTargets = peers.get(primary);
    if (primaryTargets != null) {
      chosen.put(primary, primaryTargets);
      return new Selection(Branch.SECONDARY_FOLLOWS_PRIMARY, chosen);
    }
    chosen.putAll(peers);
    if (serving) {
      chosen.putIfAbsent(me, local); // a peer's entry under this cluster's tag wins
    }
    return new Selection(
        peers.isEmpty() ? Branch.SECONDARY_NO_PEERS : Branch.SECONDARY_PRIMARY_ABSENT, chosen);
  }

  @Override
  public Map<String, String> labels(
      SortedMap<String, TagTargets> chosen, Family family, List<String> notes) {
    return LABELS;
  }

  private static final Map<String, String> LABELS = Strategy.labelsOf(TYPE);
}
