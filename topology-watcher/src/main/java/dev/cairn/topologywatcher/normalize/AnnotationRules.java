package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.validation.Flags;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.commonmodel.validation.Ttl;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * Which annotations Cairn reads from each kind, and the check each known key's value must pass.
 *
 * <p>Only annotations under the given prefixes or with the given exact keys are kept; everything
 * else ({@code kubectl.kubernetes.io/last-applied-configuration}, controller bookkeeping) is
 * dropped, so a change there publishes nothing. Kept values are copied verbatim. A value that fails
 * the check of its key is reported as a problem naming {@code metadata.annotations[<key>]}.
 */
final class AnnotationRules {

  static final String DIRECT_DNS = "directdns.meisterlala.dev/";
  static final String K8GB = "k8gb.io/";
  static final String EXTERNAL_DNS_HOSTNAME = "external-dns.alpha.kubernetes.io/hostname";
  static final String K3S_EXTERNAL_IP = "k3s.io/external-ip";
  static final String K3S_EXTERNAL_DNS = "k3s.io/external-dns";

  /** Cairn's own Gslb annotation: where an HTTPRoute Gslb's local targets come from. */
  static final String CAIRN_HTTP_ROUTE_TARGETS = "cairn.dev/http-route-targets";

  /** HTTPRoute, Ingress and Service. */
  static final AnnotationRules ROUTE =
      new AnnotationRules(List.of(DIRECT_DNS, K8GB), Set.of(EXTERNAL_DNS_HOSTNAME));

  /** Node. */
  static final AnnotationRules NODE =
      new AnnotationRules(List.of(DIRECT_DNS, K8GB), Set.of(K3S_EXTERNAL_IP, K3S_EXTERNAL_DNS));

  /** Gslb. */
  static final AnnotationRules GSLB =
      new AnnotationRules(List.of(K8GB), Set.of(CAIRN_HTTP_ROUTE_TARGETS));

  private static final Pattern GEO_TAG = Pattern.compile("[a-zA-Z\\-\\d]+");
  private static final Set<String> STRATEGIES = Set.of("roundRobin", "failover", "geoip");

  /** The check of a known key: field and raw value in, every problem of the value out. */
  @FunctionalInterface
  private interface Check {
    List<Problem> apply(String field, String value);
  }

  /** The check of each known key. */
  private static final Map<String, Check> CHECKS =
      Map.ofEntries(
          Map.entry(DIRECT_DNS + "ttl", one(AnnotationRules::ttl)),
          Map.entry(DIRECT_DNS + "enabled", one(AnnotationRules::flag)),
          Map.entry(DIRECT_DNS + "resolve-target-hostnames", one(AnnotationRules::flag)),
          Map.entry(DIRECT_DNS + "target-nodes", (f, v) -> eachItem(f, v, Hostnames::check)),
          Map.entry(DIRECT_DNS + "dns-server", one(AnnotationRules::dnsServer)),
          Map.entry(DIRECT_DNS + "target", one(AnnotationRules::ipOrHostname)),
          Map.entry(DIRECT_DNS + "hostname", one(Hostnames::checkPattern)),
          Map.entry(EXTERNAL_DNS_HOSTNAME, (f, v) -> eachItem(f, v, Hostnames::checkPattern)),
          Map.entry(K3S_EXTERNAL_IP, (f, v) -> eachItem(f, v, AnnotationRules::ip)),
          Map.entry(K3S_EXTERNAL_DNS, (f, v) -> eachItem(f, v, Hostnames::check)),
          Map.entry(
              K8GB + "exposed-ip-addresses", (f, v) -> eachIndexedItem(f, v, AnnotationRules::ip)),
          Map.entry(K8GB + "exposed-hostnames", (f, v) -> eachIndexedItem(f, v, Hostnames::check)),
          Map.entry(K8GB + "hostname", one(Hostnames::check)),
          Map.entry(K8GB + "dns-ttl-seconds", one(AnnotationRules::k8gbTtl)),
          Map.entry(K8GB + "strategy", one(AnnotationRules::strategy)),
          Map.entry(K8GB + "primary-geotag", one(AnnotationRules::geoTag)),
          Map.entry(CAIRN_HTTP_ROUTE_TARGETS, one(AnnotationRules::httpRouteTargets)));

  private final List<String> prefixes;
  private final Set<String> exactKeys;

  private AnnotationRules(List<String> prefixes, Set<String> exactKeys) {
    this.prefixes = prefixes;
    this.exactKeys = exactKeys;
  }

  /** The relevant annotations, verbatim; problems of known keys go to {@code problems}. */
  Map<String, String> relevant(Map<String, String> annotations, Problems problems) {
    Map<String, String> kept = new TreeMap<>();
    for (Map.Entry<String, String> e : annotations.entrySet()) {
      String key = e.getKey();
      if (!isRelevant(key)) {
        continue;
      }
      String value = e.getValue() == null ? "" : e.getValue();
      kept.put(key, value);
      Check check = CHECKS.get(key);
      if (check != null) {
        check.apply(field(key), value).forEach(problems::add);
      }
    }
    return kept;
  }

  boolean isRelevant(String key) {
    if (exactKeys.contains(key)) {
      return true;
    }
    for (String prefix : prefixes) {
      if (key.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  static String field(String key) {
    return "metadata.annotations[" + key + "]";
  }

  /**
   * The direct-dns TTL as the strategy-engine reads it (compatibility §10): surrounding spaces and
   * one leading {@code +} are accepted, as direct-dns accepted them.
   */
  private static Optional<Problem> ttl(String field, String value) {
    String text = value.strip();
    if (text.startsWith("+")) {
      text = text.substring(1);
    }
    if (Ttl.parse(text).isPresent()) {
      return Optional.empty();
    }
    return Optional.of(
        new Problem(
            field,
            value,
            "not a whole number of seconds from " + Ttl.MIN_SECONDS + " to " + Ttl.MAX_SECONDS));
  }

  private static Optional<Problem> k8gbTtl(String field, String value) {
    if ("0".equals(value) || Ttl.parse(value).isPresent()) {
      return Optional.empty();
    }
    return Optional.of(
        new Problem(
            field,
            value,
            "TTL must be decimal digits between 0 (the default, 30) and "
                + Ttl.MAX_SECONDS
                + " seconds"));
  }

  /** {@code node-aware} or {@code gateway}, as the strategy-engine reads it (case ignored). */
  private static Optional<Problem> httpRouteTargets(String field, String value) {
    String v = value.strip();
    if (v.equalsIgnoreCase("node-aware") || v.equalsIgnoreCase("gateway")) {
      return Optional.empty();
    }
    return Optional.of(new Problem(field, value, "must be node-aware or gateway"));
  }

  private static Optional<Problem> flag(String field, String value) {
    if (value.isBlank() || Flags.parse(value).isPresent()) {
      return Optional.empty();
    }
    return Optional.of(
        new Problem(field, value, "not a boolean; use true/false, yes/no, on/off or 1/0"));
  }

  private static Optional<Problem> ip(String field, String value) {
    if (IpLiteral.parse(value).isPresent()) {
      return Optional.empty();
    }
    return Optional.of(new Problem(field, value, "not a strict IPv4 or IPv6 address literal"));
  }

  private static Optional<Problem> ipOrHostname(String field, String value) {
    String v = value.strip();
    if (IpLiteral.parse(v).isPresent()) {
      return Optional.empty();
    }
    return Hostnames.check(field, v)
        .map(p -> new Problem(field, value, "neither an IP address literal nor a host name"));
  }

  private static Optional<Problem> strategy(String field, String value) {
    if (STRATEGIES.contains(value)) {
      return Optional.empty();
    }
    return Optional.of(new Problem(field, value, "not one of roundRobin, failover, geoip"));
  }

  private static Optional<Problem> geoTag(String field, String value) {
    if (GEO_TAG.matcher(value).matches()) {
      return Optional.empty();
    }
    return Optional.of(
        new Problem(field, value, "a geo tag may hold only letters, digits and '-'"));
  }

  /**
   * {@code host}, {@code host:port}, {@code [ipv6]} or {@code [ipv6]:port}, where host is an IPv4
   * literal or a host name; a bare IPv6 literal is accepted too because it is unambiguous.
   */
  private static Optional<Problem> dnsServer(String field, String value) {
    String v = value.strip();
    if (v.isEmpty()) {
      return Optional.empty();
    }
    String host = v;
    String port = null;
    if (v.startsWith("[")) {
      int close = v.indexOf(']');
      if (close < 0) {
        return Optional.of(new Problem(field, value, "'[' without ']'"));
      }
      host = v.substring(1, close);
      String rest = v.substring(close + 1);
      if (!rest.isEmpty()) {
        if (!rest.startsWith(":")) {
          return Optional.of(new Problem(field, value, "unexpected text after ']'"));
        }
        port = rest.substring(1);
      }
      if (!IpLiteral.isIpv6(host)) {
        return Optional.of(new Problem(field, value, "brackets must hold an IPv6 literal"));
      }
    } else if (IpLiteral.isIpv6(v)) {
      return Optional.empty();
    } else {
      int colon = v.lastIndexOf(':');
      if (colon >= 0) {
        host = v.substring(0, colon);
        port = v.substring(colon + 1);
      }
      if (!IpLiteral.isIpv4(host) && !Hostnames.isValid(host)) {
        return Optional.of(
            new Problem(field, value, "server must be an IP address or a host name, with a port"));
      }
    }
    if (port != null && !isPort(port)) {
      return Optional.of(new Problem(field, value, "port must be a number from 1 to 65535"));
    }
    return Optional.empty();
  }

  private static boolean isPort(String text) {
    if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(Character::isDigit)) {
      return false;
    }
    int port = Integer.parseInt(text);
    return port >= 1 && port <= 65535;
  }

  /** A check of the whole value, which finds one problem at most. */
  private static Check one(BiFunction<String, String, Optional<Problem>> check) {
    return (field, value) -> check.apply(field, value).map(List::of).orElse(List.of());
  }

  /**
   * Splits a comma list, trims items, skips empty ones and reports every bad item, as trimmed,
   * under the annotation's field (as the strategy-engine names an item it rejects, so that the two
   * report one problem, not two). When the value has several items, the reason starts with the
   * item's position, counted from 1 with empty items included: {@code item 4: ...}.
   */
  private static List<Problem> eachItem(
      String field, String value, BiFunction<String, String, Optional<Problem>> check) {
    String[] items = value.split(",", -1);
    List<Problem> found = new ArrayList<>();
    for (int i = 0; i < items.length; i++) {
      String trimmed = items[i].strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      Optional<Problem> problem = check.apply(field, trimmed);
      if (problem.isPresent()) {
        Problem p = problem.get();
        found.add(
            items.length == 1
                ? p
                : new Problem(p.field(), p.value(), "item " + (i + 1) + ": " + p.reason()));
      }
    }
    return found;
  }

  /**
   * As {@link #eachItem}, but each bad item is named by its index, as the strategy-engine names the
   * items of a Gslb's local-target annotations ({@code metadata.annotations[<key>][2]}, the item as
   * written), so that the two report one problem, not two.
   */
  private static List<Problem> eachIndexedItem(
      String field, String value, BiFunction<String, String, Optional<Problem>> check) {
    String[] items = value.split(",", -1);
    List<Problem> found = new ArrayList<>();
    for (int i = 0; i < items.length; i++) {
      String trimmed = items[i].strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      Optional<Problem> problem = check.apply(field, trimmed);
      if (problem.isPresent()) {
        found.add(new Problem(field + "[" + i + "]", items[i], problem.get().reason()));
      }
    }
    return found;
  }
}
