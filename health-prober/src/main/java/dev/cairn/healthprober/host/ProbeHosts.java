package dev.cairn.healthprober.host;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.LocalTargetsName;
import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.LabelSelectors;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.Problem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which hosts to probe: the hosts of every Gslb, found the way k8gb's reference resolvers find them
 * (k8gb.md §3.1), but from the topology topics only.
 *
 * <ul>
 *   <li>no {@code resourceRef}: the embedded {@code spec.ingress} rule hosts;
 *   <li>{@code resourceRef} to an {@code Ingress}, {@code HTTPRoute}, {@code GRPCRoute}, {@code
 *       TLSRoute} or Istio {@code VirtualService} by name (namespace defaults to the Gslb's): that
 *       route's hostnames from {@code cairn.topology.routes} (a VirtualService's {@code
 *       spec.hosts});
 *   <li>{@code resourceRef} to a {@code Service}, {@code TCPRoute} or {@code UDPRoute}: the Gslb's
 *       {@code k8gb.io/hostname} annotation;
 *   <li>{@code resourceRef} to one of those kinds by labels: the one route of that kind in the
 *       namespace whose labels the selector matches (none or several: reported, as k8gb requires
 *       exactly one);
 *   <li>other kinds are not on the routes topic: reported.
 * </ul>
 *
 * Every host must be a valid concrete name (no wildcard) whose {@code localtargets-} name still
 * fits in a 63-octet label (k8gb issue 2366). When load-balanced zones are configured, only hosts
 * inside one of them (a label-suffix match, not k8gb's substring match) are probed, since only
 * those are delegated to the peers. Pure: no I/O, no clock.
 */
public final class ProbeHosts {

  /** The Gslb annotation naming the host for kinds that have none. */
  public static final String HOSTNAME_ANNOTATION = "k8gb.io/hostname";

  private ProbeHosts() {}

  /**
   * Computes the hosts to probe.
   *
   * @param gslbs every Gslb
   * @param routes every route, for resourceRef resolution
   * @param zones the load-balanced zones; empty means every host is probed
   * @param defaultThreshold the threshold of a Gslb without {@code splitBrainThresholdSeconds}
   */
  public static HostPlan plan(
      Collection<GslbState> gslbs,
      Collection<RouteState> routes,
      Collection<DelegationZone> zones,
      Duration defaultThreshold) {
    Map<String, RouteState> routesByKey = new HashMap<>();
    Map<String, List<RouteState>> routesByGroup = new HashMap<>();
    for (RouteState r : routes) {
      routesByKey.put(r.ref().key(), r);
      routesByGroup.computeIfAbsent(group(r.kind(), r.namespace()), g -> new ArrayList<>()).add(r);
    }
    TreeMap<String, NavigableSet<Duration>> thresholds = new TreeMap<>();
    List<Finding> findings = new ArrayList<>();
    List<GslbState> sorted = new ArrayList<>(gslbs);
    sorted.sort((a, b) -> a.ref().key().compareTo(b.ref().key()));
    for (GslbState gslb : sorted) {
      String object = gslb.ref().key();
      Duration threshold = threshold(gslb, defaultThreshold);
      for (Candidate c : candidates(gslb, routesByKey, routesByGroup, findings)) {
        Optional<Problem> problem = checkHost(c.field(), c.host(), zones);
        if (problem.isPresent()) {
          findings.add(new Finding(object, problem.get()));
          continue;
        }
        thresholds
            .computeIfAbsent(Hostnames.normalise(c.host()), h -> new TreeSet<>())
            .add(threshold);
      }
    }
    return new HostPlan(thresholds, findings);
  }

  /** The threshold of a Gslb: its {@code splitBrainThresholdSeconds} when positive. */
  static Duration threshold(GslbState gslb, Duration defaultThreshold) {
    Integer seconds = gslb.strategy() == null ? null : gslb.strategy().splitBrainThresholdSeconds();
    return seconds == null || seconds <= 0 ? defaultThreshold : Duration.ofSeconds(seconds);
  }

  /** The hosts of one Gslb as written, each with the field it came from. */
  static List<Candidate> candidates(
      GslbState gslb,
      Map<String, RouteState> routesByKey,
      Map<String, List<RouteState>> routesByGroup,
      List<Finding> findings) {
    String object = gslb.ref().key();
    GslbResourceRef ref = gslb.resourceRef();
    List<Candidate> out = new ArrayList<>();
    if (ref == null) {
      for (int i = 0; i < gslb.ingressRules().size(); i++) {
        String host = gslb.ingressRules().get(i).host();
        String field = "spec.ingress.rules[" + i + "].host";
        if (host == null || host.isEmpty()) {
          findings.add(
              new Finding(object, new Problem(field, host, "rule has no host, nothing to probe")));
        } else {
          out.add(new Candidate(field, host));
        }
      }
      if (gslb.ingressRules().isEmpty()) {
        findings.add(
            new Finding(
                object,
                new Problem(
                    "spec", null, "neither spec.resourceRef nor spec.ingress rules: no hosts")));
      }
      return out;
    }
    String kind = ref.kind() == null ? "" : ref.kind();
    switch (kind) {
      case "Ingress", "HTTPRoute", "GRPCRoute", "TLSRoute", "VirtualService" -> {
        String namespace =
            ref.namespace() == null || ref.namespace().isBlank()
                ? gslb.namespace()
                : ref.namespace();
        String name = ref.name();
        if (name == null || name.isBlank()) {
          if (!LabelSelectors.selectsByLabels(ref)) {
            findings.add(
                new Finding(object, new Problem("spec.resourceRef.name", name, "names no object")));
            return out;
          }
          String selector = LabelSelectors.describe(ref);
          List<RouteState> selected =
              LabelSelectors.select(
                  ref,
                  routesByGroup.getOrDefault(group(kind, namespace), List.of()),
                  RouteState::labels,
                  RouteState::name);
          if (selected.size() != 1) {
            findings.add(
                new Finding(
                    object,
                    new Problem(
                        "spec.resourceRef",
                        selector,
                        "selects "
                            + selected.size()
                            + " "
                            + kind
                            + " objects in namespace "
                            + namespace
                            + " on the routes topic; it must select exactly one")));
            return out;
          }
          name = selected.get(0).name();
        }
        String key = ObjectRef.of(kind, namespace, name).key();
        RouteState route = routesByKey.get(key);
        if (route == null) {
          findings.add(
              new Finding(
                  object,
                  new Problem(
                      "spec.resourceRef",
                      key,
                      "the referenced " + kind + " is not on the routes topic (yet)")));
          return out;
        }
        String field = "VirtualService".equals(kind) ? " spec.hosts[" : " spec.hostnames[";
        for (int i = 0; i < route.hostnames().size(); i++) {
          out.add(new Candidate(key + field + i + "]", route.hostnames().get(i)));
        }
        if (route.hostnames().isEmpty()) {
          findings.add(
              new Finding(
                  object,
                  new Problem(
                      "spec.resourceRef", key, "the referenced " + kind + " has no hosts")));
        }
      }
      case "Service", "TCPRoute", "UDPRoute" -> {
        String field = "metadata.annotations[" + HOSTNAME_ANNOTATION + "]";
        String host = gslb.annotations().get(HOSTNAME_ANNOTATION);
        if (host == null || host.isBlank()) {
          findings.add(
              new Finding(
                  object,
                  new Problem(
                      field,
                      host,
                      "a resourceRef to a "
                          + kind
                          + " needs the "
                          + HOSTNAME_ANNOTATION
                          + " annotation")));
        } else {
          out.add(new Candidate(field, host.strip()));
        }
      }
      default ->
          findings.add(
              new Finding(
                  object,
                  new Problem(
                      "spec.resourceRef.kind",
                      kind,
                      "not supported by the prober: only Ingress, HTTPRoute, GRPCRoute,"
                          + " TLSRoute, VirtualService, Service, TCPRoute and UDPRoute have hosts"
                          + " on the topology topics")));
    }
    return out;
  }

  private static String group(String kind, String namespace) {
    return kind + "/" + namespace;
  }

  /** Checks one host: a concrete valid name, in a zone, whose localtargets name fits. */
  static Optional<Problem> checkHost(String field, String host, Collection<DelegationZone> zones) {
    if (host.startsWith("*")) {
      return Optional.of(
          new Problem(field, host, "a wildcard host has no localtargets record to probe"));
    }
    Optional<Problem> invalid = Hostnames.check(field, host);
    if (invalid.isPresent()) {
      return invalid;
    }
    String name = Hostnames.normalise(host);
    int firstLabel = name.indexOf('.') < 0 ? name.length() : name.indexOf('.');
    if (LocalTargetsName.PREFIX.length() + firstLabel > Hostnames.MAX_LABEL) {
      return Optional.of(
          new Problem(
              field,
              host,
              "the label of "
                  + LocalTargetsName.PREFIX
                  + "<host> would be "
                  + (LocalTargetsName.PREFIX.length() + firstLabel)
                  + " octets, more than "
                  + Hostnames.MAX_LABEL));
    }
    if (name.length() + LocalTargetsName.PREFIX.length() > Hostnames.MAX_NAME) {
      return Optional.of(
          new Problem(field, host, "the name " + LocalTargetsName.PREFIX + "<host> is too long"));
    }
    if (!zones.isEmpty()
        && zones.stream().noneMatch(z -> Hostnames.isInZone(name, z.loadBalancedZone()))) {
      return Optional.of(
          new Problem(field, host, "not inside any load-balanced zone of prober.delegation.zones"));
    }
    return Optional.empty();
  }

  /** The name to query at a peer for a host. */
  public static String localTargetsName(String host) {
    return LocalTargetsName.PREFIX + host;
  }

  record Candidate(String field, String host) {}
}
