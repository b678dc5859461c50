package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.topology.LabelSelectors;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A {@code k8gb.io/v1beta1} Gslb to {@link GslbState}. The spec arrives untyped (a JSON tree of
 * maps, lists, strings, numbers and booleans), so a field of the wrong type is a problem here, not
 * a failure of the informer.
 *
 * <p>The strategy is kept as written (defaults such as TTL 0 meaning 30 are the engine's); what
 * k8gb would reject (an unknown type, weights on a non-roundRobin strategy, a weight outside
 * 0..1000, a geo tag with other characters) is named in {@code problems}.
 */
public final class GslbNormalizer {

  private static final Pattern GEO_TAG = Pattern.compile("[a-zA-Z\\-\\d]+");
  private static final Set<String> TYPES = Set.of("roundRobin", "failover", "geoip");

  private GslbNormalizer() {}

  /**
   * Normalises a Gslb.
   *
   * @param meta the metadata (namespace required)
   * @param spec the {@code spec} tree, {@code null} when absent
   */
  public static GslbState normalize(Meta meta, Object spec) {
    Problems problems = new Problems();
    Map<String, Object> s = map(spec, "spec", problems);
    GslbResourceRef ref = resourceRef(s.get("resourceRef"), problems);
    List<GslbState.IngressRule> rules = ingressRules(s.get("ingress"), problems);
    if (ref == null && rules.isEmpty()) {
      problems.add(
          "spec",
          null,
          "neither spec.resourceRef nor spec.ingress.rules is set; nothing to balance");
    }
    GslbStrategy strategy = strategy(s.get("strategy"), problems);
    String policy = string(s.get("serviceHealthPolicy"), "spec.serviceHealthPolicy", problems);
    if (policy != null && !"Any".equals(policy) && !"All".equals(policy)) {
      problems.add("spec.serviceHealthPolicy", policy, "not Any or All; k8gb treats it as Any");
    }
    return new GslbState(
        meta.namespace(),
        meta.name(),
        meta.uid(),
        ref,
        rules,
        strategy,
        policy,
        AnnotationRules.GSLB.relevant(meta.annotations(), problems),
        problems.list());
  }

  private static GslbResourceRef resourceRef(Object raw, Problems problems) {
    if (raw == null) {
      return null;
    }
    String field = "spec.resourceRef";
    Map<String, Object> ref = map(raw, field, problems);
    Map<String, String> matchLabels = new TreeMap<>();
    map(ref.get("matchLabels"), field + ".matchLabels", problems)
        .forEach(
            (k, v) -> {
              String value = string(v, field + ".matchLabels[" + k + "]", problems);
              if (value != null) {
                matchLabels.put(k, value);
              }
            });
    List<GslbResourceRef.LabelSelectorRequirement> expressions = new ArrayList<>();
    List<Object> rawExpressions =
        list(ref.get("matchExpressions"), field + ".matchExpressions", problems);
    for (int i = 0; i < rawExpressions.size(); i++) {
      String f = field + ".matchExpressions[" + i + "]";
      Map<String, Object> e = map(rawExpressions.get(i), f, problems);
      String key = string(e.get("key"), f + ".key", problems);
      String operator = string(e.get("operator"), f + ".operator", problems);
      List<String> values = strings(e.get("values"), f + ".values", problems);
      List<Problem> wrong = LabelSelectors.check(f, key, operator, values);
      if (!wrong.isEmpty()) {
        // Left out of the selector, and the problem on spec.resourceRef blocks the Gslb: a
        // selector without one of its terms would select more than the user asked for.
        for (Problem p : wrong) {
          problems.add(p);
        }
        continue;
      }
      expressions.add(new GslbResourceRef.LabelSelectorRequirement(key, operator, values));
    }
    String name = string(ref.get("name"), field + ".name", problems);
    if ((name == null || name.isEmpty()) && matchLabels.isEmpty() && expressions.isEmpty()) {
      problems.add(field, null, "names neither an object nor a label selector");
    }
    return new GslbResourceRef(
        string(ref.get("apiVersion"), field + ".apiVersion", problems),
        string(ref.get("kind"), field + ".kind", problems),
        string(ref.get("namespace"), field + ".namespace", problems),
        name,
        matchLabels,
        expressions);
  }

  private static List<GslbState.IngressRule> ingressRules(Object raw, Problems problems) {
    List<GslbState.IngressRule> rules = new ArrayList<>();
    if (raw == null) {
      return rules;
    }
    Map<String, Object> ingress = map(raw, "spec.ingress", problems);
    List<Object> rawRules = list(ingress.get("rules"), "spec.ingress.rules", problems);
    for (int r = 0; r < rawRules.size(); r++) {
      String f = "spec.ingress.rules[" + r + "]";
      Map<String, Object> rule = map(rawRules.get(r), f, problems);
      String host = string(rule.get("host"), f + ".host", problems);
      if (host == null || host.isEmpty()) {
        problems.add(f + ".host", host, "rule has no host; it is left out");
        continue;
      }
      if (!problems.check(Hostnames.checkPattern(f + ".host", host))) {
        continue;
      }
      List<BackendRef> backends = new ArrayList<>();
      Map<String, Object> http = map(rule.get("http"), f + ".http", problems);
      List<Object> paths = list(http.get("paths"), f + ".http.paths", problems);
      for (int p = 0; p < paths.size(); p++) {
        String pf = f + ".http.paths[" + p + "].backend";
        Map<String, Object> path = map(paths.get(p), f + ".http.paths[" + p + "]", problems);
        Map<String, Object> backend = map(path.get("backend"), pf, problems);
        BackendRef ref = backend(backend, pf, problems);
        if (ref != null) {
          backends.add(ref);
        }
      }
      rules.add(new GslbState.IngressRule(host, backends));
    }
    return rules;
  }

  private static BackendRef backend(Map<String, Object> backend, String field, Problems problems) {
    if (backend.get("service") != null) {
      Map<String, Object> service = map(backend.get("service"), field + ".service", problems);
      String name = string(service.get("name"), field + ".service.name", problems);
      if (name == null || name.isEmpty()) {
        problems.add(field + ".service.name", name, "backend has no name; it is left out");
        return null;
      }
      Map<String, Object> port = map(service.get("port"), field + ".service.port", problems);
      Integer number = integer(port.get("number"), field + ".service.port.number", problems);
      return new BackendRef(null, null, null, name, number, null);
    }
    if (backend.get("resource") != null) {
      Map<String, Object> resource = map(backend.get("resource"), field + ".resource", problems);
      String name = string(resource.get("name"), field + ".resource.name", problems);
      if (name == null || name.isEmpty()) {
        problems.add(field + ".resource.name", name, "backend has no name; it is left out");
        return null;
      }
      return new BackendRef(
          string(resource.get("apiGroup"), field + ".resource.apiGroup", problems),
          string(resource.get("kind"), field + ".resource.kind", problems),
          null,
          name,
          null,
          null);
    }
    problems.add(field, null, "backend has neither service nor resource; it is left out");
    return null;
  }

  private static GslbStrategy strategy(Object raw, Problems problems) {
    if (raw == null) {
      problems.add("spec.strategy", null, "spec.strategy is required");
      return null;
    }
    Map<String, Object> s = map(raw, "spec.strategy", problems);
    String type = string(s.get("type"), "spec.strategy.type", problems);
    if (type == null || !TYPES.contains(type)) {
      problems.add("spec.strategy.type", type, "not one of roundRobin, failover, geoip");
    }
    Integer ttl = integer(s.get("dnsTtlSeconds"), "spec.strategy.dnsTtlSeconds", problems);
    if (ttl != null && ttl < 0) {
      problems.add(
          "spec.strategy.dnsTtlSeconds",
          ttl.toString(),
          "must not be negative (0 means the strategy-engine's default)");
    }
    String primary = string(s.get("primaryGeoTag"), "spec.strategy.primaryGeoTag", problems);
    if (primary != null && !primary.isEmpty() && !GEO_TAG.matcher(primary).matches()) {
      problems.add(
          "spec.strategy.primaryGeoTag",
          primary,
          "a geo tag may hold only letters, digits and '-'");
    }
    Map<String, Integer> weight = new LinkedHashMap<>();
    Map<String, Object> rawWeight = map(s.get("weight"), "spec.strategy.weight", problems);
    for (Map.Entry<String, Object> e : rawWeight.entrySet()) {
      String f = "spec.strategy.weight[" + e.getKey() + "]";
      Integer w = integer(e.getValue(), f, problems);
      if (!GEO_TAG.matcher(e.getKey()).matches()) {
        problems.add(f, e.getKey(), "a geo tag may hold only letters, digits and '-'");
      } else if (w != null && (w < 0 || w > 1000)) {
        problems.add(f, w.toString(), "a weight must be between 0 and 1000");
      } else if (w != null) {
        weight.put(e.getKey(), w);
      }
    }
    Integer splitBrain =
        integer(
            s.get("splitBrainThresholdSeconds"),
            "spec.strategy.splitBrainThresholdSeconds",
            problems);
    GslbStrategy strategy = new GslbStrategy(type, ttl, primary, weight, splitBrain);
    if (!strategy.weight().isEmpty() && TYPES.contains(type) && !"roundRobin".equals(type)) {
      // The value as the strategy-engine renders it, so that the two reports of this rule are one.
      problems.add(
          "spec.strategy.weight",
          String.valueOf(strategy.weight()),
          "weights are only allowed with the roundRobin strategy, not " + type);
    }
    return strategy;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object raw, String field, Problems problems) {
    if (raw == null) {
      return Map.of();
    }
    if (raw instanceof Map<?, ?> m) {
      return (Map<String, Object>) m;
    }
    problems.add(field, String.valueOf(raw), "expected an object");
    return Map.of();
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object raw, String field, Problems problems) {
    if (raw == null) {
      return List.of();
    }
    if (raw instanceof List<?> l) {
      return (List<Object>) l;
    }
    problems.add(field, String.valueOf(raw), "expected a list");
    return List.of();
  }

  private static String string(Object raw, String field, Problems problems) {
    if (raw == null || raw instanceof String) {
      return (String) raw;
    }
    problems.add(field, String.valueOf(raw), "expected a string");
    return null;
  }

  private static List<String> strings(Object raw, String field, Problems problems) {
    List<String> values = new ArrayList<>();
    List<Object> items = list(raw, field, problems);
    for (int i = 0; i < items.size(); i++) {
      String value = string(items.get(i), field + "[" + i + "]", problems);
      if (value != null) {
        values.add(value);
      }
    }
    return values;
  }

  private static Integer integer(Object raw, String field, Problems problems) {
    if (raw == null) {
      return null;
    }
    if (raw instanceof Integer i) {
      return i;
    }
    if (raw instanceof Number n
        && n.doubleValue() == Math.rint(n.doubleValue())
        && Math.abs(n.doubleValue()) <= Integer.MAX_VALUE) {
      return n.intValue();
    }
    problems.add(field, String.valueOf(raw), "expected an integer");
    return null;
  }
}
