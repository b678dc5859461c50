package dev.cairn.healthprober.resolution;

import dev.cairn.healthprober.host.Finding;
import java.util.Collections;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The hostnames to resolve, and what could not be used.
 *
 * @param keys the (resolver, hostname) pairs, sorted
 * @param findings what was skipped and why
 */
public record ResolutionPlan(NavigableSet<ResolutionKey> keys, List<Finding> findings) {

  public ResolutionPlan {
    keys = Collections.unmodifiableNavigableSet(new TreeSet<>(keys));
    findings = List.copyOf(findings);
  }

  /** Nothing to resolve. */
  public static ResolutionPlan empty() {
    return new ResolutionPlan(new TreeSet<>(), List.of());
  }
}
