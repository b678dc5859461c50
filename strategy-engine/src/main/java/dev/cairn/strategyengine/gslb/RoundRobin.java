package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.validation.IpLiteral.Family;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code roundRobin}: the union of every serving cluster's targets, optionally weighted.
 *
 * <p>Weights go on the host record as k8gb's labels, {@code weight-<tag>-<index>-<weight>: <ip>}
 * (k8gb.md §6.2): one per target of a geo tag that has a weight, the index being the target's
 * position in that tag's list of the record's family. Cairn's responder parses them from the right,
 * so tags containing {@code -} ({@code us-east-1}) are weighted too; with {@code
 * responder.weighted-answer=one} it draws an address by weight, otherwise it orders them as k8gb's
 * CoreDNS does. A serving tag without a weight gets no label, as in k8gb, which makes the responder
 * serve the whole set unweighted; the explanation says so.
 *
 * @param weights geo tag to weight (0..1000), empty for plain round robin
 */
record RoundRobin(Map<String, Integer> weights) implements Strategy {

  /** The spelling of this strategy. */
  static final String TYPE = "roundRobin";

  private static final Map<String, String> UNWEIGHTED = Strategy.labelsOf(TYPE);

  RoundRobin {
    weights = Map.copyOf(weights);
  }

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
    if (weights.isEmpty()) {
      return UNWEIGHTED;
    }
    Map<String, String> labels = new TreeMap<>();
    labels.put(STRATEGY_LABEL, TYPE);
    LabelledTargets labelled = new LabelledTargets();
    for (Map.Entry<String, TagTargets> entry : chosen.entrySet()) {
      String tag = entry.getKey();
      List<String> targets = entry.getValue().of(family);
      if (targets.isEmpty()) {
        continue;
      }
      Integer weight = weights.get(tag);
      if (weight == null) {
        notes.add(
            "geo tag "
                + tag
                + " serves "
                + family.recordType()
                + " targets but has no weight in spec.strategy.weight; the responder serves the"
                + " record unweighted while it does");
        continue;
      }
      for (int i = 0; i < targets.size(); i++) {
        String ip = targets.get(i);
        if (!labelled.add(ip)) {
          notes.add(
              "target "
                  + ip
                  + " of geo tag "
                  + tag
                  + " already has a weight label from another geo tag; the first is kept");
          continue;
        }
        labels.put("weight-" + tag + "-" + i + "-" + weight.intValue(), ip);
      }
    }
    return labels;
  }
}
