package dev.cairn.topologywatcher.kube;

import java.util.List;
import java.util.Map;

/**
 * Reads fields of an untyped object ({@code GenericKubernetesResource}): a field of another type
 * than expected is read as absent, never as an error. {@link CheckedFields} reads the same way and
 * also reports such a field as a problem.
 */
final class UntypedFields {

  private UntypedFields() {}

  static Map<?, ?> map(Object value) {
    return value instanceof Map<?, ?> m ? m : Map.of();
  }

  static List<?> list(Object value) {
    return value instanceof List<?> l ? l : List.of();
  }

  static String text(Object value) {
    return value instanceof String s ? s : null;
  }

  static Integer number(Object value) {
    return value instanceof Number n ? n.intValue() : null;
  }

  /**
   * What a value of an untyped object is, for problems: "a string", "a number", "a boolean", "a
   * list", "an object" or "null".
   */
  static String typeOf(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String) {
      return "a string";
    }
    if (value instanceof Number) {
      return "a number";
    }
    if (value instanceof Boolean) {
      return "a boolean";
    }
    if (value instanceof List<?>) {
      return "a list";
    }
    if (value instanceof Map<?, ?>) {
      return "an object";
    }
    return "a " + value.getClass().getSimpleName();
  }
}
