package dev.cairn.recordwriter.status;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * The {@code status} of a {@code k8gb.io/v1beta1} Gslb in its JSON form (maps, lists, strings), as
 * the CRD's status schema declares it: {@code geoTag}, {@code serviceHealth}, {@code
 * healthyRecords} (required), {@code hosts}, {@code loadBalancer.exposedIps}, {@code servers[]}.
 *
 * <p>Two statuses are compared in a normal form, so a status that differs only in ways the schema
 * gives no meaning is never rewritten: map keys are unordered; {@code healthyRecords} targets,
 * {@code exposedIps}, {@code servers[]} and each server's {@code services[]} are sets (sorted, IP
 * literals in canonical text, duplicates removed); {@code hosts} is a set of names joined with
 * {@code ", "} as k8gb writes it; an optional field that is empty ({@code hosts: ""}, {@code
 * servers: []}, {@code loadBalancer: {}}) is the same as an absent one. The required fields are
 * compared as present or absent, so a Gslb without a status gets one.
 *
 * <p>Only the fields above are Cairn's. A top-level status field the schema Cairn knows does not
 * declare (a newer CRD) is kept as it is when the status is written, and is not compared.
 */
public final class GslbStatusForm {

  /** The status fields Cairn writes. */
  public static final Set<String> FIELDS =
      Set.of("geoTag", "healthyRecords", "hosts", "loadBalancer", "servers", "serviceHealth");

  private static final String HOST_SEPARATOR = ", ";
  private static final Comparator<Object> BY_TEXT = Comparator.comparing(String::valueOf);

  private GslbStatusForm() {}

  /**
   * A desired status in normal form, ready to write.
   *
   * @param fields the status fields, in normal form
   * @param problems values of the desired status that could not be written as they are, each naming
   *     its {@code status.*} field; the rest is written
   */
  public record Rendered(Map<String, Object> fields, List<Problem> problems) {
    public Rendered {
      fields = Collections.unmodifiableMap(new TreeMap<>(fields));
      problems = List.copyOf(problems);
    }
  }

  /** Renders the engine's desired status into the CRD's status fields, in normal form. */
  public static Rendered render(GslbStatus desired) {
    List<Problem> problems = new ArrayList<>();
    Map<String, Object> fields = new TreeMap<>();
    if (desired.geoTag() == null) {
      problems.add(
          new Problem(
              "status.geoTag", null, "missing; written as an empty string (the CRD requires it)"));
    }
    fields.put("geoTag", desired.geoTag() == null ? "" : desired.geoTag());

    Map<String, Object> serviceHealth = new TreeMap<>();
    desired
        .serviceHealth()
        .forEach(
            (host, health) -> {
              if (health == null) {
                problems.add(
                    new Problem("status.serviceHealth[" + host + "]", null, "missing; left out"));
              } else {
                serviceHealth.put(host, health);
              }
            });
    fields.put("serviceHealth", Collections.unmodifiableMap(serviceHealth));

    Map<String, Object> healthyRecords = new TreeMap<>();
    desired
        .healthyRecords()
        .forEach(
            (host, targets) -> {
              if (targets == null) {
                problems.add(
                    new Problem("status.healthyRecords[" + host + "]", null, "missing; left out"));
              } else {
                List<Object> present = new ArrayList<>(targets.size());
                for (int i = 0; i < targets.size(); i++) {
                  if (targets.get(i) == null) {
                    problems.add(
                        new Problem(
                            "status.healthyRecords[" + host + "][" + i + "]",
                            null,
                            "missing; left out"));
                  } else {
                    present.add(canonical(targets.get(i)));
                  }
                }
                healthyRecords.put(host, sortedSet(present));
              }
            });
    fields.put("healthyRecords", Collections.unmodifiableMap(healthyRecords));

    String hosts = hosts(desired.hosts());
    if (!hosts.isEmpty()) {
      fields.put("hosts", hosts);
    }

    TreeSet<String> exposed = new TreeSet<>();
    for (int i = 0; i < desired.exposedIps().size(); i++) {
      String ip = desired.exposedIps().get(i);
      Optional<IpLiteral> literal = IpLiteral.parse(ip);
      if (literal.isPresent()) {
        exposed.add(literal.get().text());
      } else {
        problems.add(
            new Problem(
                "status.loadBalancer.exposedIps[" + i + "]",
                ip,
                "not a strict IPv4 or IPv6 address literal; left out"));
      }
    }
    if (!exposed.isEmpty()) {
      fields.put("loadBalancer", Map.of("exposedIps", List.copyOf(exposed)));
    }

    List<Object> servers = new ArrayList<>();
    for (GslbStatus.Server server : desired.servers()) {
      Map<String, Object> s = new TreeMap<>();
      s.put("host", server.host());
      List<Object> services = new ArrayList<>();
      for (GslbStatus.ServiceRef ref : server.services()) {
        services.add(serviceRef(ref.namespace(), ref.name()));
      }
      List<Object> set = sortedSet(services);
      if (!set.isEmpty()) {
        s.put("services", set);
      }
      servers.add(Collections.unmodifiableMap(s));
    }
    servers.sort(BY_TEXT);
    if (!servers.isEmpty()) {
      fields.put("servers", List.copyOf(servers));
    }
    return new Rendered(fields, problems);
  }

  /**
   * The Cairn fields of a status as read from the API, in normal form. A value whose shape the
   * schema does not allow is kept as it is, so it never equals a rendered status and gets
   * rewritten.
   *
   * @param status the object's {@code status}, or {@code null} when it has none
   */
  public static Map<String, Object> known(Object status) {
    Map<String, Object> out = new TreeMap<>();
    if (!(status instanceof Map<?, ?> map)) {
      return Collections.unmodifiableMap(out);
    }
    putIfPresent(out, "geoTag", map.get("geoTag"));
    Object serviceHealth = map.get("serviceHealth");
    putIfPresent(
        out,
        "serviceHealth",
        serviceHealth instanceof Map<?, ?> m ? sortedMap(m, v -> v) : serviceHealth);
    Object healthyRecords = map.get("healthyRecords");
    putIfPresent(
        out,
        "healthyRecords",
        healthyRecords instanceof Map<?, ?> m
            ? sortedMap(m, GslbStatusForm::targetsOrRaw)
            : healthyRecords);
    Object hosts = map.get("hosts");
    if (hosts instanceof String s) {
      String normal = hosts(s);
      if (!normal.isEmpty()) {
        out.put("hosts", normal);
      }
    } else {
      putIfPresent(out, "hosts", hosts);
    }
    Object loadBalancer = map.get("loadBalancer");
    if (loadBalancer instanceof Map<?, ?> lb) {
      Map<String, Object> normal = new TreeMap<>();
      lb.forEach((k, v) -> normal.put(String.valueOf(k), v));
      Object ips = normal.remove("exposedIps");
      Object ipSet = targetsOrRaw(ips);
      if (ipSet != null && !(ipSet instanceof List<?> l && l.isEmpty())) {
        normal.put("exposedIps", ipSet);
      }
      normal.values().removeIf(v -> v == null);
      if (!normal.isEmpty()) {
        out.put("loadBalancer", Collections.unmodifiableMap(normal));
      }
    } else {
      putIfPresent(out, "loadBalancer", loadBalancer);
    }
    Object servers = map.get("servers");
    if (servers instanceof List<?> list) {
      List<Object> normal = new ArrayList<>();
      for (Object server : list) {
        normal.add(server instanceof Map<?, ?> m ? server(m) : server);
      }
      normal.sort(BY_TEXT);
      if (!normal.isEmpty()) {
        out.put("servers", Collections.unmodifiableList(normal));
      }
    } else {
      putIfPresent(out, "servers", servers);
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * The status to write: the object's current status with Cairn's fields replaced by {@code
   * rendered}. Fields Cairn does not know are kept; Cairn's fields absent from {@code rendered} are
   * removed.
   *
   * @param current the object's {@code status}, or {@code null}
   * @param rendered the desired fields in normal form
   */
  public static Map<String, Object> merge(Object current, Map<String, Object> rendered) {
    Map<String, Object> out = new TreeMap<>();
    if (current instanceof Map<?, ?> map) {
      map.forEach(
          (k, v) -> {
            String key = String.valueOf(k);
            if (!FIELDS.contains(key)) {
              out.put(key, v);
            }
          });
    }
    out.putAll(rendered);
    return Collections.unmodifiableMap(out);
  }

  /** The hosts of a k8gb {@code hosts} string, sorted, without duplicates, joined with ", ". */
  static String hosts(String hosts) {
    if (hosts == null) {
      return "";
    }
    TreeSet<String> names = new TreeSet<>();
    for (String part : hosts.split(",")) {
      String name = part.trim();
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return String.join(HOST_SEPARATOR, names);
  }

  private static Object targetsOrRaw(Object value) {
    if (!(value instanceof List<?> list)) {
      return value;
    }
    List<Object> out = new ArrayList<>();
    for (Object v : list) {
      out.add(v instanceof String s ? canonical(s) : v);
    }
    return sortedSet(out);
  }

  private static String canonical(String target) {
    return IpLiteral.parse(target).map(IpLiteral::text).orElse(target);
  }

  private static Map<String, Object> server(Map<?, ?> raw) {
    Map<String, Object> out = new TreeMap<>();
    raw.forEach(
        (k, v) -> {
          if (v != null) {
            out.put(String.valueOf(k), v);
          }
        });
    Object services = out.remove("services");
    if (services instanceof List<?> list) {
      List<Object> normal = new ArrayList<>();
      for (Object ref : list) {
        normal.add(
            ref instanceof Map<?, ?> m
                    && m.get("namespace") instanceof String ns
                    && m.get("name") instanceof String name
                    && m.size() == 2
                ? serviceRef(ns, name)
                : ref);
      }
      List<Object> set = sortedSet(normal);
      if (!set.isEmpty()) {
        out.put("services", set);
      }
    } else if (services != null) {
      out.put("services", services);
    }
    return Collections.unmodifiableMap(out);
  }

  private static Map<String, Object> serviceRef(String namespace, String name) {
    Map<String, Object> ref = new TreeMap<>();
    ref.put("name", name);
    ref.put("namespace", namespace);
    return Collections.unmodifiableMap(ref);
  }

  private static List<Object> sortedSet(List<Object> values) {
    List<Object> out = new ArrayList<>();
    values.stream().distinct().sorted(BY_TEXT).forEach(out::add);
    return Collections.unmodifiableList(out);
  }

  private static Map<String, Object> sortedMap(Map<?, ?> map, UnaryOperator<Object> values) {
    Map<String, Object> out = new TreeMap<>();
    map.forEach((k, v) -> out.put(String.valueOf(k), values.apply(v)));
    return Collections.unmodifiableMap(out);
  }

  private static void putIfPresent(Map<String, Object> out, String key, Object value) {
    if (value != null) {
      out.put(key, value);
    }
  }
}
