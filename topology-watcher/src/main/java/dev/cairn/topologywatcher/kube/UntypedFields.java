package dev.cairn.topologywatcher.kube;

import java.util.List;
import java.util.Map;

/**
 * Reads fields of an untyped object ({@code GenericKubernetesResource}): a field of another type
 * than expected is read as absent, never as an error.
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
}
