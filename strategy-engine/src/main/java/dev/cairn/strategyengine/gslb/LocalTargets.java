package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.IpLiteral.Family;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.strategyengine.placement.AnnotationKeys;
import dev.cairn.strategyengine.placement.Placement;
import dev.cairn.strategyengine.placement.PlacementDecider;
import dev.cairn.strategyengine.placement.PlacementDependencies;
import dev.cairn.strategyengine.placement.PlacementSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * This cluster's targets for a Gslb (the same for every host), in k8gb's precedence (k8gb.md §3.3),
 * IPv4 and IPv6 alike:
 *
 * <ol>
 *   <li>{@code k8gb.io/exposed-hostnames} present: not supported (the engine does no DNS lookups);
 *       a blocking problem;
 *   <li>{@code k8gb.io/exposed-ip-addresses} present (even empty): its comma-separated addresses,
 *       each a strict IP literal (spaces around an item are allowed); any invalid item is a
 *       blocking problem, as in k8gb;
 *   <li>{@code engine.gslb.exposed-ips} set: those addresses;
 *   <li>discovery by the kind of the resourceRef: a Service's load-balancer IPs; for an HTTPRoute
 *       the route's node-aware placement (part 1's {@link PlacementDecider}); nothing for an
 *       Ingress or an embedded ingress, whose load-balancer status the topology does not carry.
 * </ol>
 *
 * @param targets the targets, without duplicates, in the order found
 * @param source where they came from, in words
 * @param placement what the node-aware placement read, {@link PlacementDependencies#NONE} if none
 */
record LocalTargets(TagTargets targets, String source, PlacementDependencies placement) {

  static LocalTargets resolve(
      GslbState gslb,
      Servers servers,
      GslbView view,
      GslbSettings settings,
      PlacementSettings placementSettings,
      Instant now,
      Findings findings) {
    Map<String, String> annotations = gslb.annotations();
    if (annotations.containsKey(GslbAnnotations.EXPOSED_HOSTNAMES)) {
      findings.block(
          new Problem(
              GslbAnnotations.field(GslbAnnotations.EXPOSED_HOSTNAMES),
              annotations.get(GslbAnnotations.EXPOSED_HOSTNAMES),
              "not supported: the engine does no DNS lookups, so host names cannot become local"
                  + " targets; list the addresses in "
                  + GslbAnnotations.EXPOSED_IP_ADDRESSES
                  + " instead"));
      return none("annotation " + GslbAnnotations.EXPOSED_HOSTNAMES + " (not supported)");
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
      case SERVICE -> fromService(servers, findings);
      case HTTP_ROUTE -> fromPlacement(servers.route(), view, placementSettings, now, findings);
      case INGRESS, EMBEDDED_INGRESS -> {
        findings.fallbacks.add(
            "No local targets: the topology does not carry the load-balancer status of "
                + (servers.kind() == Servers.Kind.INGRESS ? "an Ingress" : "an embedded ingress")
                + "; set "
                + GslbAnnotations.EXPOSED_IP_ADDRESSES
                + " on the Gslb or engine.gslb.exposed-ips.");
        yield none("none (" + servers.kind().label() + " load-balancer status is not published)");
      }
    };
  }

  private static LocalTargets none(String source) {
    return new LocalTargets(TagTargets.NONE, source, PlacementDependencies.NONE);
  }

  private static LocalTargets fromAnnotation(String raw, Findings findings) {
    String field = GslbAnnotations.field(GslbAnnotations.EXPOSED_IP_ADDRESSES);
    String source = "annotation " + GslbAnnotations.EXPOSED_IP_ADDRESSES;
    if (raw == null || raw.isBlank()) {
      findings.block(
          new Problem(
              field,
              raw,
              "empty; list the local addresses, or remove the annotation to use the next source"));
      return none(source);
    }
    Builder builder = new Builder();
    String[] items = raw.split(",", -1);
    for (int i = 0; i < items.length; i++) {
      String item = items[i].strip();
      Optional<IpLiteral> ip = IpLiteral.parse(item);
      if (ip.isEmpty()) {
        findings.block(
            new Problem(
                field + "[" + i + "]", items[i], "not a strict IPv4 or IPv6 address literal"));
      } else {
        builder.add(ip.get());
      }
    }
    return new LocalTargets(builder.build(), source, PlacementDependencies.NONE);
  }

  private static LocalTargets fromService(Servers servers, Findings findings) {
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
    Builder builder = new Builder();
    List<String> ips = service.loadBalancerIps();
    for (int i = 0; i < ips.size(); i++) {
      Optional<IpLiteral> ip = IpLiteral.parse(ips.get(i));
      if (ip.isEmpty()) {
        findings.skip(
            "Service " + name + " status.loadBalancer.ingress[].ip '" + ips.get(i) + "'",
            "not a strict IPv4 or IPv6 address literal");
      } else {
        builder.add(ip.get());
      }
    }
    for (String hostname : service.loadBalancerHostnames()) {
      findings.skip(
          "Service " + name + " status.loadBalancer.ingress[].hostname '" + hostname + "'",
          "load-balancer host names are not resolved; set "
              + GslbAnnotations.EXPOSED_IP_ADDRESSES
              + " on the Gslb to publish its addresses");
    }
    return new LocalTargets(builder.build(), source, PlacementDependencies.NONE);
  }

  /**
   * Node-aware mode: the route's own placement, computed by part 1's decider with the engine's
   * placement settings. The route's {@code directdns.meisterlala.dev/enabled} switch is ignored
   * here, so the route's own DNSEndpoint can be switched off when the Gslb owns its names.
   */
  private static LocalTargets fromPlacement(
      RouteState route, GslbView view, PlacementSettings settings, Instant now, Findings findings) {
    if (route == null) {
      return none("node-aware placement (the HTTPRoute is not published)");
    }
    String name = route.namespace() + "/" + route.name();
    String source = "node-aware placement of HTTPRoute " + name;
    RouteState placed = route;
    if (route.annotations().containsKey(AnnotationKeys.ENABLED)) {
      Map<String, String> annotations = new TreeMap<>(route.annotations());
      annotations.remove(AnnotationKeys.ENABLED);
      placed =
          new RouteState(
              route.kind(),
              route.apiVersion(),
              route.namespace(),
              route.name(),
              route.uid(),
              route.hostnames(),
              route.backends(),
              annotations,
              route.problems());
    }
    Map<String, ServiceEndpoints> endpoints = new HashMap<>();
    for (String service : PlacementDecider.serviceNames(placed)) {
      view.endpoints("Service/" + placed.namespace() + "/" + service)
          .ifPresent(found -> endpoints.put(service, found));
    }
    Placement placement =
        PlacementDecider.place(placed, endpoints, view.nodes(), view.resolutions(), settings, now);
    Explanation explanation = placement.decision().explanation();
    findings.zones.addAll(explanation.zones());
    findings.candidateNodes.addAll(explanation.candidateNodes());
    Builder builder = new Builder();
    LinkedHashSet<String> hostTargets = new LinkedHashSet<>();
    for (DnsRecord record : placement.decision().records()) {
      for (String target : record.targets()) {
        Optional<IpLiteral> ip = IpLiteral.parse(target);
        if (ip.isPresent()) {
          builder.add(ip.get());
        } else {
          hostTargets.add(target);
        }
      }
    }
    for (String host : hostTargets) {
      findings.skip(
          "placement target " + host,
          "a host name cannot be a local target; set "
              + AnnotationKeys.RESOLVE_TARGET_HOSTNAMES
              + " so the prober resolves it");
    }
    TagTargets targets = builder.build();
    if (targets.isEmpty()) {
      findings.fallbacks.add(
          "No local targets from the placement of HTTPRoute "
              + name
              + ": "
              + explanation.summary());
    }
    return new LocalTargets(targets, source, placement.dependencies());
  }

  /** Collects canonical addresses per family, without duplicates, in order. */
  private static final class Builder {
    private final LinkedHashSet<String> ipv4 = new LinkedHashSet<>();
    private final LinkedHashSet<String> ipv6 = new LinkedHashSet<>();

    void add(IpLiteral ip) {
      (ip.family() == Family.IPV4 ? ipv4 : ipv6).add(ip.text());
    }

    TagTargets build() {
      return new TagTargets(new ArrayList<>(ipv4), new ArrayList<>(ipv6));
    }
  }
}
