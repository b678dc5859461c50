package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.Explanation.Skipped;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.validation.Flags;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.IpLiteral.Family;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.commonmodel.validation.Ttl;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Decides the DNSEndpoint of an HTTPRoute from where its backends run: the k8s-direct-dns reconcile
 * pipeline (direct-dns.md §4–§9) as a pure function, with the original's bugs fixed (see {@code
 * docs/compatibility.md}).
 *
 * <ol>
 *   <li><b>Enabled</b>: {@code directdns.meisterlala.dev/enabled} parsed with {@link Flags#parse}
 *       ({@code false/no/off/0}); false gives {@link Disposition#WITHDRAW}; an unreadable value is
 *       a problem and leaves the route enabled.
 *   <li><b>Hostnames</b>: {@code spec.hostnames} plus the comma-separated {@code
 *       external-dns.alpha.kubernetes.io/hostname}; trimmed, lower-cased, one trailing dot removed,
 *       validated (a leading {@code *} label is allowed), de-duplicated and sorted. Invalid names
 *       are problems. None left: WITHDRAW.
 *   <li><b>Backends</b>: backendRefs to core Services in the route's namespace; others are skipped
 *       with their reason. None: WITHDRAW.
 *   <li><b>Targets</b>: with {@code directdns.meisterlala.dev/target-nodes}, the listed nodes'
 *       targets, never a fallback; otherwise the ingress nodes in the zones of the nodes running
 *       ready endpoints, falling back to all ingress nodes when those give nothing. Node targets
 *       follow {@link NodeTargets}; the IP family filter applies there, before zone selection.
 *   <li><b>Hostname targets</b> are replaced by the prober's {@link HostnameResolution} when the
 *       route resolves them; until one exists they stay CNAME targets.
 *   <li><b>Records</b>: targets de-duplicated; never A/AAAA and CNAME at one name (IP targets win)
 *       and never more than one CNAME target (the lexically smallest is kept). One record per
 *       hostname and type, TTL from {@code directdns.meisterlala.dev/ttl} (default 1).
 * </ol>
 *
 * <p>No usable target gives {@link Disposition#NO_TARGETS} (the record-writer keeps the last
 * records for the grace period); a route that no longer wants a record gives {@link
 * Disposition#WITHDRAW} (delete now, as direct-dns does). The Cairn extension annotation {@code
 * directdns.meisterlala.dev/stale-grace-period} ({@link GoDuration}) sets {@code
 * gracePeriodSeconds}.
 */
public final class PlacementDecider {
  /**
   * Why a published hostname resolution cannot be used now, or {@code null} when its addresses can
   * be: it has no address, the resolver says the name has none now, its latest lookup failed
   * without a last good answer being kept, or the kept answer expired more than {@code maxStale}
   * ago. Shared by node-aware placement and a Gslb's load-balancer host names.
   */
  public static String unusableResolution(
      HostnameResolution resolution, String server, Instant now, Duration maxStale) {
    boolean answers = !resolution.ipv4().isEmpty() || !resolution.ipv6().isEmpty();
    if (!answers) {
      return "its latest lookup through "
          + server
          + " gave no address ("
          + resolution.status()
          + ")";
    }
    if (resolution.status() == ProbeStatus.OK) {
      return null;
    }
    if (resolution.status().reachable()) {
      return "the resolver says the name has no addresses now (" + resolution.status() + ")";
    }
    if (!resolution.stale()) {
      return "its latest lookup failed (" + resolution.status() + ")";
    }
    Instant expiresAt = resolution.expiresAt();
    if (expiresAt != null && now.isAfter(expiresAt.plus(maxStale))) {
      return "its last good answer expired at "
          + expiresAt
          + ", more than "
          + maxStale
          + " ago, and lookups keep failing ("
          + resolution.status()
          + ")";
    }
    return null;
  }

  /** The route kind this decider handles. */
  public static final String HTTP_ROUTE = "HTTPRoute";

  /**
   * The kinds of the other Gateway API routes: no direct-dns record of their own, but a Gslb on one
   * is placed as on an HTTPRoute ({@link #nodeAwareTargets}).
   */
  public static final Set<String> OTHER_GATEWAY_ROUTES =
      Set.of("GRPCRoute", "TLSRoute", "TCPRoute", "UDPRoute");

  /** direct-dns's default record TTL. */
  public static final long DEFAULT_TTL_SECONDS = 1;

  private static final Comparator<NodeState> BY_NAME = (a, b) -> a.name().compareTo(b.name());

  private PlacementDecider() {}

  /**
   * The desired decision for a route.
   *
   * @param route an HTTPRoute
   * @param endpointsByService the endpoints of the route's backend Services, keyed by Service name
   *     (all in the route's namespace); a missing entry means the Service has no endpoints
   * @param nodes the cluster's nodes
   * @param hostnameResolutions the prober's resolutions
   * @param settings the engine settings
   * @param now the evaluation time (only compared with resolution expiry)
   */
  public static TargetDecision decide(
      RouteState route,
      Map<String, ServiceEndpoints> endpointsByService,
      NodeView nodes,
      ResolutionLookup hostnameResolutions,
      PlacementSettings settings,
      Instant now) {
    return place(route, endpointsByService, nodes, hostnameResolutions, settings, now).decision();
  }

  /** Like {@link #decide}, also returning the inputs the decision depended on. */
  public static Placement place(
      RouteState route,
      Map<String, ServiceEndpoints> endpointsByService,
      NodeView nodes,
      ResolutionLookup hostnameResolutions,
      PlacementSettings settings,
      Instant now) {
    checkRoute(route);
    Objects.requireNonNull(endpointsByService, "endpointsByService");
    Run run = run(route, endpointsByService::get, nodes, hostnameResolutions, settings, now, false);
    return run.placement(run.place());
  }

  /**
   * The targets a route's placement chooses, for a Gslb's node-aware local targets: {@link #place}
   * without the route's own DNSEndpoint (its name and records are not built) and with the route's
   * {@link AnnotationKeys#ENABLED} switch ignored, so that the route's own record can be switched
   * off while a Gslb owns its names.
   *
   * @param route an HTTPRoute
   * @param endpoints the endpoints of a backend Service of the route's namespace by name, {@code
   *     null} when the Service has none; asked only for the names {@link #serviceNames} gives
   * @param nodes the cluster's nodes
   * @param hostnameResolutions the prober's resolutions
   * @param settings the engine settings
   * @param now the evaluation time (only compared with resolution expiry)
   */
  public static NodeAwareTargets nodeAwareTargets(
      RouteState route,
      Function<String, ServiceEndpoints> endpoints,
      NodeView nodes,
      ResolutionLookup hostnameResolutions,
      PlacementSettings settings,
      Instant now) {
    Objects.requireNonNull(route, "route");
    if (!HTTP_ROUTE.equals(route.kind()) && !OTHER_GATEWAY_ROUTES.contains(route.kind())) {
      throw new IllegalArgumentException(
          "only Gateway API routes have a node-aware placement, got " + route.ref());
    }
    Objects.requireNonNull(endpoints, "endpoints");
    Run run = run(route, endpoints, nodes, hostnameResolutions, settings, now, true);
    return run.nodeAwareTargets(run.place());
  }

  private static Run run(
      RouteState route,
      Function<String, ServiceEndpoints> endpoints,
      NodeView nodes,
      ResolutionLookup hostnameResolutions,
      PlacementSettings settings,
      Instant now,
      boolean ignoreEnabled) {
    return new Run(
        route,
        endpoints,
        Objects.requireNonNull(nodes, "nodes"),
        Objects.requireNonNull(hostnameResolutions, "hostnameResolutions"),
        Objects.requireNonNull(settings, "settings"),
        Objects.requireNonNull(now, "now"),
        ignoreEnabled);
  }

  private static void checkRoute(RouteState route) {
    Objects.requireNonNull(route, "route");
    if (!HTTP_ROUTE.equals(route.kind())) {
      throw new IllegalArgumentException(
          "only HTTPRoutes get a direct-dns placement, got " + route.ref());
    }
  }

  /**
   * The names of the in-namespace core Services a route's backendRefs point to (direct-dns §4.4),
   * sorted and de-duplicated: the keys {@link #decide} reads from {@code endpointsByService}.
   */
  public static List<String> serviceNames(RouteState route) {
    TreeSet<String> names = new TreeSet<>();
    for (BackendRef ref : route.backends()) {
      if (skipReason(route, ref) == null) {
        names.add(ref.name().strip());
      }
    }
    return List.copyOf(names);
  }

  private static String skipReason(RouteState route, BackendRef ref) {
    if (ref.name() == null || ref.name().isBlank()) {
      return "the backendRef has no name";
    }
    if (ref.group() != null && !ref.group().isEmpty()) {
      return "group '" + ref.group() + "' is not the core group; only core Services are used";
    }
    if (ref.kind() != null && !"Service".equals(ref.kind())) {
      return "kind '" + ref.kind() + "' is not Service";
    }
    if (ref.namespace() != null
        && !ref.namespace().isEmpty()
        && !ref.namespace().equals(route.namespace())) {
      return "namespace '"
          + ref.namespace()
          + "' is not the route's; cross-namespace backends (ReferenceGrant) are not supported";
    }
    return null;
  }

  /** One evaluation: collects the explanation, the problems and the dependencies as it goes. */
  private static final class Run {

    private final RouteState route;
    private final Function<String, ServiceEndpoints> endpoints;
    private final NodeView nodes;
    private final ResolutionLookup resolutions;
    private final PlacementSettings settings;
    private final Instant now;
    private final boolean ignoreEnabled;
    private final Set<Family> families;

    // created on first use: most placements find no problem, skip nothing and take no fallback
    private List<Problem> problems;

    /** How many of {@link #problems}, the first, are the watcher's. */
    private int watcherProblems;

    private List<Skipped> skipped;
    private List<String> fallbacks;
    private final List<String> backends = new ArrayList<>();
    private final TreeSet<String> zones = new TreeSet<>();
    private final LinkedHashSet<String> candidateNodes = new LinkedHashSet<>();

    private final TreeSet<String> depServices = new TreeSet<>();
    private final TreeSet<String> depNodes = new TreeSet<>();
    private TreeSet<String> depResolutions;
    private boolean depFallback;

    private boolean resolve;
    private String server;
    private long ttl = DEFAULT_TTL_SECONDS;
    private Long grace;

    Run(
        RouteState route,
        Function<String, ServiceEndpoints> endpoints,
        NodeView nodes,
        ResolutionLookup resolutions,
        PlacementSettings settings,
        Instant now,
        boolean ignoreEnabled) {
      this.route = route;
      this.endpoints = endpoints;
      this.nodes = nodes;
      this.resolutions = resolutions;
      this.settings = settings;
      this.now = now;
      this.ignoreEnabled = ignoreEnabled;
      this.families = settings.families();
      for (Problem problem : route.problems()) {
        problem(problem);
      }
      this.watcherProblems = problems == null ? 0 : problems.size();
    }

    /** The pipeline; its outcome is packaged by {@link #placement} or {@link #nodeAwareTargets}. */
    Outcome place() {
      String enabled = ignoreEnabled ? null : annotation(AnnotationKeys.ENABLED);
      if (enabled != null && !enabled.isBlank()) {
        Optional<Boolean> parsed = Flags.parse(enabled);
        if (parsed.isEmpty()) {
          problem(
              new Problem(
                  AnnotationKeys.field(AnnotationKeys.ENABLED),
                  enabled,
                  "not a boolean (true/false, yes/no, on/off, 1/0); the route stays enabled"));
        } else if (!parsed.get()) {
          return withdraw(
              "Withdrawn: the route is disabled by "
                  + AnnotationKeys.ENABLED
                  + "='"
                  + enabled
                  + "'.");
        }
      }
      List<String> hostnames = hostnames();
      if (hostnames.isEmpty()) {
        return withdraw(
            "Withdrawn: the route has no valid hostname in spec.hostnames or "
                + AnnotationKeys.EXTERNAL_DNS_HOSTNAME
                + ".");
      }
      List<String> services = backendServices();
      if (services.isEmpty()) {
        return withdraw(
            "Withdrawn: the route has no backendRef to a core Service in namespace "
                + route.namespace()
                + ".");
      }
      ttl = ttl();
      grace = gracePeriod();
      resolutionSettings();
      List<String> pinned = pinnedNodes();
      return pinned.isEmpty() ? placeByZone(hostnames, services) : placePinned(hostnames, pinned);
    }

    /**
     * Adds a problem once. A watcher's problem on the same field and value (both check the
     * annotations) gives way to the engine's, in its place: one report per value, in the words of
     * the rule that was applied.
     */
    private void problem(Problem problem) {
      if (problems == null) {
        problems = new ArrayList<>();
      }
      for (int i = 0; i < problems.size(); i++) {
        Problem p = problems.get(i);
        if (p.equals(problem)) {
          return;
        }
        if (i < watcherProblems && p.sameFieldAndValue(problem)) {
          problems.set(i, problem);
          return;
        }
      }
      problems.add(problem);
    }

    private void skip(Skipped skip) {
      if (skipped == null) {
        skipped = new ArrayList<>();
      }
      skipped.add(skip);
    }

    private void fallback(String line) {
      if (fallbacks == null) {
        fallbacks = new ArrayList<>(1);
      }
      fallbacks.add(line);
    }

    // ---------------------------------------------------------------- inputs of the route

    private String annotation(String key) {
      return route.annotations().get(key);
    }

    private List<String> hostnames() {
      List<String> names = new ArrayList<>(route.hostnames().size());
      List<String> spec = route.hostnames();
      for (int i = 0; i < spec.size(); i++) {
        addHostname(names, "spec.hostnames[" + i + "]", spec.get(i));
      }
      String extra = annotation(AnnotationKeys.EXTERNAL_DNS_HOSTNAME);
      if (extra != null) {
        String field = AnnotationKeys.field(AnnotationKeys.EXTERNAL_DNS_HOSTNAME);
        for (String part : extra.split(",", -1)) {
          addHostname(names, field, part);
        }
      }
      return sortedDistinct(names);
    }

    private void addHostname(List<String> names, String field, String raw) {
      if (raw == null) {
        return;
      }
      String text = raw.strip();
      if (text.isEmpty()) {
        return;
      }
      if (CanonicalText.isCanonicalHostname(text)) {
        names.add(text);
        return;
      }
      Optional<Problem> problem = Hostnames.checkPattern(field, text);
      if (problem.isPresent()) {
        problem(problem.get());
        skip(new Skipped("hostname '" + text + "'", problem.get().reason()));
        return;
      }
      names.add(Hostnames.normalise(text));
    }

    private List<String> backendServices() {
      List<BackendRef> refs = route.backends();
      List<String> names = new ArrayList<>(refs.size());
      for (int i = 0; i < refs.size(); i++) {
        BackendRef ref = refs.get(i);
        String reason = skipReason(route, ref);
        if (reason != null) {
          skip(new Skipped("backendRef[" + i + "] " + describe(ref), reason));
        } else {
          names.add(ref.name().strip());
        }
      }
      return sortedDistinct(names);
    }

    private String describe(BackendRef ref) {
      String kind = ref.kind() == null ? "Service" : ref.kind();
      String group = ref.group() == null || ref.group().isEmpty() ? "" : ref.group() + "/";
      String namespace =
          ref.namespace() == null || ref.namespace().isEmpty()
              ? route.namespace()
              : ref.namespace();
      return group + kind + " " + namespace + "/" + ref.name();
    }

    private long ttl() {
      String raw = annotation(AnnotationKeys.TTL);
      if (raw == null || raw.isBlank()) {
        return DEFAULT_TTL_SECONDS;
      }
      String text = raw.strip();
      if (text.startsWith("+")) {
        text = text.substring(1);
      }
      Optional<Long> parsed = Ttl.parse(text);
      if (parsed.isEmpty()) {
        problem(
            new Problem(
                AnnotationKeys.field(AnnotationKeys.TTL),
                raw,
                "not a whole number of seconds from "
                    + Ttl.MIN_SECONDS
                    + " to "
                    + Ttl.MAX_SECONDS
                    + "; the default TTL "
                    + DEFAULT_TTL_SECONDS
                    + " applies"));
        return DEFAULT_TTL_SECONDS;
      }
      return parsed.get();
    }

    private Long gracePeriod() {
      String raw = annotation(AnnotationKeys.STALE_GRACE_PERIOD);
      if (raw == null || raw.isBlank()) {
        return null;
      }
      Optional<Duration> parsed = GoDuration.parse(raw);
      if (parsed.isEmpty()) {
        problem(
            new Problem(
                AnnotationKeys.field(AnnotationKeys.STALE_GRACE_PERIOD),
                raw,
                "not a duration such as 90s, 5m or 1h30m (at most ten years); the record-writer's"
                    + " default grace period applies"));
        return null;
      }
      return parsed.get().toSeconds();
    }

    private void resolutionSettings() {
      resolve = settings.resolveTargetHostnames();
      String raw = annotation(AnnotationKeys.RESOLVE_TARGET_HOSTNAMES);
      if (raw != null && !raw.isBlank()) {
        Optional<Boolean> parsed = Flags.parse(raw);
        if (parsed.isPresent()) {
          resolve = parsed.get();
        } else {
          problem(
              new Problem(
                  AnnotationKeys.field(AnnotationKeys.RESOLVE_TARGET_HOSTNAMES),
                  raw,
                  "not a boolean (true/false, yes/no, on/off, 1/0); the engine default ("
                      + settings.resolveTargetHostnames()
                      + ") applies"));
        }
      }
      server = settings.dnsResolver();
      String rawServer = annotation(AnnotationKeys.DNS_SERVER);
      if (resolve && rawServer != null && !rawServer.isBlank()) {
        server = ResolverAddress.normalise(rawServer);
        if (!ResolverAddress.isValid(server)) {
          problem(
              new Problem(
                  AnnotationKeys.field(AnnotationKeys.DNS_SERVER),
                  rawServer,
                  "not host[:port], [ipv6]:port or an IPv6 address; lookups through it fail"));
        }
      }
    }

    private List<String> pinnedNodes() {
      String raw = annotation(AnnotationKeys.TARGET_NODES);
      if (raw == null || raw.isBlank()) {
        return List.of();
      }
      TreeSet<String> names = new TreeSet<>();
      for (String part : raw.split(",", -1)) {
        String name = part.strip();
        if (!name.isEmpty()) {
          names.add(name);
        }
      }
      return List.copyOf(names);
    }

    // ---------------------------------------------------------------- target selection

    private Outcome placePinned(List<String> hostnames, List<String> pinned) {
      depNodes.addAll(pinned);
      List<NodeState> present = new ArrayList<>();
      for (String name : pinned) {
        Optional<NodeState> node = nodes.node(name);
        if (node.isEmpty()) {
          skip(new Skipped("pinned node " + name, "node not found"));
        } else {
          present.add(node.get());
        }
      }
      TreeSet<Target> targets = targetsOf(present, "pinned node ");
      if (targets.isEmpty()) {
        return noTargets(
            "No targets: none of the pinned node(s) "
                + String.join(", ", pinned)
                + " gives a publishable target; routes with "
                + AnnotationKeys.TARGET_NODES
                + " never fall back to other nodes.");
      }
      return publish(hostnames, targets, "pinned node(s) " + String.join(", ", candidateNodes));
    }

    private Outcome placeByZone(List<String> hostnames, List<String> services) {
      TreeSet<String> backendNodes = new TreeSet<>();
      for (String service : services) {
        String qualified = route.namespace() + "/" + service;
        depServices.add("Service/" + qualified);
        backends.add(qualified);
        ServiceEndpoints found = endpoints.apply(service);
        if (found == null || found.endpoints().isEmpty()) {
          skip(new Skipped("Service " + qualified, "no endpoints are published for it"));
          continue;
        }
        int notReady = 0;
        int withoutNode = 0;
        for (EndpointState endpoint : found.endpoints()) {
          if (!endpoint.isReady()) {
            notReady++;
          } else if (endpoint.nodeName() == null || endpoint.nodeName().isBlank()) {
            withoutNode++;
          } else {
            backendNodes.add(endpoint.nodeName().strip());
          }
        }
        if (notReady > 0 || withoutNode > 0) {
          List<String> parts = new ArrayList<>();
          if (notReady > 0) {
            parts.add(notReady + " not ready");
          }
          if (withoutNode > 0) {
            parts.add(withoutNode + " without nodeName");
          }
          skip(new Skipped("endpoints of Service " + qualified, String.join(", ", parts)));
        }
      }
      if (backendNodes.isEmpty()) {
        return noTargets(
            "No targets: no ready endpoint of the backend Service(s) runs on a named node.");
      }
      depNodes.addAll(backendNodes);
      for (String name : backendNodes) {
        Optional<NodeState> node = nodes.node(name);
        String zone = node.isEmpty() ? null : NodeView.zoneOf(node.get());
        if (node.isEmpty()) {
          skip(new Skipped("backend node " + name, "node not found"));
        } else if (zone == null) {
          skip(
              new Skipped(
                  "backend node " + name,
                  "no " + AnnotationKeys.ZONE_LABEL + " label on the node"));
        } else {
          zones.add(zone);
        }
      }
      if (zones.isEmpty()) {
        return noTargets(
            "No targets: no node running a ready backend has a "
                + AnnotationKeys.ZONE_LABEL
                + " label.");
      }
      Collection<NodeState> inZones;
      if (zones.size() == 1) {
        inZones = nodes.ingressNodesInZone(zones.first());
      } else {
        List<NodeState> merged = new ArrayList<>();
        zones.forEach(zone -> merged.addAll(nodes.ingressNodesInZone(zone)));
        merged.sort(BY_NAME);
        inZones = merged;
      }
      String zoneList = String.join(", ", zones);
      TreeSet<Target> targets = targetsOf(inZones, "ingress node ");
      if (!targets.isEmpty()) {
        return publish(hostnames, targets, "ingress node(s) in zone(s) " + zoneList);
      }
      depFallback = true;
      Set<String> considered = new HashSet<>();
      inZones.forEach(node -> considered.add(node.name()));
      List<NodeState> others = new ArrayList<>();
      for (NodeState node : nodes.ingressNodes()) {
        if (!considered.contains(node.name())) {
          others.add(node);
        }
      }
      targets = targetsOf(others, "ingress node ");
      if (targets.isEmpty()) {
        return noTargets(
            "No targets: no ingress node in zone(s) "
                + zoneList
                + " gives a publishable target, nor does any other ingress node.");
      }
      fallback(
          "No ingress node in zone(s) "
              + zoneList
              + " gives a publishable target; fell back to all "
              + nodes.ingressNodes().size()
              + " ingress node(s) in any zone.");
      return publish(hostnames, targets, "ingress node(s) outside the backend zones (fallback)");
    }

    /** The targets the nodes give, with hostname targets resolved when the route asks for it. */
    private TreeSet<Target> targetsOf(Collection<NodeState> candidates, String label) {
      TreeSet<Target> targets = new TreeSet<>();
      for (NodeState node : candidates) {
        candidateNodes.add(node.name());
        NodeTargets nodeTargets = nodes.targets(node, families);
        for (Skipped skip : nodeTargets.skipped()) {
          skip(skip);
        }
        for (Problem problem : nodeTargets.problems()) {
          problem(problem);
        }
        if (!nodeTargets.publishable()) {
          skip(new Skipped(label + node.name(), nodeTargets.noTargetReason()));
          continue;
        }
        List<Target> contribution = nodeTargets.targets();
        if (resolve && hasHostTarget(contribution)) {
          contribution = new ArrayList<>();
          for (Target target : nodeTargets.targets()) {
            if (target.type() == RecordType.CNAME) {
              contribution.addAll(resolveHost(node.name(), target));
            } else {
              contribution.add(target);
            }
          }
        }
        if (contribution.isEmpty()) {
          skip(
              new Skipped(
                  label + node.name(), "its host name target resolves to no enabled address"));
        }
        targets.addAll(contribution);
      }
      return targets;
    }

    private static boolean hasHostTarget(List<Target> targets) {
      for (Target target : targets) {
        if (target.type() == RecordType.CNAME) {
          return true;
        }
      }
      return false;
    }

    private List<Target> resolveHost(String node, Target target) {
      String host = target.value();
      String key = ResolutionLookup.key(server, host);
      if (depResolutions == null) {
        depResolutions = new TreeSet<>();
      }
      depResolutions.add(key);
      String subject = "host name target " + host + " of node " + node;
      Optional<HostnameResolution> found = resolutions.find(key);
      if (found.isEmpty()) {
        fallback(
            "Kept "
                + subject
                + " as a CNAME target: no resolution through "
                + server
                + " has been published yet.");
        return List.of(target);
      }
      HostnameResolution resolution = found.get();
      String unusable = unusableReason(resolution);
      if (unusable != null) {
        fallback("Kept " + subject + " as a CNAME target: " + unusable + ".");
        return List.of(target);
      }
      List<Target> resolved = new ArrayList<>();
      List<String> disabled = new ArrayList<>();
      addAnswers(key, "ipv4", resolution.ipv4(), Family.IPV4, resolved, disabled);
      addAnswers(key, "ipv6", resolution.ipv6(), Family.IPV6, resolved, disabled);
      if (resolution.stale()) {
        fallback(
            "Used the last good answer for "
                + host
                + " through "
                + server
                + ": the latest lookup ended with "
                + resolution.status()
                + ".");
      }
      if (resolved.isEmpty()) {
        skip(
            new Skipped(
                subject,
                disabled.isEmpty()
                    ? "its resolution through " + server + " holds no valid address"
                    : "it resolves only to addresses of a disabled family ("
                        + String.join(", ", disabled)
                        + ")"));
        return List.of();
      }
      skip(
          new Skipped(
              subject,
              "replaced by its addresses through "
                  + server
                  + ": "
                  + String.join(", ", resolved.stream().map(Target::value).toList())));
      return resolved;
    }

    private String unusableReason(HostnameResolution resolution) {
      return unusableResolution(resolution, server, now, settings.resolutionMaxStale());
    }

    private void addAnswers(
        String key,
        String field,
        List<String> answers,
        Family family,
        List<Target> resolved,
        List<String> disabled) {
      for (int i = 0; i < answers.size(); i++) {
        String answer = answers.get(i);
        Optional<IpLiteral> ip = IpLiteral.parse(answer);
        if (ip.isEmpty() || ip.get().family() != family) {
          problem(
              new Problem(
                  "HostnameResolution/" + key + " " + field + "[" + i + "]",
                  answer,
                  "not a strict " + (family == Family.IPV4 ? "IPv4" : "IPv6") + " literal"));
        } else if (!families.contains(family)) {
          disabled.add(ip.get().text());
        } else {
          Target target = Target.of(ip.get());
          if (!resolved.contains(target)) {
            resolved.add(target);
          }
        }
      }
    }

    // ---------------------------------------------------------------- outcomes

    private Outcome publish(List<String> hostnames, TreeSet<Target> found, String where) {
      List<Target> addresses = new ArrayList<>();
      List<Target> cnames = new ArrayList<>();
      for (Target target : found) {
        (target.type().isAddress() ? addresses : cnames).add(target);
      }
      List<Target> chosen;
      if (!addresses.isEmpty()) {
        chosen = addresses;
        for (Target cname : cnames) {
          skip(
              new Skipped(
                  "target " + cname.value(),
                  "a CNAME cannot share a name with A/AAAA records; the IP targets are published"));
        }
      } else {
        chosen = List.of(cnames.get(0));
        for (Target other : cnames.subList(1, cnames.size())) {
          skip(
              new Skipped(
                  "target " + other.value(),
                  "a name can hold only one CNAME; kept the lexically smallest '"
                      + cnames.get(0).value()
                      + "'"));
        }
      }
      String values;
      if (chosen.size() == 1) {
        values = chosen.get(0).value();
      } else {
        StringBuilder text = new StringBuilder(24 * chosen.size());
        for (int i = 0; i < chosen.size(); i++) {
          text.append(i == 0 ? "" : ", ").append(chosen.get(i).value());
        }
        values = text.toString();
      }
      String summary =
          "Published "
              + chosen.size()
              + " target(s) "
              + values
              + " for "
              + hostnames.size()
              + " hostname(s) from "
              + where
              + ".";
      return new Outcome(Disposition.PUBLISH, hostnames, chosen, summary);
    }

    private Outcome noTargets(String summary) {
      return new Outcome(Disposition.NO_TARGETS, List.of(), List.of(), summary);
    }

    private Outcome withdraw(String summary) {
      depServices.clear();
      depNodes.clear();
      depResolutions = null;
      depFallback = false;
      grace = null;
      return new Outcome(Disposition.WITHDRAW, List.of(), List.of(), summary);
    }

    /** The outcome as the route's own DNSEndpoint. */
    Placement placement(Outcome outcome) {
      // the chosen targets are sorted by type, then value: one pass splits them by record type
      Map<RecordType, List<String>> byType = new EnumMap<>(RecordType.class);
      List<String> chosenValues = new ArrayList<>(outcome.chosen().size());
      for (Target target : outcome.chosen()) {
        byType.computeIfAbsent(target.type(), t -> new ArrayList<>()).add(target.value());
        chosenValues.add(target.value());
      }
      List<DnsRecord> records = new ArrayList<>(outcome.hostnames().size() * byType.size());
      for (String hostname : outcome.hostnames()) {
        byType.forEach(
            (type, values) -> records.add(DnsRecord.of(hostname, type.name(), ttl, values)));
      }
      List<String> zoneList = listOf(zones);
      Explanation explanation =
          new Explanation(
              outcome.summary(),
              backends,
              zoneList,
              listOf(candidateNodes),
              chosenValues,
              fallbacks == null ? List.of() : fallbacks,
              skipped == null ? List.of() : skipped);
      TargetDecision decision =
          new TargetDecision(
              route.ref(),
              route.apiVersion(),
              route.uid(),
              route.namespace(),
              DnsEndpointName.forRoute(route.namespace(), route.name()),
              outcome.disposition(),
              records,
              Map.of(),
              grace,
              explanation,
              problems == null ? List.of() : List.copyOf(problems));
      return new Placement(decision, dependencies(zoneList));
    }

    /** The outcome as a Gslb's node-aware local targets. */
    NodeAwareTargets nodeAwareTargets(Outcome outcome) {
      List<String> zoneList = listOf(zones);
      return new NodeAwareTargets(
          outcome.chosen(),
          outcome.summary(),
          zoneList,
          listOf(candidateNodes),
          skipped == null ? List.of() : skipped,
          problems == null ? List.of() : problems.subList(watcherProblems, problems.size()),
          dependencies(zoneList));
    }

    private PlacementDependencies dependencies(List<String> zoneList) {
      return new PlacementDependencies(
          listOf(depServices),
          listOf(depNodes),
          zoneList,
          depFallback,
          depResolutions == null ? List.of() : listOf(depResolutions));
    }
  }

  /** An unmodifiable copy of a set, in its order. */
  private static List<String> listOf(Set<String> set) {
    return set.isEmpty() ? List.of() : List.copyOf(set);
  }

  /** The names sorted and without duplicates, as an unmodifiable list. */
  private static List<String> sortedDistinct(List<String> names) {
    if (names.size() <= 1) {
      return List.copyOf(names);
    }
    return List.copyOf(new TreeSet<>(names));
  }

  /**
   * What the pipeline decided, before it is packaged.
   *
   * @param disposition publish, no targets or withdraw
   * @param hostnames the record names (empty unless published)
   * @param chosen the targets, sorted by record type then value (empty unless published)
   * @param summary the explanation's summary
   */
  private record Outcome(
      Disposition disposition, List<String> hostnames, List<Target> chosen, String summary) {}
}
