package dev.cairn.recordwriter.plan;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.TargetDecision;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Named inputs for plan tests: decisions for HTTPRoutes and the DNSEndpoints they produce. */
final class PlanFixtures {

  static final Instant NOW = Instant.parse("2026-03-14T12:00:00Z");
  static final String ROUTE_API = "gateway.networking.k8s.io/v1";

  private PlanFixtures() {}

  /** A decision for {@code HTTPRoute/<ns>/<route>} writing {@code httproute-<route>}. */
  static Decision route(String namespace, String route) {
    return new Decision(
        ObjectRef.of("HTTPRoute", namespace, route), namespace, "httproute-" + route);
  }

  static DnsRecord a(String name, String... targets) {
    return DnsRecord.of(name, "A", 30, Arrays.asList(targets));
  }

  static Endpoint endpointA(String name, String... targets) {
    return Endpoint.of(name, "A", 30, Arrays.asList(targets));
  }

  static DesiredState complete(TargetDecision... decisions) {
    return state(true, decisions);
  }

  static DesiredState incomplete(TargetDecision... decisions) {
    return state(false, decisions);
  }

  private static DesiredState state(boolean complete, TargetDecision... decisions) {
    Map<String, TargetDecision> map = new HashMap<>();
    for (TargetDecision d : decisions) {
      map.put(d.source().key(), d);
    }
    return new DesiredState(map, complete);
  }

  /** Builds one decision. */
  static final class Decision {
    private ObjectRef source;
    private String namespace;
    private String name;
    private String uid;
    private Map<String, String> labels = Map.of();
    private Long grace;

    Decision(ObjectRef source, String namespace, String name) {
      this.source = source;
      this.namespace = namespace;
      this.name = name;
      this.uid = "uid-" + source.name();
    }

    Decision named(String objectName) {
      this.name = objectName;
      return this;
    }

    Decision inNamespace(String ns) {
      this.namespace = ns;
      return this;
    }

    Decision uid(String value) {
      this.uid = value;
      return this;
    }

    Decision labels(Map<String, String> value) {
      this.labels = value;
      return this;
    }

    Decision grace(long seconds) {
      this.grace = seconds;
      return this;
    }

    ObjectKey key() {
      return ObjectKey.of(namespace, name);
    }

    String sourceKey() {
      return source.key();
    }

    TargetDecision publish(DnsRecord... records) {
      return decision(Disposition.PUBLISH, List.of(records));
    }

    TargetDecision noTargets() {
      return decision(Disposition.NO_TARGETS, List.of());
    }

    TargetDecision withdraw() {
      return decision(Disposition.WITHDRAW, List.of());
    }

    private TargetDecision decision(Disposition disposition, List<DnsRecord> records) {
      return new TargetDecision(
          source,
          ROUTE_API,
          uid,
          namespace,
          name,
          disposition,
          records,
          labels,
          grace,
          Explanation.of("test"),
          List.of());
    }

    /** The object Cairn would have written for this source with these endpoints. */
    Current owned(Endpoint... endpoints) {
      Map<String, String> objectLabels = new TreeMap<>(labels);
      objectLabels.put(Ownership.MANAGED_BY_LABEL, Ownership.MANAGED_BY_VALUE);
      Map<String, String> annotations = new TreeMap<>();
      annotations.put(Ownership.SOURCE_ANNOTATION, source.key());
      return new Current(
          key(),
          objectLabels,
          annotations,
          uid == null ? null : new ControllerRef(ROUTE_API, source.kind(), source.name(), uid),
          List.of(endpoints));
    }
  }

  /** Builds one existing object. */
  static final class Current {
    private final ObjectKey key;
    private final Map<String, String> labels;
    private final Map<String, String> annotations;
    private ControllerRef controller;
    private final List<Endpoint> endpoints;
    private String version = "7";

    Current(
        ObjectKey key,
        Map<String, String> labels,
        Map<String, String> annotations,
        ControllerRef controller,
        List<Endpoint> endpoints) {
      this.key = key;
      this.labels = new TreeMap<>(labels);
      this.annotations = new TreeMap<>(annotations);
      this.controller = controller;
      this.endpoints = endpoints;
    }

    static Current foreign(ObjectKey key, String manager, Endpoint... endpoints) {
      Map<String, String> labels = new TreeMap<>();
      if (manager != null) {
        labels.put(Ownership.MANAGED_BY_LABEL, manager);
      }
      return new Current(key, labels, Map.of(), null, List.of(endpoints));
    }

    Current annotation(String k, String v) {
      annotations.put(k, v);
      return this;
    }

    Current withoutAnnotation(String k) {
      annotations.remove(k);
      return this;
    }

    Current staleSince(String v) {
      return annotation(Ownership.STALE_SINCE_ANNOTATION, v);
    }

    Current label(String k, String v) {
      labels.put(k, v);
      return this;
    }

    Current controller(ControllerRef ref) {
      this.controller = ref;
      return this;
    }

    CurrentRecord build() {
      return new CurrentRecord(key, version, labels, annotations, controller, endpoints);
    }
  }

  /** The current record a desired record becomes once written. */
  static CurrentRecord written(DesiredRecord d) {
    Map<String, String> annotations = new TreeMap<>();
    annotations.put(Ownership.SOURCE_ANNOTATION, d.source());
    if (d.staleSince() != null) {
      annotations.put(Ownership.STALE_SINCE_ANNOTATION, d.staleSince());
    }
    return new CurrentRecord(d.key(), "8", d.labels(), annotations, d.controller(), d.endpoints());
  }
}
