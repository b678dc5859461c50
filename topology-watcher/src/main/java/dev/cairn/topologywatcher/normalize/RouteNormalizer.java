package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * HTTPRoute, GRPCRoute, Ingress and Gateway to {@link RouteState}: host names as written (exact
 * duplicates removed, first occurrence kept), every backend of every rule in spec order, a route's
 * parent references as written, a Gateway's status addresses, the relevant annotations.
 */
public final class RouteNormalizer {

  /** The kind of a Gateway API HTTPRoute in keys and records. */
  public static final String HTTP_ROUTE = "HTTPRoute";

  /** The kind of a Gateway API GRPCRoute in keys and records. */
  public static final String GRPC_ROUTE = "GRPCRoute";

  /** The kind of an Ingress in keys and records. */
  public static final String INGRESS = "Ingress";

  /** The kind of a Gateway API Gateway in keys and records. */
  public static final String GATEWAY = "Gateway";

  /** The {@code status.addresses[].type} of an IP address; also the default when absent. */
  public static final String IP_ADDRESS = "IPAddress";

  /** The {@code status.addresses[].type} of a host name. */
  public static final String HOSTNAME = "Hostname";

  /** The only Ingress API version read. */
  public static final String INGRESS_API_VERSION = "networking.k8s.io/v1";

  private RouteNormalizer() {}

  /** Normalises an HTTPRoute read with {@code input.apiVersion()}. */
  public static RouteState httpRoute(HttpRouteInput input) {
    return gatewayRoute(HTTP_ROUTE, input);
  }

  /**
   * Normalises a GRPCRoute read with {@code input.apiVersion()}: the same parts as an HTTPRoute's
   * (host names, each rule's backendRefs, parentRefs), for a Gslb whose resourceRef names it.
   */
  public static RouteState grpcRoute(HttpRouteInput input) {
    return gatewayRoute(GRPC_ROUTE, input);
  }

  /**
   * Normalises a Gateway API route of {@code kind} ({@code HTTPRoute}, {@code GRPCRoute}, {@code
   * TLSRoute}, {@code TCPRoute} or {@code UDPRoute}; the last two have no host names) read with
   * {@code input.apiVersion()}.
   */
  public static RouteState gatewayRoute(String kind, HttpRouteInput input) {
    return gatewayRoute(kind, input, List.of());
  }

  /**
   * As {@link #gatewayRoute(String, HttpRouteInput)}, for a route some of whose fields could not be
   * read: {@code readProblems} name them (a field of the wrong type, read as absent) and come first
   * in the record's problems; a backend or parent whose name could not be read is left out without
   * a second problem.
   */
  public static RouteState gatewayRoute(
      String kind, HttpRouteInput input, List<Problem> readProblems) {
    Problems problems = new Problems();
    Set<String> unreadable = new HashSet<>();
    for (Problem p : readProblems) {
      problems.add(p);
      unreadable.add(p.field());
    }
    Set<String> hostnames = new LinkedHashSet<>();
    for (int i = 0; i < input.hostnames().size(); i++) {
      String host = input.hostnames().get(i);
      if (host != null
          && problems.check(Hostnames.checkPattern("spec.hostnames[" + i + "]", host))) {
        hostnames.add(host);
      }
    }
    List<BackendRef> backends = new ArrayList<>();
    for (int r = 0; r < input.rules().size(); r++) {
      HttpRouteInput.Rule rule = input.rules().get(r);
      List<BackendRefInput> refs = rule == null ? List.of() : rule.backendRefs();
      for (int b = 0; b < refs.size(); b++) {
        String field = "spec.rules[" + r + "].backendRefs[" + b + "]";
        if (refs.get(b) != null && !unreadable.contains(field + ".name")) {
          addBackend(backends, refs.get(b), field, problems);
        }
      }
    }
    List<RouteState.ParentRef> parentRefs = new ArrayList<>();
    for (int i = 0; i < input.parentRefs().size(); i++) {
      RouteState.ParentRef ref = input.parentRefs().get(i);
      if (ref == null || unreadable.contains("spec.parentRefs[" + i + "].name")) {
        continue;
      }
      if (ref.name() == null || ref.name().isBlank()) {
        problems.add(
            "spec.parentRefs[" + i + "].name", ref.name(), "parent has no name; it is left out");
        continue;
      }
      parentRefs.add(ref);
    }
    Meta meta = input.meta();
    return new RouteState(
        kind,
        input.apiVersion(),
        meta.namespace(),
        meta.name(),
        meta.uid(),
        List.copyOf(hostnames),
        backends,
        List.of(),
        List.of(),
        AnnotationRules.ROUTE.relevant(meta.annotations(), problems),
        problems.list(),
        null,
        meta.labels(),
        parentRefs);
  }

  /**
   * Normalises a Gateway read with {@code input.apiVersion()}: its listeners' host names (a
   * listener without one adds none) and its {@code status.addresses}, an {@code IPAddress} (or
   * untyped) address as a load-balancer IP, a {@code Hostname} address as a load-balancer host
   * name. An address of another type, or whose value does not fit its type, is a problem and left
   * out. No backends, controller or parent references.
   */
  public static RouteState gateway(GatewayInput input) {
    return gateway(input, List.of());
  }

  /**
   * As {@link #gateway(GatewayInput)}, for a Gateway some of whose fields could not be read: {@code
   * readProblems} name them (a field of the wrong type, read as absent) and come first in the
   * record's problems; an address whose type or value could not be read is left out without a
   * second problem.
   */
  public static RouteState gateway(GatewayInput input, List<Problem> readProblems) {
    Problems problems = new Problems();
    Set<String> unreadable = new HashSet<>();
    for (Problem p : readProblems) {
      problems.add(p);
      unreadable.add(p.field());
    }
    Set<String> hostnames = new LinkedHashSet<>();
    for (int i = 0; i < input.listeners().size(); i++) {
      String host = input.listeners().get(i).hostname();
      if (host != null
          && !host.isEmpty()
          && problems.check(Hostnames.checkPattern("spec.listeners[" + i + "].hostname", host))) {
        hostnames.add(host);
      }
    }
    List<String> ips = new ArrayList<>();
    List<String> lbHostnames = new ArrayList<>();
    for (int i = 0; i < input.addresses().size(); i++) {
      GatewayInput.Address address = input.addresses().get(i);
      String field = "status.addresses[" + i + "]";
      if (unreadable.contains(field)
          || unreadable.contains(field + ".type")
          || unreadable.contains(field + ".value")) {
        continue;
      }
      String type = address.type();
      if (type == null || type.isEmpty() || type.equals(IP_ADDRESS)) {
        if (address.value() != null && IpLiteral.parse(address.value()).isPresent()) {
          ips.add(address.value());
        } else {
          problems.add(
              field + ".value", address.value(), "not a strict IPv4 or IPv6 address literal");
        }
      } else if (type.equals(HOSTNAME)) {
        if (problems.check(Hostnames.check(field + ".value", address.value()))) {
          lbHostnames.add(address.value());
        }
      } else {
        problems.add(
            field + ".type",
            type,
            "address type is neither IPAddress nor Hostname; the address is left out");
      }
    }
    Meta meta = input.meta();
    return new RouteState(
        GATEWAY,
        input.apiVersion(),
        meta.namespace(),
        meta.name(),
        meta.uid(),
        List.copyOf(hostnames),
        List.of(),
        ips,
        lbHostnames,
        AnnotationRules.ROUTE.relevant(meta.annotations(), problems),
        problems.list(),
        null,
        meta.labels(),
        List.of());
  }

  /**
   * Normalises a {@code networking.k8s.io/v1} Ingress; rules without a host add no host name and no
   * rule, and {@code spec.defaultBackend} is not read (as k8gb, k8gb.md §3.1).
   */
  public static RouteState ingress(IngressInput input) {
    Problems problems = new Problems();
    Set<String> hostnames = new LinkedHashSet<>();
    List<BackendRef> backends = new ArrayList<>();
    List<RouteState.Rule> rules = new ArrayList<>();
    for (int r = 0; r < input.rules().size(); r++) {
      IngressInput.Rule rule = input.rules().get(r);
      String host = rule.host();
      boolean hasHost =
          host != null
              && !host.isEmpty()
              && problems.check(Hostnames.checkPattern("spec.rules[" + r + "].host", host));
      if (hasHost) {
        hostnames.add(host);
      }
      List<BackendRef> ruleBackends = new ArrayList<>(rule.backends().size());
      for (int p = 0; p < rule.backends().size(); p++) {
        addBackend(
            ruleBackends,
            rule.backends().get(p),
            "spec.rules[" + r + "].http.paths[" + p + "].backend",
            problems);
      }
      backends.addAll(ruleBackends);
      if (hasHost) {
        rules.add(new RouteState.Rule(host, ruleBackends));
      }
    }
    List<String> ips = new ArrayList<>();
    List<String> lbHostnames = new ArrayList<>();
    ServiceNormalizer.loadBalancer(input.loadBalancer(), ips, lbHostnames, problems);
    Meta meta = input.meta();
    return new RouteState(
        INGRESS,
        INGRESS_API_VERSION,
        meta.namespace(),
        meta.name(),
        meta.uid(),
        List.copyOf(hostnames),
        backends,
        ips,
        lbHostnames,
        AnnotationRules.ROUTE.relevant(meta.annotations(), problems),
        problems.list(),
        meta.controller(),
        meta.labels(),
        List.of(),
        rules);
  }

  private static void addBackend(
      List<BackendRef> backends, BackendRefInput ref, String field, Problems problems) {
    if (ref.name() == null || ref.name().isBlank()) {
      problems.add(field + ".name", ref.name(), "backend has no name; it is left out");
      return;
    }
    backends.add(
        new BackendRef(
            ref.group(), ref.kind(), ref.namespace(), ref.name(), ref.port(), ref.weight()));
  }
}
