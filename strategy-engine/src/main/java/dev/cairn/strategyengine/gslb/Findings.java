package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.decision.Explanation.Skipped;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.TreeSet;

/**
 * What one Gslb evaluation collects on its way: problems (blocking ones stop the decision), the
 * explanation's lines and the inputs read. Mutable; one instance per evaluation.
 */
final class Findings {

  final LinkedHashSet<Problem> blocking = new LinkedHashSet<>();
  final LinkedHashSet<Problem> notes = new LinkedHashSet<>();
  final List<String> fallbacks = new ArrayList<>();
  final List<Skipped> skipped = new ArrayList<>();
  final TreeSet<String> services = new TreeSet<>();
  final List<String> zones = new ArrayList<>();
  final List<String> candidateNodes = new ArrayList<>();
  String route;

  void block(Problem problem) {
    blocking.add(problem);
  }

  void note(Problem problem) {
    notes.add(problem);
  }

  void skip(String input, String reason) {
    skipped.add(new Skipped(input, reason));
  }

  boolean blocked() {
    return !blocking.isEmpty();
  }
}
