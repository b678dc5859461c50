package dev.cairn.recordwriter;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.TargetDecision;
import java.util.List;
import java.util.Map;

/**
 * Decisions for HTTPRoute {@code <ns>/<route>}, written to DNSEndpoint {@code httproute-<route>}.
 */
final class TestDecisions {

  private TestDecisions() {}

  static ObjectRef route(String namespace, String route) {
    return ObjectRef.of("HTTPRoute", namespace, route);
  }

  static String objectName(String route) {
    return "httproute-" + route;
  }

  /**
   * The DNS name a route publishes, {@code <route>.<namespace>.example.com}: one per route, as two
   * routes that publish the same name compete for it (one DNSEndpoint per name).
   */
  static String dnsName(String namespace, String route) {
    return route + "." + namespace + ".example.com";
  }

  static TargetDecision publish(String namespace, String route, String... targets) {
    return decision(
        namespace,
        route,
        Disposition.PUBLISH,
        List.of(DnsRecord.of(dnsName(namespace, route), "A", 30, List.of(targets))),
        null,
        "published");
  }

  static TargetDecision publish(String namespace, String route, List<DnsRecord> records) {
    return decision(namespace, route, Disposition.PUBLISH, records, null, "published");
  }

  static TargetDecision noTargets(String namespace, String route) {
    return decision(namespace, route, Disposition.NO_TARGETS, List.of(), null, "no targets");
  }

  static TargetDecision withdraw(String namespace, String route) {
    return decision(namespace, route, Disposition.WITHDRAW, List.of(), null, "withdrawn");
  }

  static TargetDecision decision(
      String namespace,
      String route,
      Disposition disposition,
      List<DnsRecord> records,
      Long grace,
      String summary) {
    return new TargetDecision(
        route(namespace, route),
        "gateway.networking.k8s.io/v1",
        "uid-" + route,
        namespace,
        objectName(route),
        disposition,
        records,
        Map.of("k8gb.io/dnstype", "local"),
        grace,
        Explanation.of(summary),
        List.of());
  }
}
