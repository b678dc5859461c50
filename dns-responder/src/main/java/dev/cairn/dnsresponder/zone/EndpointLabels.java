package dev.cairn.dnsresponder.zone;

import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The routing labels of one endpoint, parsed.
 *
 * <ul>
 *   <li>{@code strategy: geoip} (any case) asks for geo routing; other strategies ({@code
 *       roundRobin}, {@code failover}) are decided upstream and need nothing here.
 *   <li>{@code weight-<tag>-<index>-<weight>: <ip>} is k8gb's weight label. It is parsed from the
 *       right, so tags may contain {@code -} ({@code weight-us-east-1-0-80}: tag {@code us-east-1},
 *       index 0, weight 80). It also tags the address with {@code <tag>}.
 *   <li>{@code geo-<tag>-<index>: <ip>} tags an address without weighting it.
 * </ul>
 *
 * @param geoip whether {@code strategy} is {@code geoip}
 * @param weights address (canonical text) to weight
 * @param tags address (canonical text) to geo tag; {@code geo-} labels win over {@code weight-}
 * @param problems malformed labels, each ignored
 */
public record EndpointLabels(
    boolean geoip, Map<String, Integer> weights, Map<String, String> tags, List<Problem> problems) {

  static final String STRATEGY = "strategy";
  static final String WEIGHT_PREFIX = "weight-";
  static final String GEO_PREFIX = "geo-";

  public EndpointLabels {
    weights = Map.copyOf(weights);
    tags = Map.copyOf(tags);
    problems = List.copyOf(problems);
  }

  /**
   * Parses the labels of an endpoint.
   *
   * @param path the endpoint's field path, used in problems ({@code spec.endpoints[0]})
   * @param labels the labels, key-sorted
   */
  public static EndpointLabels parse(String path, Map<String, String> labels) {
    boolean geoip = false;
    Map<String, Integer> weights = new HashMap<>();
    Map<String, String> weightTags = new HashMap<>();
    Map<String, String> geoTags = new HashMap<>();
    Map<String, Integer> tagWeights = new HashMap<>();
    List<Problem> problems = new ArrayList<>();
    for (Map.Entry<String, String> label : labels.entrySet()) {
      String key = label.getKey();
      String field = path + ".labels[" + key + "]";
      if (key.equals(STRATEGY)) {
        geoip = label.getValue() != null && label.getValue().strip().equalsIgnoreCase("geoip");
      } else if (key.startsWith(WEIGHT_PREFIX)) {
        parseWeight(field, key, label.getValue(), weights, weightTags, tagWeights, problems);
      } else if (key.startsWith(GEO_PREFIX)) {
        parseGeo(field, key, label.getValue(), geoTags, problems);
      }
    }
    Map<String, String> tags = new HashMap<>(weightTags);
    tags.putAll(geoTags);
    return new EndpointLabels(geoip, weights, tags, problems);
  }

  private static void parseWeight(
      String field,
      String key,
      String value,
      Map<String, Integer> weights,
      Map<String, String> tags,
      Map<String, Integer> tagWeights,
      List<Problem> problems) {
    String rest = key.substring(WEIGHT_PREFIX.length());
    int lastDash = rest.lastIndexOf('-');
    int indexDash = lastDash > 0 ? rest.lastIndexOf('-', lastDash - 1) : -1;
    if (indexDash <= 0) {
      problems.add(
          new Problem(field, value, "a weight label is weight-<tag>-<index>-<weight>: <address>"));
      return;
    }
    String tag = rest.substring(0, indexDash);
    Integer index = parseNumber(rest.substring(indexDash + 1, lastDash));
    Integer weight = parseNumber(rest.substring(lastDash + 1));
    if (index == null || weight == null) {
      problems.add(
          new Problem(
              field, value, "the index and weight of a weight label are non-negative integers"));
      return;
    }
    String address = canonicalAddress(field, value, problems);
    if (address == null) {
      return;
    }
    Integer tagWeight = tagWeights.putIfAbsent(tag, weight);
    if (tagWeight != null && !tagWeight.equals(weight)) {
      problems.add(
          new Problem(
              field,
              value,
              "tag '" + tag + "' already has weight " + tagWeight + "; that weight is used"));
      weight = tagWeight;
    }
    if (weights.putIfAbsent(address, weight) != null) {
      problems.add(new Problem(field, value, "the address has more than one weight label"));
      return;
    }
    tags.put(address, tag);
  }

  private static void parseGeo(
      String field, String key, String value, Map<String, String> tags, List<Problem> problems) {
    String rest = key.substring(GEO_PREFIX.length());
    int lastDash = rest.lastIndexOf('-');
    if (lastDash <= 0 || parseNumber(rest.substring(lastDash + 1)) == null) {
      problems.add(new Problem(field, value, "a geo label is geo-<tag>-<index>: <address>"));
      return;
    }
    String address = canonicalAddress(field, value, problems);
    if (address == null) {
      return;
    }
    if (tags.putIfAbsent(address, rest.substring(0, lastDash)) != null) {
      problems.add(new Problem(field, value, "the address has more than one geo label"));
    }
  }

  private static String canonicalAddress(String field, String value, List<Problem> problems) {
    return IpLiteral.parse(value == null ? null : value.strip())
        .map(IpLiteral::text)
        .orElseGet(
            () -> {
              problems.add(new Problem(field, value, "the label value is not an IP address"));
              return null;
            });
  }

  private static Integer parseNumber(String text) {
    if (text.isEmpty() || text.length() > 9) {
      return null;
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return null;
      }
    }
    return Integer.parseInt(text);
  }
}
