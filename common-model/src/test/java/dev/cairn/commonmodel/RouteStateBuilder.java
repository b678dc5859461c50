package dev.cairn.commonmodel;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds {@link RouteState}s; start with {@link TestRecords#aRoute()}. Defaults: HTTPRoute {@code
 * default/app}, hostname {@code app.example.com}, backend Service {@code web}, uid derived from the
 * reference, no annotations, no problems.
 */
public final class RouteStateBuilder {

  private static final String HTTP_ROUTE_API = "gateway.networking.k8s.io/v1";
  private static final String INGRESS_API = "networking.k8s.io/v1";

  private String kind = "HTTPRoute";
  private String apiVersion = HTTP_ROUTE_API;
  private String namespace = "default";
  private String name = "app";
  private String uid;
  private boolean uidSet;
  private List<String> hostnames;
  private List<BackendRef> backends;
  private final Map<String, String> annotations = new LinkedHashMap<>();
  private final List<Problem> problems = new ArrayList<>();

  RouteStateBuilder() {}

  /** Sets namespace and name. */
  public RouteStateBuilder named(String namespace, String name) {
    this.namespace = namespace;
    this.name = name;
    return this;
  }

  /** Makes it an HTTPRoute read as {@code gateway.networking.k8s.io/v1} (the default). */
  public RouteStateBuilder httpRoute() {
    this.kind = "HTTPRoute";
    this.apiVersion = HTTP_ROUTE_API;
    return this;
  }

  /** Makes it an Ingress read as {@code networking.k8s.io/v1}. */
  public RouteStateBuilder ingress() {
    this.kind = "Ingress";
    this.apiVersion = INGRESS_API;
    return this;
  }

  /** Sets the apiVersion the object was read with. */
  public RouteStateBuilder withApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
    return this;
  }

  /** Sets the uid; {@code null} leaves it unknown. */
  public RouteStateBuilder withUid(String uid) {
    this.uid = uid;
    this.uidSet = true;
    return this;
  }

  /** Replaces the hostnames (none at all when called without arguments). */
  public RouteStateBuilder withHostnames(String... hostnames) {
    this.hostnames = new ArrayList<>(List.of(hostnames));
    return this;
  }

  /** Adds a backend Service in the route's namespace, without port or weight. */
  public RouteStateBuilder withBackend(String service) {
    return withBackend(BackendRef.service(service));
  }

  /** Adds a backend Service in the route's namespace with a port and weight. */
  public RouteStateBuilder withBackend(String service, Integer port, Integer weight) {
    return withBackend(new BackendRef(null, null, null, service, port, weight));
  }

  /** Adds a backend reference as written. */
  public RouteStateBuilder withBackend(BackendRef backend) {
    if (backends == null) {
      backends = new ArrayList<>();
    }
    backends.add(backend);
    return this;
  }

  /** Removes every backend. */
  public RouteStateBuilder withoutBackends() {
    this.backends = new ArrayList<>();
    return this;
  }

  /** Adds or replaces an annotation. */
  public RouteStateBuilder withAnnotation(String key, String value) {
    annotations.put(key, value);
    return this;
  }

  /** Adds a normalisation problem. */
  public RouteStateBuilder withProblem(Problem problem) {
    problems.add(problem);
    return this;
  }

  /** The route. */
  public RouteState build() {
    ObjectRef ref = ObjectRef.of(kind, namespace, name);
    return new RouteState(
        kind,
        apiVersion,
        namespace,
        name,
        uidSet ? uid : TestRecords.uidOf(ref),
        hostnames != null ? hostnames : List.of("app.example.com"),
        backends != null ? backends : List.of(BackendRef.service("web")),
        annotations,
        problems);
  }
}
