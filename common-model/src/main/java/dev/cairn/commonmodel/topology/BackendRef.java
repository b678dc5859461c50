package dev.cairn.commonmodel.topology;

import java.util.Objects;

/**
 * A backend reference of a route rule ({@code HTTPRoute.spec.rules[].backendRefs[]}) or an Ingress
 * path backend.
 *
 * @param group the API group; empty or {@code null} means the core group
 * @param kind the kind; {@code null} means {@code Service}
 * @param namespace the namespace; {@code null} means the route's own namespace
 * @param name the referenced object's name
 * @param port the port, when given
 * @param weight the weight, when given
 */
public record BackendRef(
    String group, String kind, String namespace, String name, Integer port, Integer weight) {

  public BackendRef {
    Objects.requireNonNull(name, "name");
  }

  /** A core Service backend in the route's namespace. */
  public static BackendRef service(String name) {
    return new BackendRef(null, null, null, name, null, null);
  }

  /** True when this refers to a core-group Service. */
  public boolean isService() {
    return (group == null || group.isEmpty()) && (kind == null || "Service".equals(kind));
  }
}
