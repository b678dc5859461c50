package dev.cairn.recordwriter;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.GslbStatus.Server;
import dev.cairn.commonmodel.decision.GslbStatus.ServiceRef;
import java.util.List;
import java.util.Map;

/** Gslb statuses for Gslb {@code <ns>/<name>} with one host, {@code <name>.cloud.example.com}. */
final class TestStatuses {

  private TestStatuses() {}

  static String host(String name) {
    return name + ".cloud.example.com";
  }

  /** A healthy status whose host resolves to {@code targets}, in the order given. */
  static GslbStatus healthy(String namespace, String name, String uid, String... targets) {
    return status(namespace, name, uid, List.of(targets), List.of());
  }

  static GslbStatus status(
      String namespace, String name, String uid, List<String> targets, List<String> problems) {
    return new GslbStatus(
        namespace,
        name,
        uid,
        "eu",
        Map.of(host(name), targets.isEmpty() ? "Unhealthy" : "Healthy"),
        targets.isEmpty() ? Map.of() : Map.of(host(name), targets),
        host(name),
        targets,
        List.of(
            new Server(
                host(name),
                List.of(new ServiceRef(namespace, name), new ServiceRef(namespace, "api")))),
        problems);
  }

  /** The same status with its lists in reverse order: the same value for the status schema. */
  static GslbStatus reordered(GslbStatus s) {
    return new GslbStatus(
        s.namespace(),
        s.name(),
        s.uid(),
        s.geoTag(),
        s.serviceHealth(),
        s.healthyRecords().entrySet().stream()
            .collect(
                java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> reversed(e.getValue()))),
        s.hosts(),
        reversed(s.exposedIps()),
        s.servers().stream().map(v -> new Server(v.host(), reversed(v.services()))).toList(),
        s.problems());
  }

  private static <T> List<T> reversed(List<T> list) {
    List<T> copy = new java.util.ArrayList<>(list);
    java.util.Collections.reverse(copy);
    return copy;
  }
}
