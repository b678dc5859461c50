package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Joins a VirtualService with the load balancer that exposes it, as k8gb does (k8gb.md §3.1): its
 * one {@code spec.gateways} entry other than {@code mesh} names an Istio Gateway, whose {@code
 * spec.selector} must match the labels of exactly one Service, in any namespace the watcher sees;
 * that Service's {@code status.loadBalancer} becomes the VirtualService's load-balancer status.
 *
 * <p>Where the chain breaks the record says why in its problems, and its load-balancer status stays
 * empty. Two kinds of field tell the engine what to do:
 *
 * <ul>
 *   <li>{@code spec.gateways} (no or several gateways) and {@code IstioGateway <ns>/<name>
 *       spec.selector} (an empty selector, or one that selects several Services) are configuration
 *       errors: the engine refuses the Gslb's decision and its records stay, where k8gb failed the
 *       reconcile;
 *   <li>{@code spec.gateways[<i>]} (the Gateway is not seen, or selects no Service) is an absence:
 *       no local target until it appears, reported on the Gslb.
 * </ul>
 *
 * Pure: the caller passes the Gateways and Services it holds.
 */
public final class IstioJoin {

  /** The field prefix of an Istio Gateway's problems in a VirtualService's record. */
  public static final String GATEWAY_FIELD = "IstioGateway ";

  private IstioJoin() {}

  /**
   * The published record of a VirtualService.
   *
   * @param record the VirtualService as normalised
   * @param gateways the Istio Gateways, by key ({@code IstioGateway/<ns>/<name>}); {@code null}
   *     when not held
   * @param services every Service the watcher holds
   */
  public static RouteState join(
      IstioNormalizer.VirtualServiceRecord record,
      Function<String, IstioGatewayState> gateways,
      Iterable<ServiceState> services) {
    RouteState vs = record.route();
    List<Problem> problems = new ArrayList<>(vs.problems());
    List<String> ips = List.of();
    List<String> hostnames = List.of();
    List<RouteState.ParentRef> parents = vs.parentRefs();
    if (parents.size() != 1) {
      problems.add(
          new Problem(
              "spec.gateways",
              String.valueOf(parents.size()),
              parents.isEmpty()
                  ? "names no Istio Gateway other than mesh: a Gslb on this VirtualService takes"
                      + " the load-balancer addresses of exactly one ingress Gateway's Service"
                  : "names "
                      + parents.size()
                      + " Istio Gateways ("
                      + names(parents, vs.namespace())
                      + "); a Gslb on this VirtualService takes the load-balancer addresses of"
                      + " exactly one, as in k8gb"));
    } else {
      RouteState.ParentRef parent = parents.get(0);
      String field = record.parentFields().get(0);
      String key = IstioNormalizer.gatewayKey(parent, vs.namespace());
      String gatewayName = key.substring("IstioGateway/".length());
      IstioGatewayState gateway = gateways.apply(key);
      if (gateway == null) {
        problems.add(
            new Problem(
                field,
                gatewayName,
                "Istio Gateway "
                    + gatewayName
                    + " is not seen by the topology-watcher (it does not exist, Istio's CRDs are"
                    + " not installed, or its namespace lies outside watcher.namespaces); no"
                    + " load-balancer address until it is"));
      } else if (!gateway.problems().isEmpty()) {
        // A selector with a label left out would select more Services than written: refuse, as
        // for an empty selector, rather than take another Service's addresses.
        for (Problem p : gateway.problems()) {
          problems.add(
              new Problem(
                  GATEWAY_FIELD + gatewayName + " " + p.field(),
                  p.value(),
                  p.reason() + "; the Gateway's selector is not used until it is fixed"));
        }
      } else if (gateway.selector().isEmpty()) {
        problems.add(
            new Problem(
                GATEWAY_FIELD + gatewayName + " spec.selector",
                "{}",
                "is empty: it would select every Service; it must select the one load-balancer"
                    + " Service of the ingress gateway"));
      } else {
        List<ServiceState> selected = new ArrayList<>(1);
        for (ServiceState service : services) {
          if (matches(gateway.selector(), service.labels())) {
            selected.add(service);
          }
        }
        String selector = describe(gateway.selector());
        if (selected.isEmpty()) {
          problems.add(
              new Problem(
                  field,
                  gatewayName,
                  "Istio Gateway "
                      + gatewayName
                      + " selects no Service ("
                      + selector
                      + ") among those the topology-watcher sees (watcher.namespaces,"
                      + " watcher.label-selector); no load-balancer address until one matches"));
        } else if (selected.size() > 1) {
          selected.sort((a, b) -> a.ref().key().compareTo(b.ref().key()));
          List<String> names = new ArrayList<>(selected.size());
          for (ServiceState s : selected) {
            names.add(s.namespace() + "/" + s.name());
          }
          problems.add(
              new Problem(
                  GATEWAY_FIELD + gatewayName + " spec.selector",
                  selector,
                  "selects "
                      + selected.size()
                      + " Services ("
                      + String.join(", ", names)
                      + "); exactly one is needed, as in k8gb: narrow the selector or the"
                      + " Services' labels"));
        } else {
          ips = selected.get(0).loadBalancerIps();
          hostnames = selected.get(0).loadBalancerHostnames();
        }
      }
    }
    return new RouteState(
        vs.kind(),
        vs.apiVersion(),
        vs.namespace(),
        vs.name(),
        vs.uid(),
        vs.hostnames(),
        vs.backends(),
        ips,
        hostnames,
        vs.annotations(),
        problems,
        vs.controller(),
        vs.labels(),
        vs.parentRefs());
  }

  /** True when the VirtualService's one Istio Gateway is among {@code gatewayKeys}. */
  public static boolean references(Object digest, Set<String> gatewayKeys) {
    if (!(digest instanceof IstioNormalizer.VirtualServiceRecord record)) {
      return false;
    }
    RouteState vs = record.route();
    for (RouteState.ParentRef parent : vs.parentRefs()) {
      if (gatewayKeys.contains(IstioNormalizer.gatewayKey(parent, vs.namespace()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The keys of the Gateways whose selector matches a Service's labels before or after a change:
   * the Gateways whose VirtualServices the change can touch.
   */
  public static Set<String> gatewaysSelecting(
      Iterable<?> gateways, ServiceState before, ServiceState after) {
    Set<String> keys = new HashSet<>();
    for (Object value : gateways) {
      if (value instanceof IstioGatewayState g
          && ((before != null && matches(g.selector(), before.labels()))
              || (after != null && matches(g.selector(), after.labels())))) {
        keys.add("IstioGateway/" + g.namespace() + "/" + g.name());
      }
    }
    return keys;
  }

  /** True when every label of the selector is on the object with the same value. */
  public static boolean matches(Map<String, String> selector, Map<String, String> labels) {
    if (selector.isEmpty()) {
      return false;
    }
    for (Map.Entry<String, String> e : selector.entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  private static String describe(Map<String, String> selector) {
    StringBuilder text = new StringBuilder();
    selector.forEach(
        (k, v) -> text.append(text.length() == 0 ? "" : ",").append(k).append('=').append(v));
    return text.toString();
  }

  private static String names(List<RouteState.ParentRef> parents, String namespace) {
    List<String> names = new ArrayList<>(parents.size());
    for (RouteState.ParentRef p : parents) {
      names.add((p.namespace() == null ? namespace : p.namespace()) + "/" + p.name());
    }
    return String.join(", ", names);
  }
}
