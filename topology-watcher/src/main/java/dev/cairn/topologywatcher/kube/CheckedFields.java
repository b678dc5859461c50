package dev.cairn.topologywatcher.kube;

import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the fields of one untyped object ({@code GenericKubernetesResource}) as {@link
 * UntypedFields} does, a field of another type than expected read as absent, but also reports each
 * such field as a problem naming it (a list item with its index, {@code spec.hosts[2]}), the value
 * and what was found: "expected a list of strings, found a string".
 */
final class CheckedFields {

  private final List<Problem> problems = new ArrayList<>();

  /** The problems found so far, in the order found. */
  List<Problem> problems() {
    return List.copyOf(problems);
  }

  /**
   * An object: empty when absent, {@code null} when of another type (reported), so that the caller
   * can leave out what it belongs to.
   */
  Map<?, ?> map(Object value, String field) {
    if (value == null) {
      return Map.of();
    }
    if (value instanceof Map<?, ?> m) {
      return m;
    }
    wrong(field, value, "an object");
    return null;
  }

  /**
   * A list: empty when absent or of another type (reported).
   *
   * @param items what its items are, for the problem: "objects", "strings"
   */
  List<?> list(Object value, String field, String items) {
    if (value == null) {
      return List.of();
    }
    if (value instanceof List<?> l) {
      return l;
    }
    wrong(field, value, "a list of " + items);
    return List.of();
  }

  /** A string: {@code null} when absent or of another type (reported). */
  String string(Object value, String field) {
    if (value == null || value instanceof String) {
      return (String) value;
    }
    wrong(field, value, "a string");
    return null;
  }

  /** A whole number: {@code null} when absent or of another type (reported). */
  Integer integer(Object value, String field) {
    if (value == null) {
      return null;
    }
    if (value instanceof Number n
        && n.doubleValue() == Math.rint(n.doubleValue())
        && Math.abs(n.doubleValue()) <= Integer.MAX_VALUE) {
      return n.intValue();
    }
    wrong(field, value, "an integer");
    return null;
  }

  /**
   * A list of strings, item for item: an item that is not a string ({@code null} too) is reported
   * as {@code field[i]} and is {@code null} in the list, so that the other items keep their index.
   */
  List<String> strings(Object value, String field) {
    List<?> items = list(value, field, "strings");
    List<String> out = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      Object item = items.get(i);
      if (item instanceof String s) {
        out.add(s);
      } else {
        wrong(field + "[" + i + "]", item, "a string");
        out.add(null);
      }
    }
    return out;
  }

  private void wrong(String field, Object value, String expected) {
    problems.add(
        new Problem(
            field,
            value == null ? null : String.valueOf(value),
            "expected " + expected + ", found " + UntypedFields.typeOf(value)));
  }
}
