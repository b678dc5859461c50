package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.validation.IpLiteral.Family;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code geoip}: the same targets as roundRobin; the geographic choice happens per query in the DNS
 * responder. Every target is tagged with its cluster's geo tag ({@code geo-<tag>-<index>: <ip>},
 * the responder's form) besides {@code strategy: geoip}, so the responder can prefer the client's
 * cluster even when the MaxMind database does not know the target addresses.
 */
record GeoIp() implements Strategy {

  /** The spelling of this strategy. */
  static final String TYPE = "geoip";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Selection select(
      String me, boolean serving, TagTargets local, SortedMap<String, TagTargets> peers) {
    return Strategy.union(me, serving, local, peers);
  }

  @Override
  public Map<String, String> labels(
      SortedMap<String, TagTargets> chosen, Family family, List<String> notes) {
    Map<String, String> labels = new TreeMap<>();
    labels.put(STRATEGY_LABEL, TYPE);
    LabelledTargets labelled = new LabelledTargets();
    for (Map.Entry<String, TagTargets> entry : chosen.entrySet()) {
      List<String> targets = entry.getValue().of(family);
      for (int i = 0; i < targets.size(); i++) {
        String ip = targets.get(i);
        if (!labelled.add(ip)) {
          notes.add(
              "target "
                  + ip
                  + " of geo tag "
                  + entry.getKey()
                  + " is already tagged with another geo tag; the first is kept");
          continue;
        }
        labels.put("geo-" + entry.getKey() + "-" + i, ip);
      }
    }
    return labels;
  }
}
