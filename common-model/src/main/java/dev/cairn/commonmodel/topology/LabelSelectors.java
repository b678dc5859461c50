package dev.cairn.commonmodel.topology;

import dev.cairn.commonmodel.topology.GslbResourceRef.LabelSelectorRequirement;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A Gslb resourceRef's label selector ({@code matchLabels} and {@code matchExpressions}), with
 * Kubernetes' meaning (k8gb.md §3.1): every {@code matchLabels} pair and every expression must
 * hold. {@code In} needs the label with one of the values, {@code NotIn} its absence or another
 * value, {@code Exists} and {@code DoesNotExist} its presence or absence. Pure: used by the
 * topology-watcher to check a Gslb, and by the health-prober and the strategy-engine to find the
 * object a Gslb selects among the published ones.
 */
public final class LabelSelectors {

  /** The operators of a {@code matchExpressions} entry. */
  public static final Set<String> OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");

  private LabelSelectors() {}

  /** True when the resourceRef selects by labels: it has no name and a non-empty selector. */
  public static boolean selectsByLabels(GslbResourceRef ref) {
    return ref != null
        && (ref.name() == null || ref.name().isBlank())
        && (!ref.matchLabels().isEmpty() || !ref.matchExpressions().isEmpty());
  }

  /**
   * The problems of one {@code matchExpressions} entry, as Kubernetes' {@code
   * LabelSelectorAsSelector} reports them: a key, a known operator, values for {@code In} and
   * {@code NotIn} and none for {@code Exists} and {@code DoesNotExist}.
   *
   * @param field the entry's field, e.g. {@code spec.resourceRef.matchExpressions[0]}
   */
  public static List<Problem> check(
      String field, String key, String operator, List<String> values) {
    List<Problem> problems = new ArrayList<>(1);
    if (key == null || key.isBlank()) {
      problems.add(new Problem(field + ".key", key, "is required"));
    }
    if (operator == null || !OPERATORS.contains(operator)) {
      problems.add(
          new Problem(
              field + ".operator",
              operator,
              "is not a label selector operator; expected In, NotIn, Exists or DoesNotExist"));
      return problems;
    }
    boolean needsValues = operator.equals("In") || operator.equals("NotIn");
    if (needsValues && (values == null || values.isEmpty())) {
      problems.add(
          new Problem(
              field + ".values",
              String.valueOf(values),
              "must be set when operator is " + operator));
    } else if (!needsValues && values != null && !values.isEmpty()) {
      problems.add(
          new Problem(
              field + ".values",
              String.valueOf(values),
              "must be empty when operator is " + operator));
    }
    return problems;
  }

  /** Whether an object with these labels is selected by the resourceRef's selector. */
  public static boolean matches(GslbResourceRef ref, Map<String, String> labels) {
    for (Map.Entry<String, String> wanted : ref.matchLabels().entrySet()) {
      if (!wanted.getValue().equals(labels.get(wanted.getKey()))) {
        return false;
      }
    }
    for (LabelSelectorRequirement e : ref.matchExpressions()) {
      if (!matches(e, labels)) {
        return false;
      }
    }
    return true;
  }

  private static boolean matches(LabelSelectorRequirement e, Map<String, String> labels) {
    String value = labels.get(e.key());
    return switch (e.operator()) {
      case "In" -> value != null && e.values().contains(value);
      case "NotIn" -> value == null || !e.values().contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      // An unknown operator is a problem on the Gslb already; it selects nothing here.
      default -> false;
    };
  }

  /**
   * The candidates the resourceRef selects, sorted by name.
   *
   * @param labels a candidate's labels
   * @param name a candidate's name, for the order
   */
  public static <T> List<T> select(
      GslbResourceRef ref,
      Collection<T> candidates,
      Function<T, Map<String, String>> labels,
      Function<T, String> name) {
    List<T> selected = new ArrayList<>(1);
    for (T candidate : candidates) {
      if (matches(ref, labels.apply(candidate))) {
        selected.add(candidate);
      }
    }
    selected.sort((a, b) -> name.apply(a).compareTo(name.apply(b)));
    return selected;
  }

  /** The selector as text, e.g. {@code app=web, tier In [a, b], canary DoesNotExist}. */
  public static String describe(GslbResourceRef ref) {
    List<String> parts = new ArrayList<>();
    ref.matchLabels().forEach((k, v) -> parts.add(k + "=" + v));
    for (LabelSelectorRequirement e : ref.matchExpressions()) {
      parts.add(
          e.key()
              + " "
              + e.operator()
              + (e.values().isEmpty() ? "" : " [" + String.join(", ", e.values()) + "]"));
    }
    return String.join(", ", parts);
  }
}
