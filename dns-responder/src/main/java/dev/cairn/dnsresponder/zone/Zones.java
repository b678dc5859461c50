package dev.cairn.dnsresponder.zone;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The configured zones, found by name. A name belongs to the deepest zone that contains it, so a
 * configured sub-zone takes its names away from the parent zone.
 */
public final class Zones {

  private final List<ZoneSpec> specs;
  private final Map<String, ZoneSpec> byName = new HashMap<>();

  /**
   * @param specs the zones; names must be distinct
   */
  public Zones(List<ZoneSpec> specs) {
    this.specs =
        specs.stream().sorted(Comparator.comparing(ZoneSpec::name)).toList(); // stable order
    for (ZoneSpec spec : specs) {
      if (byName.put(spec.name(), spec) != null) {
        throw new IllegalArgumentException("zone " + spec.name() + " is configured twice");
      }
    }
    if (specs.isEmpty()) {
      throw new IllegalArgumentException("at least one zone is needed");
    }
  }

  /** The zones, sorted by name. */
  public List<ZoneSpec> specs() {
    return specs;
  }

  /**
   * The deepest zone containing {@code name}.
   *
   * @param name a lower-case name without trailing dot
   * @return the zone, or {@code null} when the name is outside every zone
   */
  public ZoneSpec zoneOf(String name) {
    String candidate = name;
    while (true) {
      ZoneSpec spec = byName.get(candidate);
      if (spec != null) {
        return spec;
      }
      int dot = candidate.indexOf('.');
      if (dot < 0) {
        return byName.get("");
      }
      candidate = candidate.substring(dot + 1);
    }
  }

  /** Zones are equal when they configure the same zones (what a snapshot build depends on). */
  @Override
  public boolean equals(Object other) {
    return other instanceof Zones zones && specs.equals(zones.specs);
  }

  @Override
  public int hashCode() {
    return specs.hashCode();
  }

  @Override
  public String toString() {
    return "Zones" + specs;
  }
}
