package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.decision.Explanation.Skipped;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.IpLiteral.Family;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The publish targets of one node (direct-dns §5.3, with Cairn's fixes).
 *
 * <p>The node's target sources are tried in direct-dns order: the {@code
 * directdns.meisterlala.dev/target} annotation, the {@code k3s.io/external-dns} annotation, the
 * {@code ExternalDNS} addresses, the {@code k3s.io/external-ip} annotation, the {@code ExternalIP}
 * addresses and the {@code InternalIP} addresses. Annotations may hold several comma-separated
 * values (k3s writes {@code v4,v6} for dual-stack nodes). The first source that gives a usable
 * value wins:
 *
 * <ul>
 *   <li>every value is validated: an IP must be a strict literal ({@link IpLiteral}) and is
 *       canonicalised, a host name must pass {@link Hostnames#check}; anything else is a {@link
 *       Problem} and is skipped;
 *   <li>IP literals of a disabled family are skipped <em>before</em> the source is chosen, so a
 *       node whose first source holds only IPv6 addresses still publishes its IPv4 address from a
 *       later source when IPv6 is off;
 *   <li>from the winning source the node publishes its first IPv4 and its first IPv6 address (each
 *       if enabled): a dual-stack node gives both; host names of that source are then left out;
 *   <li>a source with no usable IP but a valid host name gives that one host name (a CNAME target,
 *       unaffected by the family switches).
 * </ul>
 *
 * @param node the node name
 * @param source the winning source, e.g. {@code ExternalIP}; {@code null} when none gave a target
 * @param targets the node's targets, sorted; empty when the node has nothing publishable
 * @param skipped the values left out, with their reasons
 * @param problems the invalid values found
 */
public record NodeTargets(
    String node,
    String source,
    List<Target> targets,
    List<Skipped> skipped,
    List<Problem> problems) {

  public NodeTargets {
    Objects.requireNonNull(node, "node");
    targets = List.copyOf(targets);
    skipped = List.copyOf(skipped);
    problems = List.copyOf(problems);
  }

  /** True when the node contributes at least one target. */
  public boolean publishable() {
    return !targets.isEmpty();
  }

  /**
   * Computes the targets of a node for the enabled address families.
   *
   * @param node the node
   * @param families the enabled families, not empty
   */
  public static NodeTargets of(NodeState node, Set<Family> families) {
    List<Skipped> skipped = new ArrayList<>();
    List<Problem> problems = new ArrayList<>();
    for (Source source : sources(node)) {
      Map<Family, IpLiteral> firstIp = new EnumMap<>(Family.class);
      List<String> hosts = new ArrayList<>();
      List<String> extraIps = new ArrayList<>();
      for (Value value : source.values()) {
        String text = value.text().strip();
        if (text.isEmpty()) {
          continue;
        }
        String input = "node " + node.name() + " " + source.label() + " '" + text + "'";
        Optional<IpLiteral> ip = IpLiteral.parse(text);
        if (ip.isPresent()) {
          Family family = ip.get().family();
          if (!families.contains(family)) {
            skipped.add(new Skipped(input, disabledReason(family)));
          } else if (firstIp.containsKey(family)) {
            extraIps.add(input);
          } else {
            firstIp.put(family, ip.get());
          }
          continue;
        }
        Optional<Problem> problem = checkHostTarget(value.field(), text);
        if (problem.isPresent()) {
          Problem p = problem.get();
          problems.add(new Problem("Node/" + node.name() + " " + p.field(), p.value(), p.reason()));
          skipped.add(new Skipped(input, p.reason()));
          continue;
        }
        hosts.add(Hostnames.normalise(text));
      }
      if (!firstIp.isEmpty()) {
        for (String extra : extraIps) {
          skipped.add(
              new Skipped(extra, "only the first address of each family of a source is published"));
        }
        for (String host : hosts) {
          skipped.add(
              new Skipped(
                  "node " + node.name() + " " + source.label() + " '" + host + "'",
                  "the same source gives IP addresses, which are preferred to a host name"));
        }
        List<Target> targets = new ArrayList<>();
        firstIp.values().forEach(ip -> targets.add(Target.of(ip)));
        return new NodeTargets(node.name(), source.label(), sorted(targets), skipped, problems);
      }
      if (!hosts.isEmpty()) {
        for (String extra : extraIps) {
          skipped.add(
              new Skipped(extra, "only the first address of each family of a source is published"));
        }
        for (int i = 1; i < hosts.size(); i++) {
          skipped.add(
              new Skipped(
                  "node " + node.name() + " " + source.label() + " '" + hosts.get(i) + "'",
                  "only the first host name of a source is published"));
        }
        return new NodeTargets(
            node.name(), source.label(), List.of(Target.host(hosts.get(0))), skipped, problems);
      }
    }
    return new NodeTargets(node.name(), null, List.of(), skipped, problems);
  }

  /** Why this node gives no target, for explanations. */
  public String noTargetReason() {
    if (!skipped.isEmpty()) {
      return "no publishable target ("
          + skipped.size()
          + " value(s) left out, see the node entries)";
    }
    return "no target annotation and no ExternalDNS, ExternalIP or InternalIP address";
  }

  static String disabledReason(Family family) {
    return family == Family.IPV4
        ? "IPv4 targets are disabled (engine.enable-ipv4=false)"
        : "IPv6 targets are disabled (engine.enable-ipv6=false)";
  }

  /**
   * Checks a value that is not an IP literal as a host name target. Besides {@link
   * Hostnames#check}, a name whose last label is all digits is refused: it is a mistyped address
   * ({@code 010.0.0.1}, {@code 1.2.3.256}), never a real host name (RFC 3696 §2).
   */
  static Optional<Problem> checkHostTarget(String field, String text) {
    if (text.indexOf(':') >= 0 || text.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'))) {
      return Optional.of(
          new Problem(field, text, "not a strict IPv4 or IPv6 address literal nor a host name"));
    }
    Optional<Problem> problem = Hostnames.check(field, text);
    if (problem.isPresent()) {
      return problem;
    }
    String name = Hostnames.normalise(text);
    String last = name.substring(name.lastIndexOf('.') + 1);
    if (last.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return Optional.of(
          new Problem(field, text, "the last label is numeric: not a valid address nor host name"));
    }
    return Optional.empty();
  }

  private static List<Target> sorted(List<Target> targets) {
    return List.copyOf(new TreeSet<>(targets));
  }

  private static List<Source> sources(NodeState node) {
    List<Source> sources = new ArrayList<>(6);
    sources.add(annotation(node, AnnotationKeys.NODE_TARGET));
    sources.add(annotation(node, AnnotationKeys.K3S_EXTERNAL_DNS));
    sources.add(addresses(node, "ExternalDNS"));
    sources.add(annotation(node, AnnotationKeys.K3S_EXTERNAL_IP));
    sources.add(addresses(node, "ExternalIP"));
    sources.add(addresses(node, "InternalIP"));
    return sources;
  }

  private static Source annotation(NodeState node, String key) {
    String raw = node.annotations().get(key);
    List<Value> values = new ArrayList<>();
    if (raw != null) {
      String field = AnnotationKeys.field(key);
      for (String part : raw.split(",", -1)) {
        values.add(new Value(field, part));
      }
    }
    return new Source("annotation " + key, values);
  }

  private static Source addresses(NodeState node, String type) {
    List<Value> values = new ArrayList<>();
    List<NodeAddress> addresses = node.addresses();
    for (int i = 0; i < addresses.size(); i++) {
      NodeAddress address = addresses.get(i);
      if (type.equals(address.type())) {
        values.add(new Value("status.addresses[" + i + "]", address.address()));
      }
    }
    return new Source(type, values);
  }

  private record Source(String label, List<Value> values) {}

  private record Value(String field, String text) {}
}
