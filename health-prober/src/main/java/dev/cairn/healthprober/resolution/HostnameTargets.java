package dev.cairn.healthprober.resolution;

import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.validation.Flags;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.healthprober.host.Finding;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which host names the engine needs resolved: node hostname targets of routes with hostname-target
 * resolution (k8s-direct-dns §9), and load-balancer host names (k8gb).
 *
 * <p>A route resolves when its {@code directdns.meisterlala.dev/resolve-target-hostnames}
 * annotation says so ({@link Flags#parse}), else when the default is on; a route switched off with
 * {@code directdns.meisterlala.dev/enabled} is skipped. Its resolver is the {@code
 * directdns.meisterlala.dev/dns-server} annotation normalised by {@link #normaliseServer}, else the
 * default resolver.
 *
 * <p>The nodes whose targets a route can publish are its {@code target-nodes} (when the annotation
 * names any) or else the ingress nodes (the backend-zone choice is a subset of them, and the
 * fallback is all of them). So the hostnames resolved are a superset of what the engine picks:
 * simple, and never missing one. A node's target is the first of: annotation {@code
 * directdns.meisterlala.dev/target}, annotation {@code k3s.io/external-dns}, the first {@code
 * ExternalDNS} address, annotation {@code k3s.io/external-ip}, the first {@code ExternalIP}, the
 * first {@code InternalIP}. Only a target that is not an IP literal is resolved, and only when it
 * is a valid host name.
 *
 * <p>When {@code prober.resolve-load-balancer-hostnames} is on, every load-balancer host name
 * ({@code status.loadBalancer.ingress[].hostname}) of every Ingress, of every VirtualService (that
 * of the Service its Istio Gateway selects, which the topology-watcher joins into its record) and
 * of every Service of type {@code LoadBalancer}, and every {@code Hostname} address of a Gateway,
 * is resolved through the default resolver, keyed by its normalised form: a Gslb whose local
 * targets come from a load-balancer status (an AWS ELB name, say) publishes the addresses the
 * engine reads under {@code <engine.dns-resolver>|<host name>}, which is why {@code
 * engine.dns-resolver} must equal {@code prober.default-resolver}. All of them are resolved, not
 * only those a Gslb references: there are about as many distinct names as load balancers (many
 * Ingresses share one), no Gslb matching is needed, and the set is a superset of what the engine
 * reads. A route's {@code enabled} switch does not apply (the engine ignores it for a Gslb's
 * Ingress), and an HTTPRoute has no load-balancer status. The host names of a Gslb's {@code
 * k8gb.io/exposed-hostnames} annotation are resolved the same way. A name that is not a valid
 * concrete host name is a finding on its object. Pure.
 */
public final class HostnameTargets {

  static final String PREFIX = "directdns.meisterlala.dev/";
  static final String RESOLVE = PREFIX + "resolve-target-hostnames";
  static final String DNS_SERVER = PREFIX + "dns-server";
  static final String ENABLED = PREFIX + "enabled";
  static final String TARGET_NODES = PREFIX + "target-nodes";
  static final String NODE_TARGET = PREFIX + "target";
  static final String K3S_EXTERNAL_DNS = "k3s.io/external-dns";
  static final String K3S_EXTERNAL_IP = "k3s.io/external-ip";
  static final String EXPOSED_HOSTNAMES = "k8gb.io/exposed-hostnames";
  static final String LB_HOSTNAME = "status.loadBalancer.ingress[].hostname";

  private HostnameTargets() {}

  /**
   * Normalises a resolver as k8s-direct-dns does, so that the engine derives the same key: trimmed;
   * empty means the default; without a {@code :} the port {@code :53} is appended. A bracketed IPv6
   * with port passes unchanged; a bare IPv6 address keeps its colons (the original then fails every
   * lookup; the prober uses it at port 53). A host name is not resolved: its lookups report ERROR.
   */
  public static String normaliseServer(String annotation, String defaultResolver) {
    String s = annotation == null ? "" : annotation.strip();
    if (s.isEmpty()) {
      s = defaultResolver == null ? "" : defaultResolver.strip();
    }
    return s.indexOf(':') < 0 && !s.isEmpty() ? s + ":53" : s;
  }

  /**
   * Computes the hostnames to resolve.
   *
   * @param routes every route
   * @param services every Service
   * @param nodes every node
   * @param defaultEnabled {@code prober.resolve-target-hostnames}
   * @param loadBalancerHostnames {@code prober.resolve-load-balancer-hostnames}
   * @param defaultResolver {@code prober.default-resolver}
   */
  public static ResolutionPlan plan(
      Collection<RouteState> routes,
      Collection<ServiceState> services,
      Collection<NodeState> nodes,
      boolean defaultEnabled,
      boolean loadBalancerHostnames,
      String defaultResolver) {
    return plan(
        routes, services, List.of(), nodes, defaultEnabled, loadBalancerHostnames, defaultResolver);
  }

  /**
   * Computes the hostnames to resolve, with the host names of every Gslb's {@code
   * k8gb.io/exposed-hostnames} annotation (resolved like load-balancer host names, through the
   * default resolver, when {@code loadBalancerHostnames} is on).
   *
   * @param gslbs every Gslb
   */
  public static ResolutionPlan plan(
      Collection<RouteState> routes,
      Collection<ServiceState> services,
      Collection<GslbState> gslbs,
      Collection<NodeState> nodes,
      boolean defaultEnabled,
      boolean loadBalancerHostnames,
      String defaultResolver) {
    Map<String, NodeState> byName = new HashMap<>();
    List<NodeState> ingress = new ArrayList<>();
    List<NodeState> sortedNodes = new ArrayList<>(nodes);
    sortedNodes.sort((a, b) -> a.name().compareTo(b.name()));
    for (NodeState n : sortedNodes) {
      byName.put(n.name(), n);
      if (n.ingress()) {
        ingress.add(n);
      }
    }
    TreeSet<ResolutionKey> keys = new TreeSet<>();
    List<Finding> findings = new ArrayList<>();
    Map<String, Optional<String>> hostnameOfNode = new HashMap<>();
    List<RouteState> sortedRoutes = new ArrayList<>(routes);
    sortedRoutes.sort((a, b) -> a.ref().key().compareTo(b.ref().key()));
    for (RouteState route : sortedRoutes) {
      String object = route.ref().key();
      if (!resolves(route, defaultEnabled, findings)) {
        continue;
      }
      String server = normaliseServer(route.annotations().get(DNS_SERVER), defaultResolver);
      if (server.isEmpty()) {
        findings.add(
            new Finding(
                object,
                new Problem("metadata.annotations[" + DNS_SERVER + "]", "", "no resolver")));
        continue;
      }
      for (NodeState node : candidateNodes(route, byName, ingress)) {
        Optional<String> hostname =
            hostnameOfNode.computeIfAbsent(node.name(), n -> hostnameTarget(node, findings));
        hostname.ifPresent(h -> keys.add(new ResolutionKey(server, h)));
      }
    }
    if (loadBalancerHostnames) {
      String server = normaliseServer(null, defaultResolver);
      for (RouteState route : sortedRoutes) {
        if ("Ingress".equals(route.kind())
            || "VirtualService".equals(route.kind())
            || "Gateway".equals(route.kind())) {
          loadBalancer(route.ref().key(), route.loadBalancerHostnames(), server, keys, findings);
        }
      }
      List<ServiceState> sortedServices = new ArrayList<>(services);
      sortedServices.sort((a, b) -> a.ref().key().compareTo(b.ref().key()));
      for (ServiceState service : sortedServices) {
        if ("LoadBalancer".equals(service.type())) {
          loadBalancer(
              service.ref().key(), service.loadBalancerHostnames(), server, keys, findings);
        }
      }
      List<GslbState> sortedGslbs = new ArrayList<>(gslbs);
      sortedGslbs.sort((a, b) -> a.ref().key().compareTo(b.ref().key()));
      for (GslbState gslb : sortedGslbs) {
        String raw = gslb.annotations().get(EXPOSED_HOSTNAMES);
        if (raw == null || raw.isBlank()) {
          continue; // an empty annotation is the engine's problem to report, not a name
        }
        List<String> names = new ArrayList<>();
        for (String item : raw.split(",", -1)) {
          names.add(item.strip());
        }
        loadBalancer(
            gslb.ref().key(),
            names,
            server,
            keys,
            findings,
            "metadata.annotations[" + EXPOSED_HOSTNAMES + "]");
      }
    }
    return new ResolutionPlan(keys, findings);
  }

  /**
   * Adds a key through {@code server} for each valid load-balancer host name of {@code object}, and
   * a finding for each other one.
   */
  private static void loadBalancer(
      String object,
      List<String> hostnames,
      String server,
      Set<ResolutionKey> keys,
      List<Finding> findings) {
    loadBalancer(object, hostnames, server, keys, findings, LB_HOSTNAME);
  }

  private static void loadBalancer(
      String object,
      List<String> hostnames,
      String server,
      Set<ResolutionKey> keys,
      List<Finding> findings,
      String field) {
    for (String hostname : hostnames) {
      if (server.isEmpty()) {
        findings.add(
            new Finding(
                object,
                new Problem(field, hostname, "no resolver: prober.default-resolver is empty")));
        continue;
      }
      Optional<Problem> problem = Hostnames.check(field, hostname);
      if (problem.isPresent()) {
        findings.add(new Finding(object, problem.get()));
      } else {
        keys.add(new ResolutionKey(server, Hostnames.normalise(hostname)));
      }
    }
  }

  private static boolean resolves(RouteState route, boolean defaultEnabled, List<Finding> out) {
    String object = route.ref().key();
    String enabled = route.annotations().get(ENABLED);
    if (enabled != null && !enabled.isBlank() && Flags.parse(enabled).equals(Optional.of(false))) {
      return false;
    }
    String raw = route.annotations().get(RESOLVE);
    if (raw == null || raw.isBlank()) {
      return defaultEnabled;
    }
    Optional<Boolean> flag = Flags.parse(raw);
    if (flag.isEmpty()) {
      out.add(
          new Finding(
              object,
              new Problem(
                  "metadata.annotations[" + RESOLVE + "]",
                  raw,
                  "not a boolean; using the default " + defaultEnabled)));
      return defaultEnabled;
    }
    return flag.get();
  }

  private static List<NodeState> candidateNodes(
      RouteState route, Map<String, NodeState> byName, List<NodeState> ingress) {
    String pinned = route.annotations().get(TARGET_NODES);
    if (pinned != null && !pinned.isBlank()) {
      Set<String> names = new TreeSet<>();
      for (String part : pinned.split(",")) {
        if (!part.isBlank()) {
          names.add(part.strip());
        }
      }
      List<NodeState> out = new ArrayList<>();
      for (String name : names) {
        NodeState n = byName.get(name);
        if (n != null) {
          out.add(n);
        }
      }
      if (!out.isEmpty()) {
        // Pinned nodes without a usable target fall back to all ingress nodes in the engine.
        LinkedHashSet<NodeState> withFallback = new LinkedHashSet<>(out);
        withFallback.addAll(ingress);
        return List.copyOf(withFallback);
      }
    }
    return ingress;
  }

  /** The node's publish target when it is a host name to resolve. */
  static Optional<String> hostnameTarget(NodeState node, List<Finding> findings) {
    Optional<Target> target = nodeTarget(node);
    if (target.isEmpty() || IpLiteral.parse(target.get().value()).isPresent()) {
      return Optional.empty();
    }
    Optional<Problem> problem = Hostnames.check(target.get().field(), target.get().value());
    if (problem.isPresent()) {
      findings.add(new Finding(node.ref().key(), problem.get()));
      return Optional.empty();
    }
    return Optional.of(Hostnames.normalise(target.get().value()));
  }

  /** The node's publish target, first match wins (k8s-direct-dns §5.3). */
  static Optional<Target> nodeTarget(NodeState node) {
    Optional<Target> t = annotation(node, NODE_TARGET);
    if (t.isEmpty()) {
      t = annotation(node, K3S_EXTERNAL_DNS);
    }
    if (t.isEmpty()) {
      t = address(node, "ExternalDNS");
    }
    if (t.isEmpty()) {
      t = annotation(node, K3S_EXTERNAL_IP);
    }
    if (t.isEmpty()) {
      t = address(node, "ExternalIP");
    }
    if (t.isEmpty()) {
      t = address(node, "InternalIP");
    }
    return t;
  }

  private static Optional<Target> annotation(NodeState node, String key) {
    String v = node.annotations().get(key);
    return v == null || v.isBlank()
        ? Optional.empty()
        : Optional.of(new Target("metadata.annotations[" + key + "]", v.strip()));
  }

  private static Optional<Target> address(NodeState node, String type) {
    for (int i = 0; i < node.addresses().size(); i++) {
      NodeAddress a = node.addresses().get(i);
      if (type.equals(a.type()) && !a.address().isBlank()) {
        return Optional.of(new Target("status.addresses[" + i + "]", a.address().strip()));
      }
    }
    return Optional.empty();
  }

  record Target(String field, String value) {}
}
