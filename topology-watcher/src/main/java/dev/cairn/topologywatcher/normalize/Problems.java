package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Collects the problems found while normalising one object, in the order found. */
final class Problems {

  private final List<Problem> found = new ArrayList<>();

  void add(String field, String value, String reason) {
    found.add(new Problem(field, value, reason));
  }

  void add(Problem problem) {
    found.add(problem);
  }

  void add(Optional<Problem> problem) {
    problem.ifPresent(found::add);
  }

  /** Adds the problem if present and tells whether the value was valid. */
  boolean check(Optional<Problem> problem) {
    add(problem);
    return problem.isEmpty();
  }

  List<Problem> list() {
    return List.copyOf(found);
  }
}
