package dev.cairn.healthprober.host;

import dev.cairn.commonmodel.validation.Problem;
import java.util.Objects;

/**
 * Why part of an object could not be turned into something to probe or resolve: the object's key
 * and the problem, which names the field and value.
 *
 * @param object the key of the object, e.g. {@code Gslb/default/app}
 * @param problem what is wrong or not supported
 */
public record Finding(String object, Problem problem) {

  public Finding {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(problem, "problem");
  }

  @Override
  public String toString() {
    return object + " " + problem;
  }
}
