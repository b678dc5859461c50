package dev.cairn.strategyengine.gslb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.strategyengine.placement.PlacementSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.yaml.snakeyaml.Yaml;

/**
 * One Gslb scenario file ({@code src/test/resources/scenarios/gslb/*.yaml}): a Gslb, what it reads
 * and the outcome expected, possibly over a timeline. The same files drive {@code GslbScenarioTest}
 * (the pure decider) and {@code GslbTopologyScenarioTest} (the wired Kafka Streams topology, with
 * wall-clock time advanced between the steps), so the two cannot drift.
 *
 * <pre>
 * description: what the scenario shows
 * settings: {geoTag: eu, zones: [cloud.example.com], exposedIps: [], defaultTtl: 30, ttlMin: 1,
 *            ttlMax: 3600, splitBrainThreshold: 300,
 *            httpRouteTargets: node-aware}               # all optional; these are defaults
 * placement: {enableIpv4: true, enableIpv6: false}               # optional
 * now: "2026-11-29T12:00:00Z"                                    # optional
 * given:
 *   gslb: {namespace: shop, name: app, uid, resourceRef: {apiVersion, kind, name, namespace,
 *          matchLabels, matchExpressions: [{key, operator, values}]}, ingress: [{host, backends: [web]}], strategy: {type, dnsTtlSeconds,
 *          primaryGeoTag, weight, splitBrainThresholdSeconds}, serviceHealthPolicy,
 *          annotations, problems: [{field, value, reason}]}
 *   routes: [{kind: HTTPRoute, name, hostnames, backends, annotations, labels, parentRefs,
 *            loadBalancerIps, loadBalancerHostnames,   # these two: an Ingress's status
 *            rules: [{host, backends: [web]}],   # an Ingress's rules (schema 1.4); hostnames and
 *                                               # backends then default to the watcher's
 *            controller: {apiVersion, kind, name, uid},   # uid defaults to the Gslb's
 *            apiVersion,   # defaults by kind (Ingress, VirtualService, else Gateway API)
 *            problems: [{field, value, reason}]}]   # the watcher's, e.g. a VirtualService's join
 *   services: [{name, type: LoadBalancer, loadBalancerIps, loadBalancerHostnames, labels}]
 *   endpoints: {web: [{node, ready, addresses}]}                  # addresses default [10.42.0.1]
 *   nodes: [{name, zone, ingress, addresses: ["InternalIP=10.0.0.1"], annotations}]
 *   peers: [{geoTag, host, status, ipv4, ipv6, lastSuccess, failingSince, observedAt}]
 *   resolutions: [{hostname, server, status, ipv4, ipv6, stale, expiresAt}]   # the prober's
 *          # times: ISO text, or seconds relative to now (-30); lastSuccess defaults to -10,
 *          # failingSince to -5 when unreachable; host defaults to app.cloud.example.com
 * expect: { ... }                  # a single step at now; or:
 * timeline:
 *   - after: 299                   # seconds after now
 *     peers: [...]                 # answers published at this step (optional)
 *     endpoints: {...}             # endpoints replaced at this step (optional)
 *     expect: { ... }
 * expect/timeline[].expect:
 *   decided: true                  # false: no decision (invalid), the previous one stays
 *   disposition: PUBLISH | NO_TARGETS
 *   records: [{name, type, ttl: 30, targets, labels: {}}]         # exact
 *   branches: {host: BRANCH}
 *   verdicts: {host: {geoTag: VERDICT}}
 *   status: {serviceHealth, healthyRecords, hosts, exposedIps, geoTag}   # each optional, exact
 *   problems: [{field, value, reason}]   # exact fields; value exact, reason a substring
 *   explanation: {summary, fallbacks: [substrings], skipped: [{input, reason}]}
 *   reevaluateAt: 300               # seconds after now, ISO text, or null
 * </pre>
 *
 * @param file the file name
 * @param description what the scenario shows
 * @param settings the Gslb settings
 * @param placement the placement settings
 * @param start the evaluation time of the first step
 * @param gslb the Gslb
 * @param routes the routes
 * @param services the Services
 * @param endpoints the initial endpoints
 * @param nodes the nodes
 * @param peers the initial peer answers
 * @param steps the steps, at least one
 */
public record GslbScenario(
    String file,
    String description,
    GslbSettings settings,
    PlacementSettings placement,
    Instant start,
    GslbState gslb,
    List<RouteState> routes,
    List<ServiceState> services,
    List<ServiceEndpoints> endpoints,
    List<NodeState> nodes,
    List<PeerAnswer> peers,
    List<HostnameResolution> resolutions,
    List<Step> steps) {

  /** The default evaluation time. */
  public static final Instant DEFAULT_NOW = Instant.parse("2026-11-29T12:00:00Z");

  /** The host most scenarios use. */
  public static final String DEFAULT_HOST = "app.cloud.example.com";

  private static final String DIRECTORY = "scenarios/gslb";

  /**
   * One step of a timeline.
   *
   * @param after seconds after {@code start}
   * @param peers answers published at this step
   * @param endpoints endpoints replaced at this step
   * @param expect the expected outcome
   */
  public record Step(
      long after,
      List<PeerAnswer> peers,
      List<ServiceEndpoints> endpoints,
      Map<String, Object> expect) {}

  /** Every scenario file, sorted by name. */
  public static List<GslbScenario> all() {
    URL url = GslbScenario.class.getClassLoader().getResource(DIRECTORY);
    if (url == null) {
      throw new IllegalStateException("no " + DIRECTORY + " on the test class path");
    }
    try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".yaml"))
          .sorted()
          .map(GslbScenario::load)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Loads one scenario file. */
  public static GslbScenario load(Path path) {
    try (InputStream in = Files.newInputStream(path)) {
      Map<String, Object> root = new Yaml().load(in);
      String file = path.getFileName().toString();
      try {
        return parse(file, root);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("scenario " + file + ": " + e.getMessage(), e);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The instant of a step. */
  public Instant at(int step) {
    return start.plusSeconds(steps.get(step).after());
  }

  /** The peer answers published up to and including a step (the latest per key). */
  public List<PeerAnswer> peersAt(int step) {
    Map<String, PeerAnswer> byKey = new LinkedHashMap<>();
    peers.forEach(p -> byKey.put(p.key(), p));
    for (int i = 0; i <= step; i++) {
      steps.get(i).peers().forEach(p -> byKey.put(p.key(), p));
    }
    return List.copyOf(byKey.values());
  }

  /** The endpoints up to and including a step (the latest per Service). */
  public List<ServiceEndpoints> endpointsAt(int step) {
    Map<String, ServiceEndpoints> byKey = new LinkedHashMap<>();
    endpoints.forEach(e -> byKey.put(e.ref().key(), e));
    for (int i = 0; i <= step; i++) {
      steps.get(i).endpoints().forEach(e -> byKey.put(e.ref().key(), e));
    }
    return List.copyOf(byKey.values());
  }

  /** The decider's outcome at a step. */
  public GslbOutcome decide(int step) {
    MapGslbView view =
        new MapGslbView(routes, services, endpointsAt(step), peersAt(step), nodes, resolutions);
    return GslbDecider.decide(gslb, view, settings, placement, at(step));
  }

  @Override
  public String toString() {
    return file;
  }

  /** Asserts that {@code outcome} is what step {@code step} expects. */
  public void assertMatches(int step, GslbOutcome outcome) {
    Map<String, Object> expect = steps.get(step).expect();
    SoftAssertions soft = new SoftAssertions();
    String at = "step " + step + " (+" + steps.get(step).after() + "s): ";
    boolean decided = (Boolean) expect.getOrDefault("decided", true);
    soft.assertThat(outcome.decided()).as(at + "decided").isEqualTo(decided);
    if (decided && outcome.decided()) {
      assertDecision(soft, at, expect, outcome.decision());
    }
    if (expect.containsKey("branches")) {
      Map<String, String> branches = new TreeMap<>();
      outcome.report().hosts().forEach(h -> branches.put(h.host(), h.branch()));
      soft.assertThat(branches)
          .as(at + "branches")
          .containsAllEntriesOf(stringMap(expect.get("branches")));
    }
    if (expect.containsKey("verdicts")) {
      map(expect.get("verdicts"))
          .forEach(
              (host, verdicts) -> {
                Map<String, String> actual = new TreeMap<>();
                outcome.report().hosts().stream()
                    .filter(h -> h.host().equals(host))
                    .forEach(h -> h.peers().forEach(p -> actual.put(p.geoTag(), p.verdict())));
                soft.assertThat(actual)
                    .as(at + "verdicts of " + host)
                    .isEqualTo(stringMap(verdicts));
              });
    }
    assertStatus(soft, at, map(expect.get("status")), outcome.status());
    if (expect.containsKey("problems")) {
      if (outcome.decided()) {
        soft.assertThat(outcome.decision().problems())
            .as(at + "decision problems")
            .isEqualTo(outcome.problems());
      }
      soft.assertThat(outcome.status().problems())
          .as(at + "status problems")
          .isEqualTo(outcome.problems().stream().map(Problem::toString).toList());
      assertProblems(soft, at, maps(expect.get("problems")), outcome.problems());
    }
    if (expect.containsKey("reevaluateAt")) {
      Object raw = expect.get("reevaluateAt");
      soft.assertThat(outcome.dependencies().reevaluateAt())
          .as(at + "reevaluateAt")
          .isEqualTo(raw == null ? null : instant(raw, start));
    }
    soft.assertAll();
  }

  private void assertDecision(
      SoftAssertions soft, String at, Map<String, Object> expect, TargetDecision decision) {
    soft.assertThat(decision.disposition())
        .as(at + "disposition")
        .isEqualTo(Disposition.valueOf(string(expect, "disposition")));
    soft.assertThat(decision.source()).as(at + "source").isEqualTo(gslb.ref());
    soft.assertThat(decision.name()).as(at + "name").isEqualTo(gslb.name());
    soft.assertThat(decision.namespace()).as(at + "namespace").isEqualTo(gslb.namespace());
    soft.assertThat(decision.sourceApiVersion()).isEqualTo(GslbDecider.API_VERSION);
    soft.assertThat(decision.sourceUid()).isEqualTo(gslb.uid());
    soft.assertThat(decision.labels()).isEqualTo(GslbDecider.DNS_ENDPOINT_LABELS);
    if (expect.containsKey("records")) {
      soft.assertThat(decision.records()).as(at + "records").isEqualTo(records(expect));
    }
    Explanation e = decision.explanation();
    Map<String, Object> explanation = map(expect.get("explanation"));
    if (explanation.containsKey("summary")) {
      soft.assertThat(e.summary()).as(at + "summary").contains(string(explanation, "summary"));
    }
    for (String fragment : strings(explanation.get("fallbacks"))) {
      soft.assertThat(e.fallbacks())
          .as(at + "fallbacks containing '%s'", fragment)
          .anySatisfy(f -> assertThat(f).contains(fragment));
    }
    for (Map<String, Object> s : maps(explanation.get("skipped"))) {
      soft.assertThat(e.skipped())
          .as(at + "skipped %s", s)
          .anySatisfy(
              a -> {
                assertThat(a.input()).contains(string(s, "input"));
                if (s.containsKey("reason")) {
                  assertThat(a.reason()).contains(string(s, "reason"));
                }
              });
    }
  }

  private void assertStatus(
      SoftAssertions soft, String at, Map<String, Object> expected, GslbStatus status) {
    soft.assertThat(status.namespace()).isEqualTo(gslb.namespace());
    soft.assertThat(status.name()).isEqualTo(gslb.name());
    if (expected.containsKey("serviceHealth")) {
      soft.assertThat(status.serviceHealth())
          .as(at + "status.serviceHealth")
          .isEqualTo(stringMap(expected.get("serviceHealth")));
    }
    if (expected.containsKey("healthyRecords")) {
      Map<String, List<String>> records = new TreeMap<>();
      map(expected.get("healthyRecords")).forEach((k, v) -> records.put(k, strings(v)));
      soft.assertThat(status.healthyRecords()).as(at + "status.healthyRecords").isEqualTo(records);
    }
    if (expected.containsKey("hosts")) {
      soft.assertThat(status.hosts()).as(at + "status.hosts").isEqualTo(expected.get("hosts"));
    }
    if (expected.containsKey("exposedIps")) {
      soft.assertThat(status.exposedIps())
          .as(at + "status.exposedIps")
          .isEqualTo(strings(expected.get("exposedIps")));
    }
    if (expected.containsKey("geoTag")) {
      soft.assertThat(status.geoTag()).as(at + "status.geoTag").isEqualTo(expected.get("geoTag"));
    }
  }

  private static void assertProblems(
      SoftAssertions soft, String at, List<Map<String, Object>> expected, List<Problem> actual) {
    soft.assertThat(actual.stream().map(Problem::field).sorted().toList())
        .as(at + "problem fields (%s)", actual)
        .isEqualTo(expected.stream().map(p -> string(p, "field")).sorted().toList());
    for (Map<String, Object> p : expected) {
      List<Problem> matching =
          actual.stream().filter(a -> a.field().equals(string(p, "field"))).toList();
      if (p.containsKey("value")) {
        soft.assertThat(matching)
            .as(at + "problem %s value", p.get("field"))
            .anySatisfy(
                a ->
                    assertThat(a.value())
                        .isEqualTo(p.get("value") == null ? null : String.valueOf(p.get("value"))));
      }
      if (p.containsKey("reason")) {
        soft.assertThat(matching)
            .as(at + "problem %s reason", p.get("field"))
            .anySatisfy(a -> assertThat(a.reason()).contains(string(p, "reason")));
      }
    }
  }

  private static List<DnsRecord> records(Map<String, Object> expect) {
    List<DnsRecord> records = new ArrayList<>();
    for (Map<String, Object> r : maps(expect.get("records"))) {
      records.add(
          new DnsRecord(
              string(r, "name"),
              string(r, "type"),
              ((Number) r.getOrDefault("ttl", 30)).longValue(),
              strings(r.get("targets")),
              stringMap(r.get("labels"))));
    }
    return records;
  }

  // ------------------------------------------------------------------ parsing

  private static GslbScenario parse(String file, Map<String, Object> root) {
    Map<String, Object> given = map(root.get("given"));
    Object now = root.get("now");
    Instant start = now == null ? DEFAULT_NOW : instant(now, DEFAULT_NOW);
    GslbState gslb = gslb(map(given.get("gslb")));
    String namespace = gslb.namespace();
    List<RouteState> routes =
        maps(given.get("routes")).stream().map(r -> route(namespace, r, gslb)).toList();
    List<ServiceState> services =
        maps(given.get("services")).stream().map(s -> service(namespace, s)).toList();
    List<ServiceEndpoints> endpoints = endpoints(namespace, map(given.get("endpoints")));
    List<NodeState> nodes = maps(given.get("nodes")).stream().map(GslbScenario::node).toList();
    List<PeerAnswer> peers = peers(given.get("peers"), start);
    List<Step> steps = new ArrayList<>();
    if (root.containsKey("timeline")) {
      for (Map<String, Object> s : maps(root.get("timeline"))) {
        steps.add(
            new Step(
                ((Number) s.getOrDefault("after", 0)).longValue(),
                peers(s.get("peers"), start),
                endpoints(namespace, map(s.get("endpoints"))),
                map(s.get("expect"))));
      }
    } else {
      steps.add(new Step(0, List.of(), List.of(), map(root.get("expect"))));
    }
    for (Step step : steps) {
      if ((Boolean) step.expect().getOrDefault("decided", true)
          && !step.expect().containsKey("disposition")) {
        throw new IllegalArgumentException("expect.disposition is required when decided");
      }
    }
    return new GslbScenario(
        file,
        String.valueOf(root.getOrDefault("description", file)),
        settings(map(root.get("settings"))),
        placement(map(root.get("placement"))),
        start,
        gslb,
        routes,
        services,
        endpoints,
        nodes,
        peers,
        resolutions(given.get("resolutions"), placement(map(root.get("placement"))), start),
        steps);
  }

  private static GslbSettings settings(Map<String, Object> s) {
    return new GslbSettings(
        s.containsKey("geoTag") ? (String) s.get("geoTag") : "eu",
        s.containsKey("zones") ? strings(s.get("zones")) : List.of("cloud.example.com"),
        strings(s.get("exposedIps")),
        ((Number) s.getOrDefault("defaultTtl", 30)).longValue(),
        ((Number) s.getOrDefault("ttlMin", 1)).longValue(),
        ((Number) s.getOrDefault("ttlMax", 3600)).longValue(),
        Duration.ofSeconds(((Number) s.getOrDefault("splitBrainThreshold", 300)).longValue()),
        HttpRouteTargets.valueOf(
            String.valueOf(s.getOrDefault("httpRouteTargets", "node_aware"))
                .toUpperCase(Locale.ROOT)
                .replace('-', '_')));
  }

  private static PlacementSettings placement(Map<String, Object> p) {
    return new PlacementSettings(
        (Boolean) p.getOrDefault("enableIpv4", true),
        (Boolean) p.getOrDefault("enableIpv6", false),
        (Boolean) p.getOrDefault("resolveTargetHostnames", false),
        PlacementSettings.DEFAULT_DNS_RESOLVER,
        PlacementSettings.DEFAULT_RESOLUTION_MAX_STALE);
  }

  @SuppressWarnings("unchecked")
  private static GslbState gslb(Map<String, Object> g) {
    String namespace = (String) g.getOrDefault("namespace", "shop");
    String name = (String) g.getOrDefault("name", "app");
    GslbResourceRef ref = null;
    if (g.containsKey("resourceRef")) {
      Map<String, Object> r = map(g.get("resourceRef"));
      String kind = (String) r.get("kind");
      String defaultApi =
          switch (String.valueOf(kind)) {
            case "Ingress" -> "networking.k8s.io/v1";
            case "HTTPRoute" -> "gateway.networking.k8s.io/v1";
            case "VirtualService" -> "networking.istio.io/v1";
            case "Service" -> "v1";
            default -> null;
          };
      ref =
          new GslbResourceRef(
              r.containsKey("apiVersion") ? (String) r.get("apiVersion") : defaultApi,
              kind,
              (String) r.get("namespace"),
              (String) r.get("name"),
              stringMap(r.get("matchLabels")),
              maps(r.get("matchExpressions")).stream()
                  .map(
                      e ->
                          new GslbResourceRef.LabelSelectorRequirement(
                              string(e, "key"), string(e, "operator"), strings(e.get("values"))))
                  .toList());
    }
    List<GslbState.IngressRule> rules = new ArrayList<>();
    for (Map<String, Object> rule : maps(g.get("ingress"))) {
      rules.add(
          new GslbState.IngressRule((String) rule.get("host"), backends(rule.get("backends"))));
    }
    GslbStrategy strategy = null;
    if (g.get("strategy") != null) {
      Map<String, Object> s = map(g.get("strategy"));
      Map<String, Integer> weight = new LinkedHashMap<>();
      map(s.get("weight"))
          .forEach((k, v) -> weight.put(k, v == null ? null : ((Number) v).intValue()));
      strategy =
          new GslbStrategy(
              (String) s.get("type"),
              (Integer) s.get("dnsTtlSeconds"),
              s.get("primaryGeoTag") == null ? null : String.valueOf(s.get("primaryGeoTag")),
              weight,
              (Integer) s.get("splitBrainThresholdSeconds"));
    }
    return new GslbState(
        namespace,
        name,
        (String) g.getOrDefault("uid", "uid-gslb-" + namespace + "-" + name),
        ref,
        rules,
        strategy,
        (String) g.get("serviceHealthPolicy"),
        stringMap(g.get("annotations")),
        problems(g.get("problems")));
  }

  private static List<Problem> problems(Object raw) {
    List<Problem> problems = new ArrayList<>();
    for (Map<String, Object> p : maps(raw)) {
      problems.add(
          new Problem(
              string(p, "field"),
              p.get("value") == null ? null : String.valueOf(p.get("value")),
              string(p, "reason")));
    }
    return problems;
  }

  /** The apiVersion the watcher publishes a route of {@code kind} with. */
  private static String routeApiVersion(String kind) {
    return switch (kind) {
      case "Ingress" -> "networking.k8s.io/v1";
      case "VirtualService" -> "networking.istio.io/v1";
      default -> "gateway.networking.k8s.io/v1";
    };
  }

  private static List<BackendRef> backends(Object raw) {
    List<BackendRef> backends = new ArrayList<>();
    if (raw == null) {
      return backends;
    }
    for (Object b : (List<?>) raw) {
      if (b instanceof Map<?, ?>) {
        Map<String, Object> m = map(b);
        backends.add(
            new BackendRef(
                (String) m.get("group"),
                (String) m.get("kind"),
                (String) m.get("namespace"),
                String.valueOf(m.get("name")),
                (Integer) m.get("port"),
                (Integer) m.get("weight")));
      } else {
        backends.add(BackendRef.service(String.valueOf(b)));
      }
    }
    return backends;
  }

  private static RouteState route(String namespace, Map<String, Object> r, GslbState gslb) {
    String kind = (String) r.getOrDefault("kind", "HTTPRoute");
    String name = (String) r.getOrDefault("name", "app");
    RouteState.Controller controller = null;
    if (r.containsKey("controller")) {
      Map<String, Object> c = map(r.get("controller"));
      controller =
          new RouteState.Controller(
              (String) c.getOrDefault("apiVersion", "k8gb.io/v1beta1"),
              (String) c.getOrDefault("kind", "Gslb"),
              (String) c.getOrDefault("name", gslb.name()),
              (String) c.getOrDefault("uid", gslb.uid()));
    }
    List<RouteState.Rule> rules =
        maps(r.get("rules")).stream()
            .map(rule -> new RouteState.Rule(string(rule, "host"), backends(rule.get("backends"))))
            .toList();
    List<String> hostnames =
        r.containsKey("hostnames") || rules.isEmpty()
            ? strings(r.get("hostnames"))
            : rules.stream().map(RouteState.Rule::host).distinct().toList();
    List<BackendRef> backends =
        r.containsKey("backends")
            ? backends(r.get("backends"))
            : rules.isEmpty()
                ? List.of(BackendRef.service("web"))
                : rules.stream().flatMap(rule -> rule.backends().stream()).toList();
    return new RouteState(
        kind,
        (String) r.getOrDefault("apiVersion", routeApiVersion(kind)),
        (String) r.getOrDefault("namespace", namespace),
        name,
        "uid-" + kind + "-" + name,
        hostnames,
        backends,
        strings(r.get("loadBalancerIps")),
        strings(r.get("loadBalancerHostnames")),
        stringMap(r.get("annotations")),
        problems(r.get("problems")),
        controller,
        stringMap(r.get("labels")),
        maps(r.get("parentRefs")).stream()
            .map(
                p ->
                    new RouteState.ParentRef(
                        (String) p.get("group"),
                        (String) p.get("kind"),
                        (String) p.get("namespace"),
                        string(p, "name"),
                        (String) p.get("sectionName")))
            .toList(),
        rules);
  }

  private static ServiceState service(String namespace, Map<String, Object> s) {
    return new ServiceState(
        (String) s.getOrDefault("namespace", namespace),
        string(s, "name"),
        "uid-svc-" + s.get("name"),
        (String) s.getOrDefault("type", "ClusterIP"),
        strings(s.get("loadBalancerIps")),
        strings(s.get("loadBalancerHostnames")),
        List.of(),
        Map.of(),
        List.of(),
        stringMap(s.get("labels")));
  }

  private static List<ServiceEndpoints> endpoints(String namespace, Map<String, Object> byService) {
    List<ServiceEndpoints> all = new ArrayList<>();
    byService.forEach(
        (service, list) -> {
          List<EndpointState> endpoints = new ArrayList<>();
          for (Map<String, Object> e : maps(list)) {
            endpoints.add(
                new EndpointState(
                    e.containsKey("addresses") ? strings(e.get("addresses")) : List.of("10.42.0.1"),
                    (String) e.get("node"),
                    (String) e.get("zone"),
                    (Boolean) e.get("ready"),
                    (Boolean) e.get("serving"),
                    (Boolean) e.get("terminating")));
          }
          all.add(new ServiceEndpoints(namespace, service, endpoints, List.of()));
        });
    return all;
  }

  private static NodeState node(Map<String, Object> n) {
    List<NodeAddress> addresses = new ArrayList<>();
    for (String a : strings(n.get("addresses"))) {
      int eq = a.indexOf('=');
      addresses.add(new NodeAddress(a.substring(0, eq), a.substring(eq + 1)));
    }
    return new NodeState(
        string(n, "name"),
        (String) n.get("zone"),
        null,
        (Boolean) n.getOrDefault("ingress", false),
        addresses,
        stringMap(n.get("annotations")),
        List.of());
  }

  private static List<PeerAnswer> peers(Object raw, Instant start) {
    List<PeerAnswer> peers = new ArrayList<>();
    for (Map<String, Object> p : maps(raw)) {
      ProbeStatus status = ProbeStatus.valueOf((String) p.getOrDefault("status", "OK"));
      Instant lastSuccess =
          p.containsKey("lastSuccess")
              ? (p.get("lastSuccess") == null ? null : instant(p.get("lastSuccess"), start))
              : start.minusSeconds(10);
      Instant failingSince =
          p.containsKey("failingSince")
              ? (p.get("failingSince") == null ? null : instant(p.get("failingSince"), start))
              : (status.reachable() ? null : start.minusSeconds(5));
      peers.add(
          new PeerAnswer(
              (String) p.getOrDefault("host", DEFAULT_HOST),
              string(p, "geoTag"),
              (String) p.getOrDefault("server", "192.0.2.53:53"),
              status,
              strings(p.get("ipv4")),
              strings(p.get("ipv6")),
              p.containsKey("ttlSeconds") ? ((Number) p.get("ttlSeconds")).longValue() : 30L,
              lastSuccess,
              failingSince,
              p.containsKey("observedAt") ? instant(p.get("observedAt"), start) : start));
    }
    return peers;
  }

  /**
   * The prober's hostname resolutions: {@code [{hostname, server (default the placement's
   * resolver), status (OK), ipv4, ipv6, stale (false), expiresAt (seconds relative to now, default
   * 300)}]}.
   */
  private static List<HostnameResolution> resolutions(
      Object raw, PlacementSettings placement, Instant start) {
    List<HostnameResolution> all = new ArrayList<>();
    for (Map<String, Object> r : maps(raw)) {
      ProbeStatus status = ProbeStatus.valueOf((String) r.getOrDefault("status", "OK"));
      Instant expiresAt =
          r.containsKey("expiresAt") ? instant(r.get("expiresAt"), start) : start.plusSeconds(300);
      all.add(
          new HostnameResolution(
              string(r, "hostname"),
              (String) r.getOrDefault("server", placement.dnsResolver()),
              status,
              strings(r.get("ipv4")),
              strings(r.get("ipv6")),
              start.minusSeconds(10),
              expiresAt,
              (Boolean) r.getOrDefault("stale", false)));
    }
    return all;
  }

  private static Instant instant(Object value, Instant start) {
    if (value instanceof Number seconds) {
      return start.plusSeconds(seconds.longValue());
    }
    return value instanceof Date date ? date.toInstant() : Instant.parse(String.valueOf(value));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return value == null ? Map.of() : (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> maps(Object value) {
    return value == null ? List.of() : (List<Map<String, Object>>) value;
  }

  @SuppressWarnings("unchecked")
  private static List<String> strings(Object value) {
    if (value == null) {
      return List.of();
    }
    return ((List<Object>) value).stream().map(String::valueOf).toList();
  }

  private static Map<String, String> stringMap(Object value) {
    Map<String, String> result = new LinkedHashMap<>();
    map(value).forEach((k, v) -> result.put(k, v == null ? null : String.valueOf(v)));
    return result;
  }

  private static String string(Map<String, Object> map, String key) {
    Object value = map.get(key);
    if (value == null) {
      throw new IllegalArgumentException(key + " is required");
    }
    return String.valueOf(value);
  }
}
