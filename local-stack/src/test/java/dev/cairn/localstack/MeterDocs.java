package dev.cairn.localstack;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The meter tables of docs/operations.md ("Metrics"), and the check of a registry's Cairn meters
 * against them: each meter named there, with its type and no tag the row does not list.
 */
final class MeterDocs {

  static final Path OPERATIONS = Path.of("..", "docs", "operations.md");

  private static final Pattern ROW =
      Pattern.compile("^\\| (`[^|]+) \\| ([^|]+) \\| (.*?) \\| .*\\|$");
  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  /** A documented meter: its type as the page writes it and the tag keys it lists. */
  record Documented(String type, Set<String> tags) {}

  private MeterDocs() {}

  /**
   * The documented meters by name. A row may name several meters that share a stem: {@code
   * responder.snapshot.names}, {@code .records}, {@code .problems}.
   */
  static Map<String, Documented> read() throws IOException {
    Map<String, Documented> meters = new TreeMap<>();
    boolean inMetrics = false;
    for (String line : Files.readAllLines(OPERATIONS)) {
      if (line.startsWith("## ")) {
        inMetrics = line.equals("## Metrics");
        continue;
      }
      Matcher row = ROW.matcher(line.replace("\\|", "/"));
      if (!inMetrics || !row.matches()) {
        continue;
      }
      Documented documented = new Documented(row.group(2).strip(), tagKeys(row.group(3)));
      String stem = null;
      Matcher name = CODE.matcher(row.group(1));
      while (name.find()) {
        String n = name.group(1);
        if (n.startsWith(".") && stem != null) {
          n = stem + n;
        } else if (!n.startsWith(".")) {
          stem = n.substring(0, n.lastIndexOf('.'));
        }
        meters.put(n, documented);
      }
    }
    return meters;
  }

  /** The tag keys of a row's tags cell: {@code `peer` (geo tag), `op=upsert/delete`} → peer, op. */
  static Set<String> tagKeys(String cell) {
    Set<String> keys = new TreeSet<>();
    Matcher code = CODE.matcher(cell.replaceAll("\\([^)]*\\)", ""));
    while (code.find()) {
      keys.add(code.group(1).split("=", 2)[0]);
    }
    return keys;
  }

  /**
   * What is wrong with the registry's meters whose names start with one of {@code prefixes}: each
   * line (once) names the service, the meter and the fault. Adds the names looked at to {@code
   * checked}.
   */
  static List<String> check(
      String service,
      MeterRegistry registry,
      Map<String, Documented> documented,
      Set<String> prefixes,
      Set<String> checked) {
    Set<String> wrong = new java.util.LinkedHashSet<>();
    for (Meter meter : registry.getMeters()) {
      String name = meter.getId().getName();
      if (prefixes.stream().noneMatch(name::startsWith)) {
        continue;
      }
      checked.add(name);
      Documented doc = documented.get(name);
      if (doc == null) {
        wrong.add(service + ": " + name + " is not in docs/operations.md");
        continue;
      }
      if (!typeMatches(doc.type(), meter)) {
        wrong.add(service + ": " + name + " is a " + kind(meter) + ", the page says " + doc.type());
      }
      for (Tag tag : meter.getId().getTags()) {
        if (!doc.tags().contains(tag.getKey())) {
          wrong.add(service + ": " + name + " has the tag " + tag.getKey() + ", not on the page");
        }
      }
    }
    return new ArrayList<>(wrong);
  }

  private static boolean typeMatches(String type, Meter meter) {
    String t = type.toLowerCase();
    if (t.startsWith("function counter")) {
      return meter instanceof FunctionCounter;
    }
    if (t.startsWith("counter")) {
      return meter instanceof Counter;
    }
    if (t.startsWith("gauge")) {
      return meter instanceof Gauge || meter instanceof TimeGauge;
    }
    if (t.startsWith("timer")) {
      return meter instanceof Timer || meter instanceof FunctionTimer;
    }
    if (t.startsWith("distribution summary")) {
      return meter instanceof DistributionSummary;
    }
    return false;
  }

  private static String kind(Meter meter) {
    return meter.getId().getType().name().toLowerCase();
  }
}
