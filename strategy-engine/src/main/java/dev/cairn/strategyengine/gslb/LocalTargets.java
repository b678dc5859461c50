package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.decision.Explanation.Skipped;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.IpLiteral.Family;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.strategyengine.placement.AnnotationKeys;
import dev.cairn.strategyengine.placement.CanonicalText;
import dev.cairn.strategyengine.placement.NodeAwareTargets;
import dev.cairn.strategyengine.placement.PlacementDecider;
import dev.cairn.strategyengine.placement.PlacementDependencies;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.placement.ResolutionLookup;
import dev.cairn.strategyengine.placement.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * This cluster's targets for a Gslb (the same for every host), in k8gb's precedence (k8gb.md §3.3),
 * IPv4 and IPv6 alike:
 *
 * <ol>
 *   <li>{@code k8gb.io/exposed-hostnames} present (even empty): the addresses its host names
 *       resolve to (the health-prober resolves them); an invalid item is a blocking problem;
 *   <li>{@code k8gb.io/exposed-ip-addresses} present (even empty): its comma-separated addresses,
 *       each a strict IP literal (spaces around an item are allowed); any invalid item is a
 *       blocking problem, as in k8gb;
 *   <li>{@code engine.gslb.exposed-ips} set: those addresses;
 *   <li>discovery by the kind of the resourceRef: a Service's or an Ingress's load-balancer IPs and
 *       resolved load-balancer host names; for a Gateway API route the route's node-aware placement
 *       (part 1's {@link PlacementDecider}) or, in Gateway mode, its parent Gateway's addresses;
 *       for a VirtualService the load-balancer status of the Service its one Istio Gateway selects
 *       (the topology-watcher joins it into the VirtualService's record); for an embedded ingress
 *       the load-balancer IPs of the Ingress the record-writer creates from it, named like the
 *       Gslb.
 * </ol>
 *
 * @param targets the targets, without duplicates, in the order found
 * @param source where they came from, in words
 * @param placement what the node-aware placement read, {@link PlacementDependencies#NONE} if none
 */
record LocalTargets(TagTargets targets, String source, PlacementDependencies placement) {

  /** The group of an Istio Gateway, among a VirtualService's parents. */
  static final String ISTIO_GATEWAY_GROUP = "networking.istio.io";

  /**
   * The field prefix of the problems of a VirtualService's Istio Gateway that the topology-watcher
   * puts on the VirtualService's record: {@code IstioGateway <ns>/<name> spec.selector}.
   */
  static final String ISTIO_GATEWAY_FIELD = "IstioGateway ";

  /**
   * The field prefix of the problems of a VirtualService's record that say its Istio Gateway, or
   * the Service the Gateway selects, is not seen: {@code spec.gateways[<i>]}.
   */
  static final String GATEWAY_ENTRY_FIELD = "spec.gateways[";

  static LocalTargets resolve(
      GslbState gslb,
      Servers servers,
      GslbView view,
      GslbSettings settings,
      PlacementSettings placementSettings,
      Instant now,
      Findings findings) {
    Map<String, String> annotations = gslb.annotations();
    RouteTargets routeTargets = RouteTargets.of(annotations, settings, servers, findings);
    StatusHostnames lookups =
        new StatusHostnames(
            view.resolutions(),
            placementSettings.dnsResolver(),
            now,
            placementSettings.resolutionMaxStale());
    if (annotations.containsKey(GslbAnnotations.EXPOSED_HOSTNAMES)) {
      return fromHostnameAnnotation(
          annotations.get(GslbAnnotations.EXPOSED_HOSTNAMES), lookups, findings);
    }
    if (annotations.containsKey(GslbAnnotations.EXPOSED_IP_ADDRESSES)) {
      return fromAnnotation(annotations.get(GslbAnnotations.EXPOSED_IP_ADDRESSES), findings);
    }
    if (!settings.exposedIps().isEmpty()) {
      Builder builder = new Builder();
      settings.exposedIps().forEach(ip -> builder.add(IpLiteral.parse(ip).orElseThrow()));
      return new LocalTargets(
          builder.build(), "engine.gslb.exposed-ips", PlacementDependencies.NONE);
    }
    if (servers == null) {
      return none("none");
    }
    return switch (servers.kind()) {
      case SERVICE -> fromService(servers, lookups, findings);
      case HTTP_ROUTE, GRPC_ROUTE, TLS_ROUTE, TCP_ROUTE, UDP_ROUTE ->
          routeTargets.named(
              routeTargets.mode() == HttpRouteTargets.GATEWAY
                  ? fromGateway(servers.route(), view, lookups, routeTargets, findings)
                  : fromPlacement(servers.route(), view, placementSettings, now, findings));
      case INGRESS -> fromIngress(servers.route(), lookups, findings);
      case VIRTUAL_SERVICE -> fromVirtualService(servers.route(), lookups, findings);
      case EMBEDDED_INGRESS -> {
        // The Ingress the record-writer creates from spec.ingress, named like the Gslb (k8gb.md
        // §1.5): its load-balancer status is read, so the decision depends on it.
        String key = "Ingress/" + gslb.namespace() + "/" + gslb.name();
        findings.route = key;
        yield fromEmbeddedIngress(gslb, view.route(key).orElse(null), lookups, findings);
      }
    };
  }

  /** An Ingress's {@code status.loadBalancer.ingress}: its IPs, then its host names resolved. */
  private static LocalTargets fromIngress(
      RouteState ingress, StatusHostnames lookups, Findings findings) {
    if (ingress == null) {
      return none("load-balancer status of the Ingress (not published)");
    }
    String name = ingress.namespace() + "/" + ingress.name();
    return fromStatus(
        "Ingress " + name,
        ingress.loadBalancerIps(),
        ingress.loadBalancerHostnames(),
        lookups,
        findings);
  }

  /**
   * A VirtualService's load-balancer status: that of the one Service its one Istio Gateway (the
   * {@code spec.gateways} entry other than {@code mesh}) selects with its {@code spec.selector}, as
   * k8gb takes it (k8gb.md §3.1). The topology-watcher makes the join and publishes the Service's
   * status on the VirtualService's record, or the problems of the chain: no Istio Gateway or
   * several, and a Gateway selector that is empty or selects several Services, are refused as in
   * k8gb, so the records the Gslb had stay; a Gateway or Service not seen (yet) gives no local
   * target, noted.
   */
  private static LocalTargets fromVirtualService(
      RouteState vs, StatusHostnames lookups, Findings findings) {
    if (vs == null) {
      return none(
          "load-balancer status of the VirtualService's Istio Gateway (the VirtualService is not"
              + " published)");
    }
    String key = vs.kind() + "/" + vs.namespace() + "/" + vs.name();
    List<RouteState.ParentRef> gateways = new ArrayList<>(1);
    for (RouteState.ParentRef parent : vs.parentRefs()) {
      if (ISTIO_GATEWAY_GROUP.equals(parent.group()) && "Gateway".equals(parent.kind())) {
        gateways.add(parent);
      }
    }
    if (gateways.size() != 1) {
      findings.block(
          new Problem(
              key + " spec.gateways",
              String.valueOf(gateways.size()),
              "names "
                  + gateways.size()
                  + " Istio Gateways other than mesh; the local targets are the load-balancer"
                  + " addresses of the Service that exactly one Istio Gateway selects, as in"
                  + " k8gb"));
      return none("load-balancer status of the VirtualService's Istio Gateway (not exactly one)");
    }
    RouteState.ParentRef gateway = gateways.get(0);
    String gatewayName =
        (gateway.namespace() == null || gateway.namespace().isEmpty()
                ? vs.namespace()
                : gateway.namespace())
            + "/"
            + gateway.name();
    String object = "the Service selected by Istio Gateway " + gatewayName;
    String source = "load-balancer status of " + object;
    boolean refused = false;
    for (Problem problem : vs.problems()) {
      if (problem.field().startsWith(ISTIO_GATEWAY_FIELD)) {
        findings.block(problem);
        refused = true;
      }
    }
    if (refused) {
      return none(source);
    }
    boolean absent = false;
    for (Problem problem : vs.problems()) {
      if (problem.field().startsWith(GATEWAY_ENTRY_FIELD)) {
        findings.note(new Problem(key + " " + problem.field(), problem.value(), problem.reason()));
        absent = true;
      }
    }
    if (absent) {
      findings.fallback(
          "No local targets: Istio Gateway "
              + gatewayName
              + " of VirtualService "
              + vs.namespace()
              + "/"
              + vs.name()
              + ", or the Service it selects, is not seen by the topology-watcher (see the"
              + " problems); no load-balancer address until it is.");
      return none(source + " (not seen)");
    }
    return fromStatus(object, vs.loadBalancerIps(), vs.loadBalancerHostnames(), lookups, findings);
  }

  /**
   * The load-balancer status of the Ingress the record-writer creates from {@code spec.ingress},
   * named like the Gslb (k8gb.md §1.5), when that Ingress is controlled by this Gslb. k8gb read any
   * Ingress of that name (after overwriting its spec); the record-writer leaves a foreign one
   * alone, so its hosts need not be the Gslb's and its addresses are not used.
   */
  private static LocalTargets fromEmbeddedIngress(
      GslbState gslb, RouteState ingress, StatusHostnames lookups, Findings findings) {
    if (ingress != null && !controlledBy(ingress.controller(), gslb)) {
      RouteState.Controller c = ingress.controller();
      findings.fallback(
          "No local targets: the Ingress "
              + ingress.namespace()
              + "/"
              + ingress.name()
              + " is not controlled by this Gslb ("
              + (c == null ? "it has no controller" : "its controller is " + c)
              + "), so its load-balancer status is not used; the record-writer reports the"
              + " conflict on the Gslb (IngressConflict).");
      return none(
          "load-balancer status of the Ingress created from spec.ingress (the Ingress of"
              + " that name is not the Gslb's)");
    }
    if (ingress == null) {
      findings.fallback(
          "No local targets yet: the Ingress created from spec.ingress (named like the Gslb) is not"
              + " published; the record-writer creates it (writer.embedded-ingress.enabled), and"
              + " the topology-watcher publishes it unless watcher.namespaces or"
              + " watcher.label-selector leaves it out.");
      return none("load-balancer status of the Ingress created from spec.ingress (not published)");
    }
    return fromIngress(ingress, lookups, findings);
  }

  /**
   * True when the controller is this Gslb (any version of k8gb.io; the uid when both are known).
   */
  private static boolean controlledBy(RouteState.Controller c, GslbState gslb) {
    return c != null
        && "Gslb".equals(c.kind())
        && c.apiVersion() != null
        && c.apiVersion().startsWith("k8gb.io/")
        && gslb.name().equals(c.name())
        && (c.uid() == null || gslb.uid() == null || c.uid().equals(gslb.uid()));
  }

  private static LocalTargets none(String source) {
    return new LocalTargets(TagTargets.NONE, source, PlacementDependencies.NONE);
  }

  private static LocalTargets fromAnnotation(String raw, Findings findings) {
    String source = "annotation " + GslbAnnotations.EXPOSED_IP_ADDRESSES;
    if (raw == null || raw.isBlank()) {
      findings.block(
          new Problem(
              GslbAnnotations.field(GslbAnnotations.EXPOSED_IP_ADDRESSES),
              raw,
              "empty; list the local addresses, or remove the annotation to use the next source"));
      return none(source);
    }
    Builder builder = new Builder();
    // the comma-separated items, as raw.split(",", -1) gives them
    int start = 0;
    for (int i = 0; start <= raw.length(); i++) {
      int comma = raw.indexOf(',', start);
      int end = comma < 0 ? raw.length() : comma;
      String rawItem = start == 0 && end == raw.length() ? raw : raw.substring(start, end);
      String item = rawItem.strip();
      start = end + 1;
      if (CanonicalText.isCanonicalIpv4(item)) {
        builder.addIpv4(item);
        continue;
      }
      Optional<IpLiteral> ip = IpLiteral.parse(item);
      if (ip.isEmpty()) {
        findings.block(
            new Problem(
                GslbAnnotations.field(GslbAnnotations.EXPOSED_IP_ADDRESSES) + "[" + i + "]",
                rawItem,
                "not a strict IPv4 or IPv6 address literal"));
      } else {
        builder.add(ip.get());
      }
    }
    return new LocalTargets(builder.build(), source, PlacementDependencies.NONE);
  }

  private static LocalTargets fromService(
      Servers servers, StatusHostnames lookups, Findings findings) {
    if (servers.serviceKey() == null) {
      // A label selector that selects no Service: there is nothing to read (and no host).
      return none("load-balancer status of the Service (none selected)");
    }
    ServiceState service = servers.service();
    String name = servers.serviceKey().substring("Service/".length());
    String source = "load-balancer status of Service " + name;
    if (service == null) {
      findings.skip("Service " + name, "not found: no load-balancer address to publish");
      return none(source);
    }
    if (!"LoadBalancer".equals(service.type())) {
      findings.note(
          new Problem(
              servers.serviceKey() + " spec.type",
              service.type(),
              "a Gslb's Service must be of type LoadBalancer; it has no load-balancer address to"
                  + " publish"));
      return none(source);
    }
    return fromStatus(
        "Service " + name,
        service.loadBalancerIps(),
        service.loadBalancerHostnames(),
        lookups,
        findings);
  }

  /**
   * How a load-balancer host name becomes addresses: the health-prober resolves every such name
   * through its default resolver ({@code prober.resolve-load-balancer-hostnames}) and publishes the
   * answer, which the engine reads under {@code <engine.dns-resolver>|<host name>}.
   */
  private record StatusHostnames(
      ResolutionLookup resolutions, String server, Instant now, Duration maxStale) {}

  /**
   * The addresses of a {@code status.loadBalancer.ingress} list (a Service's, an Ingress's, or a
   * VirtualService's Gateway Service's), in status order: the IPs as they are, then each host
   * name's resolved addresses (A and AAAA, as the prober published them), as k8gb resolves them
   * through its edge DNS servers (k8gb.md §3.2). A host name not resolved yet, or whose resolution
   * is unusable, is listed as skipped.
   */
  private static LocalTargets fromStatus(
      String object,
      List<String> ips,
      List<String> hostnames,
      StatusHostnames lookups,
      Findings findings) {
    String field = object + " status.loadBalancer.ingress[]";
    return fromAddresses(
        "load-balancer status of " + object,
        field + ".ip",
        field + ".hostname",
        ips,
        hostnames,
        lookups,
        findings);
  }

  /**
   * Local targets from a list of IPs then a list of host names (resolved), each invalid entry
   * listed as skipped under its field.
   */
  private static LocalTargets fromAddresses(
      String source,
      String ipField,
      String hostnameField,
      List<String> ips,
      List<String> hostnames,
      StatusHostnames lookups,
      Findings findings) {
    Builder builder = new Builder();
    for (String raw : ips) {
      Optional<IpLiteral> ip = IpLiteral.parse(raw);
      if (ip.isEmpty()) {
        findings.skip(ipField + " '" + raw + "'", "not a strict IPv4 or IPv6 address literal");
      } else {
        builder.add(ip.get());
      }
    }
    List<String> keys = hostnames.isEmpty() ? List.of() : new ArrayList<>(hostnames.size());
    for (String hostname : hostnames) {
      String subject = hostnameField + " '" + hostname + "'";
      if (Hostnames.check("hostname", hostname).isPresent()) {
        findings.skip(subject, "not a valid host name");
        continue;
      }
      addResolved(subject, hostname, lookups, builder, keys, findings);
    }
    return new LocalTargets(builder.build(), source, dependencies(keys));
  }

  /**
   * k8gb's {@code k8gb.io/exposed-hostnames}: comma-separated host names whose addresses are the
   * local targets, resolved as load-balancer host names are (the health-prober resolves every
   * Gslb's). An empty value or an item that is no valid host name blocks the decision, as an
   * invalid {@code exposed-ip-addresses} item does; a name without a usable resolution is skipped.
   */
  private static LocalTargets fromHostnameAnnotation(
      String raw, StatusHostnames lookups, Findings findings) {
    String annotation = GslbAnnotations.EXPOSED_HOSTNAMES;
    String source = "annotation " + annotation;
    if (raw == null || raw.isBlank()) {
      findings.block(
          new Problem(
              GslbAnnotations.field(annotation),
              raw,
              "empty; list the load balancers' host names, or remove the annotation to use the"
                  + " next source"));
      return none(source);
    }
    String[] items = raw.split(",", -1);
    Builder builder = new Builder();
    List<String> keys = new ArrayList<>(items.length);
    for (int i = 0; i < items.length; i++) {
      String item = items[i].strip();
      Optional<Problem> problem =
          Hostnames.check(GslbAnnotations.field(annotation) + "[" + i + "]", item);
      if (problem.isPresent()) {
        findings.block(new Problem(problem.get().field(), items[i], problem.get().reason()));
        continue;
      }
      addResolved(source + " '" + item + "'", item, lookups, builder, keys, findings);
    }
    return new LocalTargets(builder.build(), source, dependencies(keys));
  }

  /**
   * Adds the addresses of a valid host name's published resolution, or lists it as skipped with the
   * reason; its key joins {@code keys} either way, so a new answer re-decides the Gslb.
   */
  private static void addResolved(
      String subject,
      String hostname,
      StatusHostnames lookups,
      Builder builder,
      List<String> keys,
      Findings findings) {
    String key = ResolutionLookup.key(lookups.server(), Hostnames.normalise(hostname));
    keys.add(key);
    Optional<HostnameResolution> found = lookups.resolutions().find(key);
    if (found.isEmpty()) {
      findings.skip(
          subject,
          "not resolved yet: no resolution through "
              + lookups.server()
              + " has been published (the health-prober resolves it with"
              + " prober.resolve-load-balancer-hostnames through prober.default-resolver, which"
              + " must equal engine.dns-resolver)");
      return;
    }
    HostnameResolution resolution = found.get();
    String unusable =
        PlacementDecider.unusableResolution(
            resolution, lookups.server(), lookups.now(), lookups.maxStale());
    if (unusable != null) {
      findings.skip(subject, "not used: " + unusable);
      return;
    }
    List<String> added = new ArrayList<>(2);
    for (String answer : concat(resolution.ipv4(), resolution.ipv6())) {
      Optional<IpLiteral> ip = IpLiteral.parse(answer);
      if (ip.isPresent()) {
        builder.add(ip.get());
        added.add(ip.get().text());
      }
    }
    findings.fallback(
        "Resolved "
            + subject
            + " through "
            + lookups.server()
            + ": "
            + String.join(", ", added)
            + (resolution.stale()
                ? " (the last good answer; the latest lookup ended with "
                    + resolution.status()
                    + ")"
                : ""));
  }

  private static PlacementDependencies dependencies(List<String> resolutionKeys) {
    return resolutionKeys.isEmpty()
        ? PlacementDependencies.NONE
        : new PlacementDependencies(List.of(), List.of(), List.of(), false, resolutionKeys);
  }

  private static List<String> concat(List<String> a, List<String> b) {
    if (b.isEmpty()) {
      return a;
    }
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /**
   * Where the local targets of a Gslb on a Gateway API route come from, and what set it: its
   * {@value GslbAnnotations#HTTP_ROUTE_TARGETS} when present, else {@code
   * engine.gslb.http-route-targets}.
   *
   * @param mode the mode
   * @param annotated whether the Gslb's annotation set it
   */
  private record RouteTargets(HttpRouteTargets mode, boolean annotated) {

    /**
     * Reads the annotation. A value other than {@code node-aware} or {@code gateway} blocks the
     * decision (the records stay, as for any invalid annotation: neither mode can be assumed); the
     * annotation on a Gslb whose resourceRef is not a Gateway API route is noted as having no
     * effect.
     */
    static RouteTargets of(
        Map<String, String> annotations,
        GslbSettings settings,
        Servers servers,
        Findings findings) {
      String raw = annotations.get(GslbAnnotations.HTTP_ROUTE_TARGETS);
      if (raw == null) {
        return new RouteTargets(settings.httpRouteTargets(), false);
      }
      String field = GslbAnnotations.field(GslbAnnotations.HTTP_ROUTE_TARGETS);
      Optional<HttpRouteTargets> parsed = HttpRouteTargets.parse(raw);
      if (parsed.isEmpty()) {
        findings.block(
            new Problem(
                field,
                raw,
                "must be node-aware (the route's placement on its ingress nodes) or gateway (the"
                    + " addresses of its one parent Gateway, as in k8gb)"));
        return new RouteTargets(settings.httpRouteTargets(), false);
      }
      if (servers != null && !servers.kind().isGatewayRoute()) {
        findings.note(
            new Problem(
                field, raw, "has no effect: the Gslb's resourceRef is not a Gateway API route"));
      }
      return new RouteTargets(parsed.get(), true);
    }

    /** What chose the mode, for problems: the annotation or the setting, with the value. */
    String setBy() {
      return annotated
          ? GslbAnnotations.HTTP_ROUTE_TARGETS + ": " + mode.text()
          : "engine.gslb.http-route-targets=" + mode.text();
    }

    /** {@code targets}, their source naming the annotation when it chose the mode. */
    LocalTargets named(LocalTargets targets) {
      if (!annotated) {
        return targets;
      }
      return new LocalTargets(
          targets.targets(),
          targets.source() + " (" + GslbAnnotations.HTTP_ROUTE_TARGETS + ": " + mode.text() + ")",
          targets.placement());
    }
  }

  /**
   * {@code engine.gslb.http-route-targets: gateway}, or the Gslb's {@value
   * GslbAnnotations#HTTP_ROUTE_TARGETS}: the {@code status.addresses} of the route's one parent
   * Gateway, as k8gb takes them (k8gb.md §3.1): IP addresses as they are, host names resolved by
   * the health-prober. A route with no Gateway parent or several is refused, as in k8gb, so the
   * records it had stay; a Gateway not published (yet) gives no local target.
   */
  private static LocalTargets fromGateway(
      RouteState route,
      GslbView view,
      StatusHostnames lookups,
      RouteTargets routeTargets,
      Findings findings) {
    if (route == null) {
      return none("addresses of the route's Gateway (the route is not published)");
    }
    String name = route.namespace() + "/" + route.name();
    List<RouteState.ParentRef> gateways = new ArrayList<>(1);
    for (RouteState.ParentRef parent : route.parentRefs()) {
      if (parent.isGateway()) {
        gateways.add(parent);
      }
    }
    if (gateways.size() != 1) {
      findings.block(
          new Problem(
              route.kind() + "/" + name + " spec.parentRefs",
              String.valueOf(gateways.size()),
              "has "
                  + gateways.size()
                  + " Gateway parents; with "
                  + routeTargets.setBy()
                  + " the local targets are the addresses of exactly one Gateway, as in k8gb"));
      return none("addresses of the route's Gateway (not exactly one)");
    }
    String key = gateways.get(0).gatewayKey(route.namespace());
    findings.gateway = key;
    String gatewayName = key.substring("Gateway/".length());
    Optional<RouteState> gateway = view.route(key);
    if (gateway.isEmpty()) {
      findings.skip(
          "Gateway " + gatewayName,
          "not published: no address to publish (the topology-watcher publishes Gateways when"
              + " the Gateway API CRDs are installed, from the namespaces it watches:"
              + " watcher.namespaces)");
      return none("addresses of Gateway " + gatewayName + " (not published)");
    }
    RouteState g = gateway.get();
    String field = "Gateway " + gatewayName + " status.addresses[]";
    return fromAddresses(
        "addresses of Gateway " + gatewayName,
        field,
        field,
        g.loadBalancerIps(),
        g.loadBalancerHostnames(),
        lookups,
        findings);
  }

  /**
   * Node-aware mode: the route's own placement, computed by part 1's decider with the engine's
   * placement settings. The route's {@code directdns.meisterlala.dev/enabled} switch is ignored
   * here, so the route's own DNSEndpoint can be switched off when the Gslb owns its names.
   */
  private static LocalTargets fromPlacement(
      RouteState route, GslbView view, PlacementSettings settings, Instant now, Findings findings) {
    if (route == null) {
      return none("node-aware placement (the route is not published)");
    }
    String name = route.namespace() + "/" + route.name();
    String source = "node-aware placement of " + route.kind() + " " + name;
    String services = "Service/" + route.namespace() + "/";
    NodeAwareTargets placement =
        PlacementDecider.nodeAwareTargets(
            route,
            service -> view.endpoints(services + service).orElse(null),
            view.nodes(),
            view.resolutions(),
            settings,
            now);
    findings.zones = placement.zones();
    findings.candidateNodes = placement.candidateNodes();
    for (Skipped skip : placement.skipped()) {
      findings.skip(skip.input(), skip.reason());
    }
    for (Problem problem : placement.problems()) {
      findings.note(problem);
    }
    Builder builder = new Builder();
    for (Target target : placement.targets()) {
      // canonical literals for A and AAAA; a CNAME target is a host name, never an IP literal
      switch (target.type()) {
        case A -> builder.addIpv4(target.value());
        case AAAA -> builder.addIpv6(target.value());
        case CNAME ->
            findings.skip(
                "placement target " + target.value(),
                "a host name cannot be a local target; set "
                    + AnnotationKeys.RESOLVE_TARGET_HOSTNAMES
                    + " so the prober resolves it");
      }
    }
    TagTargets targets = builder.build();
    if (targets.isEmpty()) {
      findings.fallback(
          "No local targets from the placement of "
              + route.kind()
              + " "
              + name
              + ": "
              + placement.summary());
    }
    return new LocalTargets(targets, source, placement.dependencies());
  }

  /** Collects canonical addresses per family, without duplicates, in order. */
  private static final class Builder {
    private final List<String> ipv4 = new ArrayList<>(2);
    private List<String> ipv6 = List.of();

    void add(IpLiteral ip) {
      if (ip.family() == Family.IPV4) {
        addIpv4(ip.text());
      } else {
        addIpv6(ip.text());
      }
    }

    void addIpv4(String canonical) {
      if (!ipv4.contains(canonical)) {
        ipv4.add(canonical);
      }
    }

    void addIpv6(String canonical) {
      if (ipv6.isEmpty()) {
        ipv6 = new ArrayList<>(2);
      }
      if (!ipv6.contains(canonical)) {
        ipv6.add(canonical);
      }
    }

    TagTargets build() {
      return new TagTargets(List.copyOf(ipv4), List.copyOf(ipv6));
    }
  }
}
