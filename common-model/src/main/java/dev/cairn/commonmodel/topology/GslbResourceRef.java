package dev.cairn.commonmodel.topology;

import dev.cairn.commonmodel.Copies;
import java.util.List;
import java.util.Map;

/**
 * {@code Gslb.spec.resourceRef}: an object reference plus an optional label selector.
 *
 * @param apiVersion e.g. {@code networking.k8s.io/v1} or {@code gateway.networking.k8s.io/v1}
 * @param kind {@code Ingress}, {@code Service} or {@code HTTPRoute}
 * @param namespace the namespace; {@code null} means the Gslb's
 * @param name the name; {@code null} when a selector is used
 * @param matchLabels the selector's {@code matchLabels}
 * @param matchExpressions the selector's {@code matchExpressions}
 */
public record GslbResourceRef(
    String apiVersion,
    String kind,
    String namespace,
    String name,
    Map<String, String> matchLabels,
    List<LabelSelectorRequirement> matchExpressions) {

  public GslbResourceRef {
    matchLabels = Copies.sortedMap(matchLabels);
    matchExpressions = Copies.list(matchExpressions);
  }

  /**
   * One {@code matchExpressions} entry.
   *
   * @param key the label key
   * @param operator {@code In}, {@code NotIn}, {@code Exists} or {@code DoesNotExist}
   * @param values the values for {@code In} and {@code NotIn}
   */
  public record LabelSelectorRequirement(String key, String operator, List<String> values) {
    public LabelSelectorRequirement {
      values = Copies.list(values);
    }
  }
}
