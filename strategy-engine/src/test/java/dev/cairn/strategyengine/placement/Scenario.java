package dev.cairn.strategyengine.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.validation.Problem;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.yaml.snakeyaml.Yaml;

/**
 * One placement scenario file ({@code src/test/resources/scenarios/placement/*.yaml}): the inputs
 * of a route ({@code given}) and the decision expected ({@code expect}). The same files drive
 * {@link PlacementScenarioTest} (the pure decider) and the topology scenario test (the wired Kafka
 * Streams topology), so the two cannot drift apart.
 *
 * <pre>
 * description: what the scenario shows
 * settings: {enableIpv4: true, enableIpv6: false, resolveTargetHostnames: false,
 *            dnsResolver: "1.1.1.1:53", resolutionMaxStale: 24h}      # all optional
 * now: "2026-11-29T12:00:00Z"                                          # optional
 * given:
 *   route: {namespace, name, uid, hostnames, annotations, backends: [{name, kind, group,
 *           namespace, port, weight}], problems: [{field, value, reason}]}
 *   endpoints: {service-name: [{node, ready, addresses}]}
 *   nodes: [{name, zone, ingress, addresses: ["InternalIP=10.0.0.1"], annotations}]
 *   resolutions: [{server, hostname, status, ipv4, ipv6, stale, expiresAt}]
 * expect:
 *   name: httproute-app-954f4d3c          # optional
 *   disposition: PUBLISH | NO_TARGETS | WITHDRAW
 *   records: [{name, type, ttl, targets}]  # exact
 *   gracePeriodSeconds: 90                 # optional, checked when present
 *   problems: [{field, value, reason}]     # exact fields; value exact, reason a substring
 *   explanation: {summary, backends, zones, candidateNodes, chosenTargets,
 *                 fallbacks: [substrings], skipped: [{input, reason}]}   # each optional
 * </pre>
 *
 * @param file the file name
 * @param description what the scenario shows
 * @param settings the engine settings
 * @param now the evaluation time
 * @param route the route
 * @param endpoints the endpoints by Service name
 * @param nodes the nodes
 * @param resolutions the hostname resolutions
 * @param expect the expected decision, as read from the file
 */
public record Scenario(
    String file,
    String description,
    PlacementSettings settings,
    Instant now,
    RouteState route,
    Map<String, ServiceEndpoints> endpoints,
    List<NodeState> nodes,
    List<HostnameResolution> resolutions,
    Map<String, Object> expect) {

  /** The default evaluation time. */
  public static final Instant DEFAULT_NOW = Instant.parse("2026-11-29T12:00:00Z");

  private static final String DIRECTORY = "scenarios/placement";

  /** Every scenario file, sorted by name. */
  public static List<Scenario> all() {
    URL url = Scenario.class.getClassLoader().getResource(DIRECTORY);
    if (url == null) {
      throw new IllegalStateException("no " + DIRECTORY + " on the test class path");
    }
    try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".yaml"))
          .sorted()
          .map(Scenario::load)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Loads one scenario file. */
  public static Scenario load(Path path) {
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

  /** The decider's decision for this scenario. */
  public Placement place() {
    return PlacementDecider.place(
        route, endpoints, NodeDirectory.of(nodes), ResolutionLookup.of(resolutions), settings, now);
  }

  /** The expected disposition. */
  public Disposition disposition() {
    return Disposition.valueOf(string(expect, "disposition"));
  }

  @Override
  public String toString() {
    return file;
  }

  /** Asserts that {@code decision} is what the scenario expects. */
  public void assertMatches(TargetDecision decision) {
    SoftAssertions soft = new SoftAssertions();
    soft.assertThat(decision.disposition()).as("disposition").isEqualTo(disposition());
    soft.assertThat(decision.source()).as("source").isEqualTo(route.ref());
    soft.assertThat(decision.namespace()).as("namespace").isEqualTo(route.namespace());
    if (expect.containsKey("name")) {
      soft.assertThat(decision.name()).as("name").isEqualTo(expect.get("name"));
    }
    soft.assertThat(decision.name())
        .as("name is a DNS-1123 subdomain of at most 63 characters")
        .matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
        .hasSizeLessThanOrEqualTo(63);
    soft.assertThat(decision.records()).as("records").isEqualTo(expectedRecords());
    if (expect.containsKey("gracePeriodSeconds")) {
      Object grace = expect.get("gracePeriodSeconds");
      soft.assertThat(decision.gracePeriodSeconds())
          .as("gracePeriodSeconds")
          .isEqualTo(grace == null ? null : ((Number) grace).longValue());
    }
    assertProblems(soft, decision.problems());
    assertExplanation(soft, decision.explanation());
    soft.assertAll();
  }

  private List<DnsRecord> expectedRecords() {
    List<DnsRecord> records = new ArrayList<>();
    for (Map<String, Object> r : maps(expect.get("records"))) {
      records.add(
          DnsRecord.of(
              string(r, "name"),
              string(r, "type"),
              ((Number) r.getOrDefault("ttl", 1)).longValue(),
              strings(r.get("targets"))));
    }
    return records;
  }

  private void assertProblems(SoftAssertions soft, List<Problem> actual) {
    List<Map<String, Object>> expected = maps(expect.get("problems"));
    soft.assertThat(actual.stream().map(Problem::field).sorted().toList())
        .as("problem fields (%s)", actual)
        .isEqualTo(expected.stream().map(p -> string(p, "field")).sorted().toList());
    for (Map<String, Object> p : expected) {
      List<Problem> matching =
          actual.stream().filter(a -> a.field().equals(string(p, "field"))).toList();
      if (p.containsKey("value")) {
        soft.assertThat(matching)
            .as("problem %s value", p.get("field"))
            .anySatisfy(a -> assertThat(a.value()).isEqualTo(String.valueOf(p.get("value"))));
      }
      if (p.containsKey("reason")) {
        soft.assertThat(matching)
            .as("problem %s reason", p.get("field"))
            .anySatisfy(a -> assertThat(a.reason()).contains(string(p, "reason")));
      }
    }
  }

  private void assertExplanation(SoftAssertions soft, Explanation actual) {
    Map<String, Object> e = map(expect.get("explanation"));
    if (e.containsKey("summary")) {
      soft.assertThat(actual.summary()).as("summary").contains(string(e, "summary"));
    }
    for (String list : List.of("backends", "zones", "candidateNodes", "chosenTargets")) {
      if (e.containsKey(list)) {
        List<String> value =
            switch (list) {
              case "backends" -> actual.backends();
              case "zones" -> actual.zones();
              case "candidateNodes" -> actual.candidateNodes();
              default -> actual.chosenTargets();
            };
        soft.assertThat(value).as(list).isEqualTo(strings(e.get(list)));
      }
    }
    if (e.containsKey("fallbacks")) {
      List<String> expected = strings(e.get("fallbacks"));
      soft.assertThat(actual.fallbacks()).as("fallbacks").hasSameSizeAs(expected);
      for (String fragment : expected) {
        soft.assertThat(actual.fallbacks())
            .as("fallbacks containing '%s'", fragment)
            .anySatisfy(f -> assertThat(f).contains(fragment));
      }
    }
    for (Map<String, Object> s : maps(e.get("skipped"))) {
      soft.assertThat(actual.skipped())
          .as("skipped %s", s)
          .anySatisfy(
              a -> {
                assertThat(a.input()).contains(string(s, "input"));
                if (s.containsKey("reason")) {
                  assertThat(a.reason()).contains(string(s, "reason"));
                }
              });
    }
  }

  // ------------------------------------------------------------------ parsing

  private static Scenario parse(String file, Map<String, Object> root) {
    Map<String, Object> given = map(root.get("given"));
    Map<String, Object> expect = map(root.get("expect"));
    if (!expect.containsKey("disposition")) {
      throw new IllegalArgumentException("expect.disposition is required");
    }
    RouteState route = route(map(given.get("route")));
    Map<String, ServiceEndpoints> endpoints = new TreeMap<>();
    map(given.get("endpoints"))
        .forEach(
            (service, list) ->
                endpoints.put(
                    service,
                    new ServiceEndpoints(
                        route.namespace(), service, endpointList(list), List.of())));
    List<NodeState> nodes = maps(given.get("nodes")).stream().map(Scenario::node).toList();
    List<HostnameResolution> resolutions =
        maps(given.get("resolutions")).stream().map(Scenario::resolution).toList();
    Object now = root.get("now");
    return new Scenario(
        file,
        String.valueOf(root.getOrDefault("description", file)),
        settings(map(root.get("settings"))),
        now == null ? DEFAULT_NOW : instant(now),
        route,
        endpoints,
        nodes,
        resolutions,
        expect);
  }

  private static PlacementSettings settings(Map<String, Object> s) {
    Object maxStale = s.get("resolutionMaxStale");
    return new PlacementSettings(
        (Boolean) s.getOrDefault("enableIpv4", true),
        (Boolean) s.getOrDefault("enableIpv6", false),
        (Boolean) s.getOrDefault("resolveTargetHostnames", false),
        (String) s.getOrDefault("dnsResolver", PlacementSettings.DEFAULT_DNS_RESOLVER),
        maxStale == null
            ? PlacementSettings.DEFAULT_RESOLUTION_MAX_STALE
            : GoDuration.parse(String.valueOf(maxStale)).map(Duration::from).orElseThrow());
  }

  private static RouteState route(Map<String, Object> r) {
    String namespace = (String) r.getOrDefault("namespace", "default");
    String name = (String) r.getOrDefault("name", "app");
    List<BackendRef> backends = new ArrayList<>();
    Object backendList =
        r.containsKey("backends") ? r.get("backends") : List.of(Map.of("name", "web"));
    for (Map<String, Object> b : maps(backendList)) {
      backends.add(
          new BackendRef(
              (String) b.get("group"),
              (String) b.get("kind"),
              (String) b.get("namespace"),
              String.valueOf(b.get("name")),
              (Integer) b.get("port"),
              (Integer) b.get("weight")));
    }
    List<Problem> problems = new ArrayList<>();
    for (Map<String, Object> p : maps(r.get("problems"))) {
      problems.add(new Problem(string(p, "field"), (String) p.get("value"), string(p, "reason")));
    }
    return new RouteState(
        "HTTPRoute",
        (String) r.getOrDefault("apiVersion", "gateway.networking.k8s.io/v1"),
        namespace,
        name,
        (String) r.getOrDefault("uid", "uid-" + namespace + "-" + name),
        strings(r.get("hostnames")),
        backends,
        stringMap(r.get("annotations")),
        problems);
  }

  private static List<EndpointState> endpointList(Object list) {
    List<EndpointState> endpoints = new ArrayList<>();
    for (Map<String, Object> e : maps(list)) {
      endpoints.add(
          new EndpointState(
              strings(e.get("addresses")),
              (String) e.get("node"),
              (String) e.get("zone"),
              (Boolean) e.get("ready"),
              (Boolean) e.get("serving"),
              (Boolean) e.get("terminating")));
    }
    return endpoints;
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
        (String) n.get("region"),
        (Boolean) n.getOrDefault("ingress", false),
        addresses,
        stringMap(n.get("annotations")),
        List.of());
  }

  private static HostnameResolution resolution(Map<String, Object> r) {
    Object expiresAt = r.get("expiresAt");
    Object resolvedAt = r.get("resolvedAt");
    return new HostnameResolution(
        string(r, "hostname"),
        (String) r.getOrDefault("server", PlacementSettings.DEFAULT_DNS_RESOLVER),
        ProbeStatus.valueOf((String) r.getOrDefault("status", "OK")),
        strings(r.get("ipv4")),
        strings(r.get("ipv6")),
        resolvedAt == null ? DEFAULT_NOW.minusSeconds(60) : instant(resolvedAt),
        expiresAt == null ? DEFAULT_NOW.plusSeconds(240) : instant(expiresAt),
        (Boolean) r.getOrDefault("stale", false));
  }

  private static Instant instant(Object value) {
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
