package dev.cairn.dnsresponder.zone;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Zones and endpoints for tests: one zone {@code cloud.example.com} with two name servers. */
public final class ZoneFixtures {

  public static final String ZONE = "cloud.example.com";
  public static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  public static final Instant EARLIER = Instant.parse("2026-11-29T11:00:00Z");

  private ZoneFixtures() {}

  /** {@code cloud.example.com}: ns1 in zone with glue (v4 + v6), ns2 outside; negative TTL 30. */
  public static ZoneSpec zone() {
    return new ZoneSpec(
        ZONE,
        List.of(
            new ZoneSpec.NameServer("ns1." + ZONE, List.of("192.0.2.53", "2001:db8::53")),
            new ZoneSpec.NameServer("ns.other.example.net", List.of())),
        "hostmaster." + ZONE,
        7200,
        1800,
        1209600,
        30,
        3600);
  }

  public static Zones zones() {
    return new Zones(List.of(zone()));
  }

  public static SnapshotBuilder.Limits limits() {
    return new SnapshotBuilder.Limits(60, 1_000_000);
  }

  /** An endpoint of object {@code ns/<object>}, created at {@link #EARLIER}. */
  public static EndpointInput endpoint(
      String object, int index, String name, String type, long ttl, String... targets) {
    return new EndpointInput(
        "ns/" + object, EARLIER, index, name, type, ttl, List.of(targets), Map.of());
  }

  /** Like {@link #endpoint} with labels. */
  public static EndpointInput labelled(
      String object, String name, String type, Map<String, String> labels, String... targets) {
    return new EndpointInput("ns/" + object, EARLIER, 0, name, type, 0, List.of(targets), labels);
  }

  /** Builds and expects success. */
  public static ZoneSnapshot snapshot(List<EndpointInput> inputs) {
    BuildResult result = SnapshotBuilder.build(zones(), inputs, limits(), NOW);
    if (result instanceof BuildResult.Built built) {
      return built.snapshot();
    }
    throw new AssertionError("build refused: " + result);
  }

  public static ZoneSnapshot snapshot(EndpointInput... inputs) {
    return snapshot(List.of(inputs));
  }

  /** Endpoints grouped by object ({@code source}), in list order. */
  public static Map<String, List<EndpointInput>> byObject(List<EndpointInput> inputs) {
    Map<String, List<EndpointInput>> objects = new LinkedHashMap<>();
    for (EndpointInput input : inputs) {
      objects.computeIfAbsent(input.source(), s -> new ArrayList<>()).add(input);
    }
    return objects;
  }

  /**
   * The objects whose endpoints differ between two lists, as a source reports them: each with its
   * endpoints in {@code after}, an empty list for one that is gone.
   */
  public static Map<String, List<EndpointInput>> changedObjects(
      List<EndpointInput> before, List<EndpointInput> after) {
    Map<String, List<EndpointInput>> was = byObject(before);
    Map<String, List<EndpointInput>> is = byObject(after);
    Map<String, List<EndpointInput>> changed = new LinkedHashMap<>();
    is.forEach(
        (source, endpoints) -> {
          if (!endpoints.equals(was.get(source))) {
            changed.put(source, endpoints);
          }
        });
    was.keySet().stream()
        .filter(source -> !is.containsKey(source))
        .forEach(source -> changed.put(source, List.of()));
    return changed;
  }
}
