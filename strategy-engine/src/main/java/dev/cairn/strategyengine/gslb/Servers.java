package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.LabelSelectors;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.strategyengine.placement.CanonicalText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The hosts of a Gslb and the Services behind each (k8gb's servers, k8gb.md §3.1), found from the
 * resourceRef or the embedded ingress, with the hosts outside the load-balanced zones left out.
 *
 * @param kind what supplies the hosts
 * @param route the referenced Ingress, Gateway API route or VirtualService, {@code null} otherwise
 *     or when not found
 * @param service the referenced Service, {@code null} otherwise or when not found
 * @param serviceKey the referenced Service's key, {@code null} unless the kind is a Service
 * @param hosts the hosts (normalised), where each was found and its Services, sorted by host
 */
record Servers(
    Kind kind, RouteState route, ServiceState service, String serviceKey, List<Server> hosts) {

  /**
   * One host.
   *
   * @param host the host, normalised
   * @param field where the host was first found, for problems
   * @param services the keys ({@code Service/<ns>/<name>}) of the Services behind it, in order
   * @param refs the same Services as status references, in the same order
   */
  record Server(
      String host, String field, List<String> services, List<GslbStatus.ServiceRef> refs) {
    Server {
      services = List.copyOf(services);
      refs = List.copyOf(refs);
    }

    /** This host with more Services: the union, in order of first appearance. */
    Server with(Backends more) {
      List<String> keys = new ArrayList<>(services);
      List<GslbStatus.ServiceRef> moreRefs = new ArrayList<>(refs);
      for (int i = 0; i < more.keys().size(); i++) {
        if (!keys.contains(more.keys().get(i))) {
          keys.add(more.keys().get(i));
          moreRefs.add(more.refs().get(i));
        }
      }
      return new Server(host, field, keys, moreRefs);
    }
  }

  /**
   * The Services behind a host, as keys and as status references in the same order.
   *
   * @param keys {@code Service/<ns>/<name>}, without duplicates
   * @param refs the same as references
   */
  record Backends(List<String> keys, List<GslbStatus.ServiceRef> refs) {
    static Backends of(String namespace, String name) {
      return new Backends(
          List.of("Service/" + namespace + "/" + name),
          List.of(new GslbStatus.ServiceRef(namespace, name)));
    }

    /**
     * Those of these Services that {@code backends} name, in the order {@code backends} name them:
     * what is left out of these (not a Service, another namespace) is left out here too.
     */
    Backends subset(String namespace, List<BackendRef> backends) {
      List<String> subsetKeys = new ArrayList<>(backends.size());
      List<GslbStatus.ServiceRef> subsetRefs = new ArrayList<>(backends.size());
      for (BackendRef ref : backends) {
        if (!ref.isService()) {
          continue;
        }
        String backendNamespace =
            ref.namespace() == null || ref.namespace().isEmpty() ? namespace : ref.namespace();
        String key = "Service/" + backendNamespace + "/" + ref.name().strip();
        int at = keys.indexOf(key);
        if (at >= 0 && !subsetKeys.contains(key)) {
          subsetKeys.add(key);
          subsetRefs.add(refs.get(at));
        }
      }
      return new Backends(List.copyOf(subsetKeys), List.copyOf(subsetRefs));
    }
  }

  /** What supplies a Gslb's hosts. */
  enum Kind {
    EMBEDDED_INGRESS("embedded spec.ingress"),
    INGRESS("Ingress"),
    HTTP_ROUTE("HTTPRoute"),
    GRPC_ROUTE("GRPCRoute"),
    TLS_ROUTE("TLSRoute"),
    TCP_ROUTE("TCPRoute"),
    UDP_ROUTE("UDPRoute"),
    /**
     * An Istio VirtualService: its {@code spec.hosts}, every route destination behind each, and the
     * load-balancer status of the Service its one Istio Gateway selects, which the topology-watcher
     * joins into its record.
     */
    VIRTUAL_SERVICE("VirtualService"),
    SERVICE("Service");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    String label() {
      return label;
    }

    /** A Gateway API route: backendRefs and a parent Gateway (host names but for TCP and UDP). */
    boolean isGatewayRoute() {
      return this == HTTP_ROUTE
          || this == GRPC_ROUTE
          || this == TLS_ROUTE
          || this == TCP_ROUTE
          || this == UDP_ROUTE;
    }

    /** A TCPRoute or UDPRoute: no host names; the Gslb's {@code k8gb.io/hostname} gives it. */
    boolean hostFromAnnotation() {
      return this == TCP_ROUTE || this == UDP_ROUTE;
    }

    /** The kind of a Gateway API route's {@code kind}, {@code null} for any other. */
    static Kind gatewayRoute(String kind) {
      for (Kind k : values()) {
        if (k.isGatewayRoute() && k.label.equals(kind)) {
          return k;
        }
      }
      return null;
    }
  }

  private static final Comparator<Server> BY_HOST = (a, b) -> a.host().compareTo(b.host());

  static final String INGRESS_GROUP = "networking.k8s.io/";
  static final String GATEWAY_GROUP = "gateway.networking.k8s.io/";
  static final String ISTIO_GROUP = "networking.istio.io/";

  Servers {
    hosts = List.copyOf(hosts);
  }

  /** The hosts, joined with {@code ", "} as k8gb writes them in the status. */
  String hostList() {
    if (hosts.size() == 1) {
      return hosts.get(0).host();
    }
    StringBuilder text = new StringBuilder(40 * hosts.size());
    for (Server server : hosts) {
      text.append(text.length() == 0 ? "" : ", ").append(server.host());
    }
    return text.toString();
  }

  /**
   * Finds the servers of a Gslb. Blocking problems (an unsupported or unusable resourceRef, every
   * host outside the zones) and notes (a host left out) go to {@code findings}.
   *
   * @return the servers, {@code null} when the resourceRef cannot be used
   */
  static Servers resolve(GslbState gslb, GslbView view, GslbSettings settings, Findings findings) {
    Collector collector = new Collector(settings, findings);
    GslbResourceRef ref = gslb.resourceRef();
    if (ref == null) {
      if (gslb.ingressRules().isEmpty()) {
        findings.block(
            new Problem(
                "spec",
                null,
                "neither spec.resourceRef nor spec.ingress.rules is set; nothing to balance"));
        return null;
      }
      List<GslbState.IngressRule> rules = gslb.ingressRules();
      for (int i = 0; i < rules.size(); i++) {
        GslbState.IngressRule rule = rules.get(i);
        String field = "spec.ingress.rules[" + i + "]";
        collector.add(
            field + ".host",
            rule.host(),
            collector.services(field, gslb.namespace(), rule.backends()));
      }
      // The Ingress created from spec.ingress is read by LocalTargets, and only when no source
      // before it (the annotation, the override) gives the local targets.
      return collector.finish(Kind.EMBEDDED_INGRESS, null, null, null, "spec.ingress.rules");
    }
    String name = ref.name() == null ? "" : ref.name().strip();
    boolean selecting = name.isEmpty() && LabelSelectors.selectsByLabels(ref);
    if (name.isEmpty() && !selecting) {
      findings.block(new Problem("spec.resourceRef.name", ref.name(), "names no object"));
      return null;
    }
    String namespace =
        ref.namespace() == null || ref.namespace().isBlank()
            ? gslb.namespace()
            : ref.namespace().strip();
    if (!namespace.equals(gslb.namespace())) {
      findings.block(
          new Problem(
              "spec.resourceRef.namespace",
              ref.namespace(),
              "a resourceRef in another namespace than the Gslb's ("
                  + gslb.namespace()
                  + ") is not supported: the engine joins a Gslb with the objects of its own"
                  + " namespace"));
      return null;
    }
    String kind = ref.kind() == null ? "" : ref.kind();
    String apiVersion = ref.apiVersion();
    return switch (kind) {
      case "Ingress" -> {
        if (!apiVersionIs(apiVersion, INGRESS_GROUP, findings)) {
          yield null;
        }
        if (selecting) {
          name = selectRoute(Kind.INGRESS, ref, namespace, view, findings);
          if (name == null) {
            yield selectedNothing(Kind.INGRESS, collector);
          }
        }
        yield fromRoute(Kind.INGRESS, "Ingress/" + namespace + "/" + name, view, collector);
      }
      case "HTTPRoute", "GRPCRoute", "TLSRoute", "TCPRoute", "UDPRoute" -> {
        if (!apiVersionIs(apiVersion, GATEWAY_GROUP, findings)) {
          yield null;
        }
        Kind routeKind = Kind.gatewayRoute(kind);
        if (selecting) {
          name = selectRoute(routeKind, ref, namespace, view, findings);
          if (name == null) {
            yield selectedNothing(routeKind, collector);
          }
        }
        yield routeKind.hostFromAnnotation()
            ? fromHostlessRoute(
                routeKind, kind + "/" + namespace + "/" + name, gslb, view, collector)
            : fromRoute(routeKind, kind + "/" + namespace + "/" + name, view, collector);
      }
      case "VirtualService" -> {
        if (!apiVersionIs(apiVersion, ISTIO_GROUP, findings)) {
          yield null;
        }
        if (selecting) {
          name = selectRoute(Kind.VIRTUAL_SERVICE, ref, namespace, view, findings);
          if (name == null) {
            yield selectedNothing(Kind.VIRTUAL_SERVICE, collector);
          }
        }
        yield fromRoute(
            Kind.VIRTUAL_SERVICE, "VirtualService/" + namespace + "/" + name, view, collector);
      }
      case "Service" -> {
        if (apiVersion != null && !apiVersion.isEmpty() && !"v1".equals(apiVersion)) {
          findings.block(
              new Problem(
                  "spec.resourceRef.apiVersion",
                  apiVersion,
                  "a Service resourceRef has apiVersion v1"));
          yield null;
        }
        if (selecting) {
          findings.selection = "Service/" + namespace;
          List<ServiceState> selected =
              LabelSelectors.select(
                  ref, view.services(namespace), ServiceState::labels, ServiceState::name);
          name = chosen(Kind.SERVICE, ref, namespace, selected, ServiceState::name, findings);
          if (name == null) {
            yield selectedNothing(Kind.SERVICE, collector);
          }
        }
        yield fromService(gslb, namespace, name, view, collector, findings);
      }
      default -> {
        findings.block(
            new Problem(
                "spec.resourceRef.kind",
                ref.kind(),
                "not supported; the resourceRef must name an Ingress, a Service, a Gateway API"
                    + " route (HTTPRoute, GRPCRoute, TLSRoute, TCPRoute, UDPRoute) or a"
                    + " VirtualService (networking.istio.io)"));
        yield null;
      }
    };
  }

  /**
   * The name of the one route of a kind in the namespace that the selector selects, {@code null}
   * when it selects none (noted) or several (blocking, as k8gb's exactly-one rule).
   */
  private static String selectRoute(
      Kind kind, GslbResourceRef ref, String namespace, GslbView view, Findings findings) {
    findings.selection = kind.label() + "/" + namespace;
    List<RouteState> selected =
        LabelSelectors.select(
            ref, view.routes(kind.label(), namespace), RouteState::labels, RouteState::name);
    return chosen(kind, ref, namespace, selected, RouteState::name, findings);
  }

  private static <T> String chosen(
      Kind kind,
      GslbResourceRef ref,
      String namespace,
      List<T> selected,
      Function<T, String> nameOf,
      Findings findings) {
    String selector = LabelSelectors.describe(ref);
    if (selected.size() == 1) {
      String name = nameOf.apply(selected.get(0));
      findings.fallback(
          "spec.resourceRef selects "
              + kind.label()
              + " "
              + namespace
              + "/"
              + name
              + " by its labels ("
              + selector
              + ")");
      return name;
    }
    if (selected.isEmpty()) {
      findings.skip(
          "spec.resourceRef " + selector,
          "selects no " + kind.label() + " in namespace " + namespace + ", so there is no host");
      // Reported, not blocking, as a named object that does not exist (yet): the user sees it on
      // the Gslb; the object may not be labelled or published yet.
      findings.note(
          new Problem(
              "spec.resourceRef",
              selector,
              "selects no "
                  + kind.label()
                  + " in namespace "
                  + namespace
                  + " that the topology-watcher publishes; no host to balance until one is"
                  + " labelled to match"));
      return null;
    }
    List<String> names = selected.stream().map(nameOf).toList();
    findings.block(
        new Problem(
            "spec.resourceRef",
            selector,
            "selects "
                + selected.size()
                + " "
                + kind.label()
                + " objects in namespace "
                + namespace
                + " ("
                + String.join(", ", names)
                + "); it must select exactly one, as in k8gb: narrow the selector or name the"
                + " object in spec.resourceRef.name"));
    return null;
  }

  /** The servers of a selector that matched nothing (or, blocked, several): no host. */
  private static Servers selectedNothing(Kind kind, Collector collector) {
    if (collector.findings.blocked()) {
      return null;
    }
    return collector.finish(kind, null, null, null, "spec.resourceRef");
  }

  private static Servers fromRoute(Kind kind, String key, GslbView view, Collector collector) {
    Findings findings = collector.findings;
    findings.route = key;
    Optional<RouteState> found = view.route(key);
    if (found.isEmpty()) {
      return notFound(kind, key, collector);
    }
    RouteState route = found.get();
    Backends services = collector.services(key, route.namespace(), route.backends());
    String field =
        kind.isGatewayRoute()
            ? key + " spec.hostnames"
            : kind == Kind.VIRTUAL_SERVICE ? key + " spec.hosts" : key + " hosts";
    List<String> hostnames = route.hostnames();
    if (kind == Kind.INGRESS && !route.rules().isEmpty()) {
      // k8gb.md §3.1: one server per Ingress rule, with the backends of its own paths; the rules
      // of one host add up (k8gb keeps the last rule's alone).
      for (RouteState.Rule rule : route.rules()) {
        collector.add(
            field + "[" + hostnames.indexOf(rule.host()) + "]",
            rule.host(),
            services.subset(route.namespace(), rule.backends()));
      }
    } else {
      // Every backend serves every host name: a Gateway API route, a VirtualService (every route
      // destination serves every host, as in k8gb), or an Ingress published before schema 1.4 (its
      // rules unknown until the watcher publishes it again, which it does at its start).
      for (int i = 0; i < hostnames.size(); i++) {
        collector.add(field + "[" + i + "]", hostnames.get(i), services);
      }
    }
    if (hostnames.isEmpty()) {
      findings.skip(kind.label() + " " + route.namespace() + "/" + route.name(), "has no host");
    }
    return collector.finish(kind, route, null, null, "spec.resourceRef");
  }

  /** A referenced route that is not published (yet): a note, no host, not blocking. */
  private static Servers notFound(Kind kind, String key, Collector collector) {
    Findings findings = collector.findings;
    findings.skip(
        kind.label() + " " + key.substring(key.indexOf('/') + 1),
        "not found: the resourceRef names no published object, so there is no host to"
            + " balance");
    // Reported, not blocking: the object may simply not exist yet. The user sees it on the Gslb
    // (a Warning Event), where the empty status alone would not say why nothing is published.
    findings.note(
        new Problem(
            "spec.resourceRef",
            key,
            "names no "
                + kind.label()
                + " that the topology-watcher publishes (none exists, or it lies outside"
                + " watcher.namespaces or watcher.label-selector); no host to balance until"
                + " it does"));
    return collector.finish(kind, null, null, null, "spec.resourceRef");
  }

  /**
   * A TCPRoute or UDPRoute, which has no host names (k8gb.md §1.2, §3.1): the host is the Gslb's
   * {@code k8gb.io/hostname}, behind every backendRef of the route.
   */
  private static Servers fromHostlessRoute(
      Kind kind, String key, GslbState gslb, GslbView view, Collector collector) {
    Findings findings = collector.findings;
    findings.route = key;
    String field = GslbAnnotations.field(GslbAnnotations.HOSTNAME);
    String host = gslb.annotations().get(GslbAnnotations.HOSTNAME);
    if (host == null || host.isBlank()) {
      findings.block(
          new Problem(
              field,
              host,
              "a Gslb whose resourceRef is a "
                  + kind.label()
                  + " needs its host in this annotation"));
      return null;
    }
    Optional<RouteState> found = view.route(key);
    if (found.isEmpty()) {
      return notFound(kind, key, collector);
    }
    RouteState route = found.get();
    collector.add(field, host, collector.services(key, route.namespace(), route.backends()));
    return collector.finish(kind, route, null, null, field);
  }

  private static Servers fromService(
      GslbState gslb,
      String namespace,
      String name,
      GslbView view,
      Collector collector,
      Findings findings) {
    Backends backends = Backends.of(namespace, name);
    String key = backends.keys().get(0);
    findings.service(key);
    String host = gslb.annotations().get(GslbAnnotations.HOSTNAME);
    if (host == null || host.isBlank()) {
      findings.block(
          new Problem(
              GslbAnnotations.field(GslbAnnotations.HOSTNAME),
              host,
              "a Gslb whose resourceRef is a Service needs its host in this annotation"));
      return null;
    }
    collector.add(GslbAnnotations.field(GslbAnnotations.HOSTNAME), host, backends);
    ServiceState service = view.service(key).orElse(null);
    return collector.finish(
        Kind.SERVICE, null, service, key, GslbAnnotations.field(GslbAnnotations.HOSTNAME));
  }

  private static boolean apiVersionIs(String apiVersion, String group, Findings findings) {
    if (apiVersion == null || apiVersion.isEmpty() || apiVersion.startsWith(group)) {
      return true;
    }
    findings.block(
        new Problem(
            "spec.resourceRef.apiVersion",
            apiVersion,
            "does not match the kind; expected " + group + "<version>"));
    return false;
  }

  /** Gathers hosts and Services, filtering and reporting as it goes. */
  private static final class Collector {

    private final GslbSettings settings;
    private final Findings findings;
    private final List<Server> hosts = new ArrayList<>(2);
    private Map<String, Integer> index;
    private List<String> outside = List.of();

    Collector(GslbSettings settings, Findings findings) {
      this.settings = settings;
      this.findings = findings;
    }

    /** The Services of a list of backends, skipping what cannot be a Service. */
    Backends services(String owner, String namespace, List<BackendRef> backends) {
      List<String> keys = new ArrayList<>(backends.size());
      List<GslbStatus.ServiceRef> refs = new ArrayList<>(backends.size());
      for (int i = 0; i < backends.size(); i++) {
        BackendRef ref = backends.get(i);
        if (!ref.isService()) {
          findings.skip(
              owner + " backend[" + i + "] " + ref.name(),
              "kind "
                  + (ref.group() == null || ref.group().isEmpty() ? "" : ref.group() + "/")
                  + ref.kind()
                  + " is not a core Service; its health is not known");
          continue;
        }
        String backendNamespace =
            ref.namespace() == null || ref.namespace().isEmpty() ? namespace : ref.namespace();
        if (!backendNamespace.equals(namespace)) {
          findings.skip(
              owner + " backend[" + i + "] " + ref.name(),
              "namespace "
                  + backendNamespace
                  + " is not the object's; cross-namespace backends are not supported");
          continue;
        }
        String name = ref.name().strip();
        String key = "Service/" + namespace + "/" + name;
        if (!keys.contains(key)) {
          keys.add(key);
          refs.add(new GslbStatus.ServiceRef(namespace, name));
        }
      }
      return new Backends(List.copyOf(keys), List.copyOf(refs));
    }

    void add(String field, String raw, Backends services) {
      String text = raw == null ? "" : raw.strip();
      if (text.isEmpty()) {
        findings.note(new Problem(field, raw, "the host is empty; it is left out"));
        return;
      }
      if (text.startsWith("*")) {
        findings.note(
            new Problem(
                field,
                raw,
                "a wildcard host cannot be load balanced (no localtargets record can exist for"
                    + " it); it is left out"));
        return;
      }
      String host;
      if (CanonicalText.isCanonicalHostname(text)) {
        host = text;
      } else {
        Optional<Problem> problem = Hostnames.check(field, text);
        if (problem.isPresent()) {
          Problem p = problem.get();
          findings.note(new Problem(p.field(), p.value(), p.reason() + "; the host is left out"));
          return;
        }
        host = Hostnames.normalise(text);
      }
      if (!settings.inZones(host)) {
        if (outside.isEmpty()) {
          outside = new ArrayList<>();
        }
        outside.add(host);
        findings.note(
            new Problem(
                field,
                raw,
                "not in the load-balanced zones "
                    + String.join(", ", settings.zones())
                    + " (engine.gslb.zones); the host is left out"));
        return;
      }
      int known = indexOf(host);
      if (known < 0) {
        hosts.add(new Server(host, field, services.keys(), services.refs()));
        if (index != null) {
          index.put(host, hosts.size() - 1);
        }
      } else {
        hosts.set(known, hosts.get(known).with(services));
      }
      findings.services(services.keys());
    }

    /** Where {@code host} is in {@link #hosts}, -1 if not yet; indexed once there are many. */
    private int indexOf(String host) {
      if (index == null && hosts.size() > 8) {
        index = new HashMap<>();
        for (int i = 0; i < hosts.size(); i++) {
          index.put(hosts.get(i).host(), i);
        }
      }
      if (index != null) {
        return index.getOrDefault(host, -1);
      }
      for (int i = 0; i < hosts.size(); i++) {
        if (hosts.get(i).host().equals(host)) {
          return i;
        }
      }
      return -1;
    }

    Servers finish(
        Kind kind, RouteState route, ServiceState service, String serviceKey, String field) {
      if (hosts.isEmpty() && !outside.isEmpty()) {
        findings.block(
            new Problem(
                field,
                String.join(", ", outside),
                "no host of the Gslb lies in the load-balanced zones "
                    + String.join(", ", settings.zones())
                    + " (engine.gslb.zones)"));
      }
      hosts.sort(BY_HOST);
      return new Servers(kind, route, service, serviceKey, hosts);
    }
  }
}
