package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.decision.Explanation.Skipped;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one Gslb evaluation collects on its way: problems (blocking ones stop the decision), the
 * explanation's lines and the inputs read. Mutable; one instance per evaluation. Most evaluations
 * find little, so the collections are created on first use.
 */
final class Findings {

  private Set<Problem> blocking;
  private Set<Problem> notes;
  private List<String> fallbacks;
  private List<Skipped> skipped;
  private List<String> services;

  /** The backend zones of the node-aware placement, sorted; empty without one. */
  List<String> zones = List.of();

  /** The nodes the node-aware placement considered, in order; empty without one. */
  List<String> candidateNodes = List.of();

  /** The key of the route the resourceRef names or selects, {@code null} for none. */
  String route;

  /**
   * {@code <kind>/<namespace>} when the resourceRef selects by labels among those objects, {@code
   * null} otherwise.
   */
  String selection;

  /**
   * The key of the Gateway whose addresses are the local targets ({@code Gateway/<ns>/<name>}),
   * {@code null} otherwise.
   */
  String gateway;

  void block(Problem problem) {
    if (blocking == null) {
      blocking = new LinkedHashSet<>();
    }
    blocking.add(problem);
  }

  void note(Problem problem) {
    if (notes == null) {
      notes = new LinkedHashSet<>();
    }
    notes.add(problem);
  }

  void skip(String input, String reason) {
    if (skipped == null) {
      skipped = new ArrayList<>();
    }
    skipped.add(new Skipped(input, reason));
  }

  void fallback(String line) {
    if (fallbacks == null) {
      fallbacks = new ArrayList<>(1);
    }
    fallbacks.add(line);
  }

  /** Notes a Service read, as {@code Service/<ns>/<name>}. */
  void service(String key) {
    if (services == null) {
      services = new ArrayList<>(2);
    }
    services.add(key);
  }

  /** Notes Services read. */
  void services(Collection<String> keys) {
    for (String key : keys) {
      service(key);
    }
  }

  boolean blocked() {
    return blocking != null;
  }

  /** The problems that stop the decision, in order found, without duplicates. */
  Collection<Problem> blocking() {
    return blocking == null ? Set.of() : blocking;
  }

  /** The problems worked around, in order found, without duplicates. */
  Collection<Problem> notes() {
    return notes == null ? Set.of() : notes;
  }

  List<String> fallbacks() {
    return fallbacks == null ? List.of() : fallbacks;
  }

  List<Skipped> skipped() {
    return skipped == null ? List.of() : skipped;
  }

  /** The Services read, sorted and without duplicates, as an unmodifiable list. */
  List<String> services() {
    return services == null
        ? List.of()
        : TargetLists.sortedDistinct(services.toArray(new String[0]), services.size());
  }
}
