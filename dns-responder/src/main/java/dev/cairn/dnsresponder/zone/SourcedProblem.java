package dev.cairn.dnsresponder.zone;

import dev.cairn.commonmodel.validation.Problem;
import java.util.Objects;

/**
 * A problem found while building a snapshot, with the object it was found in.
 *
 * @param source the object, {@code namespace/name}, or {@code config} for configured zone data
 * @param problem what is wrong, with the field path inside the object
 */
public record SourcedProblem(String source, Problem problem) {

  public SourcedProblem {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(problem, "problem");
  }

  @Override
  public String toString() {
    return source + ": " + problem;
  }
}
