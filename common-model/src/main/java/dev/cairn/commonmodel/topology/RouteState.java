package dev.cairn.commonmodel.topology;

import dev.cairn.commonmodel.Copies;
import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An HTTPRoute, Ingress or Gateway, reduced to what DNS decisions need (a Gateway: its listener
 * host names and {@code status.addresses}, as {@code loadBalancerIps} and {@code
 * loadBalancerHostnames}). Published on {@code cairn.topology.routes.v1}, keyed {@code
 * <kind>/<namespace>/<name>}.
 *
 * @param kind {@code HTTPRoute}, {@code Ingress} or {@code Gateway} (since schema 1.3)
 * @param apiVersion the served API version the object was read with, e.g. {@code
 *     gateway.networking.k8s.io/v1}; used for owner references
 * @param namespace the namespace
 * @param name the name
 * @param uid the object's uid, for owner references
 * @param hostnames {@code spec.hostnames} (HTTPRoute) or the rule hosts (Ingress), as written
 * @param backends every backend reference of every rule, in spec order
 * @param loadBalancerIps an Ingress's {@code status.loadBalancer.ingress[].ip}, in status order
 *     (IPv4 and IPv6 literals; empty for an HTTPRoute, whose targets Cairn places on nodes). Since
 *     schema 1.1
 * @param loadBalancerHostnames an Ingress's {@code status.loadBalancer.ingress[].hostname}, in
 *     status order. Since schema 1.1
 * @param annotations the Cairn-relevant annotations only ({@code directdns.meisterlala.dev/*},
 *     {@code k8gb.io/*}, {@code external-dns.alpha.kubernetes.io/hostname})
 * @param problems what could not be normalised, each naming the field and value
 * @param controller the object's controller owner reference ({@code metadata.ownerReferences[]}
 *     with {@code controller: true}), {@code null} when it has none: which Gslb an Ingress created
 *     from a Gslb's {@code spec.ingress} belongs to. Since schema 1.2
 * @param labels the object's labels ({@code metadata.labels}), all of them: a Gslb's resourceRef
 *     may select its Ingress or HTTPRoute by label (k8gb.md §3.1). Since schema 1.3; empty in a
 *     record of an older schema
 * @param parentRefs an HTTPRoute's {@code spec.parentRefs}, as written (a Gslb whose local targets
 *     are its Gateway's addresses reads the one Gateway among them). Since schema 1.3; empty for an
 *     Ingress, a Gateway, and a record of an older schema
 * @param rules an Ingress's rules that have a host, each with its own path backends, in spec order:
 *     k8gb checks the health of a host against the backends of its own rules only (k8gb.md §3.1,
 *     §4), which {@code backends}, every rule's together, cannot say. Since schema 1.4; empty for
 *     an HTTPRoute (every backend serves every host name), a Gateway, and a record of an older
 *     schema
 */
public record RouteState(
    String kind,
    String apiVersion,
    String namespace,
    String name,
    String uid,
    List<String> hostnames,
    List<BackendRef> backends,
    List<String> loadBalancerIps,
    List<String> loadBalancerHostnames,
    Map<String, String> annotations,
    List<Problem> problems,
    Controller controller,
    Map<String, String> labels,
    List<ParentRef> parentRefs,
    List<Rule> rules) {

  /**
   * One rule of an Ingress ({@code spec.rules[]}) that has a host.
   *
   * @param host the rule's {@code host}, as written
   * @param backends the Service backends of the rule's {@code http.paths}, in spec order
   */
  public record Rule(String host, List<BackendRef> backends) {

    public Rule {
      Objects.requireNonNull(host, "host");
      backends = Copies.list(backends);
    }
  }

  /**
   * One {@code spec.parentRefs} entry of an HTTPRoute, as written.
   *
   * @param group the group; {@code null} or absent means {@code gateway.networking.k8s.io}
   * @param kind the kind; {@code null} or absent means {@code Gateway}
   * @param namespace the namespace; {@code null} means the route's
   * @param name the name
   * @param sectionName the listener, {@code null} for all
   */
  public record ParentRef(
      String group, String kind, String namespace, String name, String sectionName) {

    /** The Gateway API group, which a parent without a group belongs to. */
    public static final String GATEWAY_GROUP = "gateway.networking.k8s.io";

    /** True when this parent is a Gateway (the defaults included). */
    public boolean isGateway() {
      return (group == null || group.equals(GATEWAY_GROUP))
          && (kind == null || kind.equals("Gateway"));
    }

    /** The Gateway's key, {@code Gateway/<namespace>/<name>}, the namespace defaulting. */
    public String gatewayKey(String routeNamespace) {
      return "Gateway/"
          + (namespace == null || namespace.isEmpty() ? routeNamespace : namespace)
          + "/"
          + name;
    }
  }

  /**
   * A controller owner reference.
   *
   * @param apiVersion the controller's apiVersion, e.g. {@code k8gb.io/v1beta1}
   * @param kind its kind
   * @param name its name (in the route's namespace)
   * @param uid its uid
   */
  public record Controller(String apiVersion, String kind, String name, String uid) {

    /** {@code <kind> <name> (<apiVersion>)}, for explanations. */
    @Override
    public String toString() {
      return kind + " " + name + " (" + apiVersion + ")";
    }
  }

  public RouteState {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    hostnames = Copies.list(hostnames);
    backends = Copies.list(backends);
    loadBalancerIps = Copies.list(loadBalancerIps);
    loadBalancerHostnames = Copies.list(loadBalancerHostnames);
    annotations = Copies.sortedMap(annotations);
    problems = Copies.list(problems);
    labels = Copies.sortedMap(labels);
    parentRefs = Copies.list(parentRefs);
    rules = Copies.list(rules);
  }

  /** A route without per-rule backends (an HTTPRoute, a Gateway). */
  public RouteState(
      String kind,
      String apiVersion,
      String namespace,
      String name,
      String uid,
      List<String> hostnames,
      List<BackendRef> backends,
      List<String> loadBalancerIps,
      List<String> loadBalancerHostnames,
      Map<String, String> annotations,
      List<Problem> problems,
      Controller controller,
      Map<String, String> labels,
      List<ParentRef> parentRefs) {
    this(
        kind,
        apiVersion,
        namespace,
        name,
        uid,
        hostnames,
        backends,
        loadBalancerIps,
        loadBalancerHostnames,
        annotations,
        problems,
        controller,
        labels,
        parentRefs,
        List.of());
  }

  /** A route without parent references. */
  public RouteState(
      String kind,
      String apiVersion,
      String namespace,
      String name,
      String uid,
      List<String> hostnames,
      List<BackendRef> backends,
      List<String> loadBalancerIps,
      List<String> loadBalancerHostnames,
      Map<String, String> annotations,
      List<Problem> problems,
      Controller controller,
      Map<String, String> labels) {
    this(
        kind,
        apiVersion,
        namespace,
        name,
        uid,
        hostnames,
        backends,
        loadBalancerIps,
        loadBalancerHostnames,
        annotations,
        problems,
        controller,
        labels,
        List.of());
  }

  /** A route without labels. */
  public RouteState(
      String kind,
      String apiVersion,
      String namespace,
      String name,
      String uid,
      List<String> hostnames,
      List<BackendRef> backends,
      List<String> loadBalancerIps,
      List<String> loadBalancerHostnames,
      Map<String, String> annotations,
      List<Problem> problems,
      Controller controller) {
    this(
        kind,
        apiVersion,
        namespace,
        name,
        uid,
        hostnames,
        backends,
        loadBalancerIps,
        loadBalancerHostnames,
        annotations,
        problems,
        controller,
        Map.of());
  }

  /** A route without a load-balancer status (every HTTPRoute; an Ingress not yet exposed). */
  public RouteState(
      String kind,
      String apiVersion,
      String namespace,
      String name,
      String uid,
      List<String> hostnames,
      List<BackendRef> backends,
      Map<String, String> annotations,
      List<Problem> problems) {
    this(
        kind,
        apiVersion,
        namespace,
        name,
        uid,
        hostnames,
        backends,
        List.of(),
        List.of(),
        annotations,
        problems,
        null,
        Map.of());
  }

  /** The stable id of this route. */
  public ObjectRef ref() {
    return ObjectRef.of(kind, namespace, name);
  }
}
