package dev.cairn.healthprober.host;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;

/**
 * The hosts to probe at every peer, each with the split-brain thresholds of the Gslbs that use it,
 * plus what could not be used.
 *
 * @param thresholds host to the distinct thresholds of its Gslbs, ascending; hosts sorted
 * @param findings what was skipped and why
 */
public record HostPlan(Map<String, NavigableSet<Duration>> thresholds, List<Finding> findings) {

  public HostPlan {
    thresholds = Collections.unmodifiableMap(new TreeMap<>(thresholds));
    findings = List.copyOf(findings);
  }

  /** No hosts. */
  public static HostPlan empty() {
    return new HostPlan(Map.of(), List.of());
  }

  /** The hosts, sorted. */
  public Set<String> hosts() {
    return thresholds.keySet();
  }
}
