package dev.cairn.recordwriter.ingress;

import java.util.List;
import java.util.Map;

/** Ingress spec trees as the API gives them, for the embedded-ingress tests. */
public final class IngressTrees {

  private IngressTrees() {}

  /** One rule routing {@code /} (Prefix) of the host to the Service on that port. */
  public static Map<String, Object> rule(String host, String service, Number port) {
    return Map.of(
        "host",
        host,
        "http",
        Map.of(
            "paths",
            List.of(
                Map.of(
                    "path",
                    "/",
                    "pathType",
                    "Prefix",
                    "backend",
                    Map.of("service", Map.of("name", service, "port", Map.of("number", port)))))));
  }

  /** A spec.ingress of that one rule. */
  public static Map<String, Object> spec(String host, String service, Number port) {
    return Map.of("rules", List.of(rule(host, service, port)));
  }
}
