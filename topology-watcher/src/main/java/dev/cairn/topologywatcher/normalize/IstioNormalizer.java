package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Istio's VirtualService and Gateway ({@code networking.istio.io}) to the watcher's records, as
 * k8gb reads them for a Gslb whose resourceRef is a VirtualService (k8gb.md §3.1):
 *
 * <ul>
 *   <li>a VirtualService's host names are {@code spec.hosts}; its backends are the destinations of
 *       every {@code http}, {@code tls} and {@code tcp} route, each serving every host;
 *   <li>its {@code spec.gateways} other than {@code mesh} are its parents, as {@code
 *       networking.istio.io} {@code Gateway} parent references;
 *   <li>an Istio Gateway is kept for its {@code spec.selector}, which picks the load-balancer
 *       Service ({@link IstioJoin}).
 * </ul>
 *
 * <p>Where k8gb misreads, Cairn differs: a destination host written as a cluster name ({@code
 * reviews.prod.svc.cluster.local}) is the Service {@code reviews} of {@code prod} (k8gb looked for
 * a Service of that whole name in the VirtualService's namespace, never found it and counted the
 * host unhealthy); any other dotted destination host is an external host (a ServiceEntry) whose
 * health is not known; a gateway written without a namespace is in the VirtualService's namespace,
 * as Istio reads it (k8gb indexed past the end of its split and crashed).
 */
public final class IstioNormalizer {

  /** The kind of a VirtualService in keys and records. */
  public static final String VIRTUAL_SERVICE = "VirtualService";

  /** Istio's networking API group. */
  public static final String GROUP = "networking.istio.io";

  /** The kind of an Istio Gateway in parent references. */
  public static final String GATEWAY = "Gateway";

  /** The reserved gateway name of the sidecars, which is no ingress gateway. */
  public static final String MESH = "mesh";

  /** The kind of an external destination host in backend references. */
  public static final String SERVICE_ENTRY = "ServiceEntry";

  private IstioNormalizer() {}

  /**
   * Normalises a VirtualService. The load-balancer status is left empty: {@link IstioJoin} fills it
   * from the Service its Gateway selects.
   */
  public static VirtualServiceRecord virtualService(IstioInput.VirtualService input) {
    Problems problems = new Problems();
    Set<String> unreadable = new HashSet<>();
    for (Problem p : input.readProblems()) {
      problems.add(p);
      unreadable.add(p.field());
    }
    Set<String> hostnames = new LinkedHashSet<>();
    for (int i = 0; i < input.hosts().size(); i++) {
      String host = input.hosts().get(i);
      String field = "spec.hosts[" + i + "]";
      if (host == null && unreadable.contains(field)) {
        continue;
      }
      // "*" is Istio's every host: kept, as a wildcard the engine reports and leaves out.
      if ("*".equals(host) || problems.check(Hostnames.checkPattern(field, host))) {
        hostnames.add(host);
      }
    }
    List<BackendRef> backends = new ArrayList<>(input.destinations().size());
    for (IstioInput.Destination destination : input.destinations()) {
      BackendRef ref = backend(destination, problems);
      if (ref != null) {
        backends.add(ref);
      }
    }
    List<RouteState.ParentRef> parents = new ArrayList<>(1);
    List<String> parentFields = new ArrayList<>(1);
    for (int i = 0; i < input.gateways().size(); i++) {
      if (input.gateways().get(i) == null && unreadable.contains("spec.gateways[" + i + "]")) {
        continue;
      }
      RouteState.ParentRef parent = gateway(input.gateways().get(i));
      if (parent == INVALID) {
        problems.add(
            "spec.gateways[" + i + "]",
            input.gateways().get(i),
            "not a gateway name (<name> or <namespace>/<name>); it is left out");
      } else if (parent != null && !parents.contains(parent)) {
        parents.add(parent);
        parentFields.add("spec.gateways[" + i + "]");
      }
    }
    Meta meta = input.meta();
    RouteState route =
        new RouteState(
            VIRTUAL_SERVICE,
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
            meta.controller(),
            meta.labels(),
            parents);
    return new VirtualServiceRecord(route, parentFields);
  }

  /**
   * A VirtualService as the watcher keeps it before the join.
   *
   * @param route the record without load-balancer status
   * @param parentFields for each of {@code route.parentRefs()}, the {@code spec.gateways} item it
   *     was read from, for problems
   */
  public record VirtualServiceRecord(RouteState route, List<String> parentFields) {
    public VirtualServiceRecord {
      parentFields = List.copyOf(parentFields);
    }
  }

  /** Normalises an Istio Gateway: its namespace, name and selector. */
  public static IstioGatewayState gateway(IstioInput.Gateway input) {
    Problems problems = new Problems();
    Set<String> unreadable = new HashSet<>();
    for (Problem p : input.readProblems()) {
      problems.add(p);
      unreadable.add(p.field());
    }
    Map<String, String> selector = new LinkedHashMap<>();
    if (input.selector() != null) {
      input
          .selector()
          .forEach(
              (k, v) -> {
                if (v == null && unreadable.contains("spec.selector[" + k + "]")) {
                  return; // reported as read: another type than a string
                }
                if (k == null || k.isBlank() || v == null) {
                  problems.add(
                      "spec.selector[" + k + "]", v, "not a label and value; it is left out");
                } else {
                  selector.put(k, v);
                }
              });
    }
    Meta meta = input.meta();
    return new IstioGatewayState(meta.namespace(), meta.name(), selector, problems.list());
  }

  /** True when the parent reference is an Istio Gateway (as {@link #virtualService} writes it). */
  public static boolean isIstioGateway(RouteState.ParentRef parent) {
    return GROUP.equals(parent.group()) && GATEWAY.equals(parent.kind());
  }

  /** The key the watcher keeps an Istio Gateway under: {@code IstioGateway/<ns>/<name>}. */
  public static String gatewayKey(RouteState.ParentRef parent, String virtualServiceNamespace) {
    return "IstioGateway/"
        + (parent.namespace() == null ? virtualServiceNamespace : parent.namespace())
        + "/"
        + parent.name();
  }

  private static final RouteState.ParentRef INVALID =
      new RouteState.ParentRef(null, null, null, "", null);

  /** A {@code spec.gateways} item: {@code null} for {@code mesh}, {@link #INVALID} if unusable. */
  private static RouteState.ParentRef gateway(String raw) {
    if (raw == null) {
      return INVALID;
    }
    String text = raw.strip();
    if (text.equals(MESH)) {
      return null;
    }
    int slash = text.indexOf('/');
    String namespace = slash < 0 ? null : text.substring(0, slash);
    String name = slash < 0 ? text : text.substring(slash + 1);
    if (name.isEmpty()
        || name.indexOf('/') >= 0
        || (namespace != null && namespace.isEmpty())
        || !isObjectName(name)
        || (namespace != null && !isObjectName(namespace))) {
      return INVALID;
    }
    return new RouteState.ParentRef(GROUP, GATEWAY, namespace, name, null);
  }

  /**
   * A destination as a backend: a short host is a Service of the VirtualService's namespace, {@code
   * <name>.<ns>.svc[.<cluster domain>]} the Service {@code name} of {@code ns}, any other host an
   * external one.
   */
  private static BackendRef backend(IstioInput.Destination destination, Problems problems) {
    String host = destination.host() == null ? "" : destination.host().strip();
    if (host.isEmpty()) {
      problems.add(
          destination.field() + ".host", destination.host(), "destination has no host; left out");
      return null;
    }
    String[] labels = host.split("\\.", -1);
    if (labels.length == 1) {
      return new BackendRef(null, null, null, host, destination.port(), destination.weight());
    }
    if (labels.length >= 3
        && labels[2].equals("svc")
        && !labels[0].isEmpty()
        && !labels[1].isEmpty()) {
      return new BackendRef(
          null, null, labels[1], labels[0], destination.port(), destination.weight());
    }
    return new BackendRef(
        GROUP, SERVICE_ENTRY, null, host, destination.port(), destination.weight());
  }

  /** A DNS-1123 label or subdomain, as object names and namespaces are. */
  private static boolean isObjectName(String text) {
    if (text.length() > 253) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      if (!alnum && c != '-' && c != '.') {
        return false;
      }
    }
    char first = text.charAt(0);
    char last = text.charAt(text.length() - 1);
    return first != '-' && first != '.' && last != '-' && last != '.';
  }
}
