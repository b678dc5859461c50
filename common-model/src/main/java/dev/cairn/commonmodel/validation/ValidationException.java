package dev.cairn.commonmodel.validation;

import java.util.List;

/** Thrown by the {@code require*} helpers when a value is invalid; carries the problems found. */
public final class ValidationException extends IllegalArgumentException {

  private final transient List<Problem> problems;

  public ValidationException(List<Problem> problems) {
    super(describe(problems));
    this.problems = List.copyOf(problems);
  }

  public ValidationException(Problem problem) {
    this(List.of(problem));
  }

  public List<Problem> problems() {
    return problems;
  }

  private static String describe(List<Problem> problems) {
    StringBuilder sb = new StringBuilder();
    for (Problem p : problems) {
      if (!sb.isEmpty()) {
        sb.append("; ");
      }
      sb.append(p);
    }
    return sb.toString();
  }
}
