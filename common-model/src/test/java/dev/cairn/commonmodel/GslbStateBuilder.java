package dev.cairn.commonmodel;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds {@link GslbState}s; start with {@link TestRecords#aGslb()}. Defaults: Gslb {@code
 * default/app} referencing Ingress {@code app} in its own namespace, strategy {@code roundRobin}
 * with TTL 30 s, no weights and a split-brain threshold of 300 s, service health policy unset, uid
 * derived from the reference.
 */
public final class GslbStateBuilder {

  private String namespace = "default";
  private String name = "app";
  private String uid;
  private boolean uidSet;
  private GslbResourceRef resourceRef =
      new GslbResourceRef("networking.k8s.io/v1", "Ingress", null, "app", null, null);
  private final List<GslbState.IngressRule> ingressRules = new ArrayList<>();
  private String type = "roundRobin";
  private Integer dnsTtlSeconds = 30;
  private String primaryGeoTag;
  private final Map<String, Integer> weight = new LinkedHashMap<>();
  private Integer splitBrainThresholdSeconds = 300;
  private String serviceHealthPolicy;
  private final Map<String, String> annotations = new LinkedHashMap<>();
  private final List<Problem> problems = new ArrayList<>();

  GslbStateBuilder() {}

  /** Sets namespace and name. */
  public GslbStateBuilder named(String namespace, String name) {
    this.namespace = namespace;
    this.name = name;
    return this;
  }

  /** Sets the uid; {@code null} leaves it unknown. */
  public GslbStateBuilder withUid(String uid) {
    this.uid = uid;
    this.uidSet = true;
    return this;
  }

  /** References an Ingress by name in the Gslb's namespace. */
  public GslbStateBuilder referencingIngress(String ingressName) {
    return withResourceRef(
        new GslbResourceRef("networking.k8s.io/v1", "Ingress", null, ingressName, null, null));
  }

  /** References an HTTPRoute by name in the Gslb's namespace. */
  public GslbStateBuilder referencingRoute(String routeName) {
    return withResourceRef(
        new GslbResourceRef(
            "gateway.networking.k8s.io/v1", "HTTPRoute", null, routeName, null, null));
  }

  /** References the Ingresses of the Gslb's namespace that carry all these labels. */
  public GslbStateBuilder selectingIngresses(Map<String, String> matchLabels) {
    return withResourceRef(
        new GslbResourceRef("networking.k8s.io/v1", "Ingress", null, null, matchLabels, null));
  }

  /** Sets {@code spec.resourceRef} as written ({@code null} for embedded-ingress mode). */
  public GslbStateBuilder withResourceRef(GslbResourceRef resourceRef) {
    this.resourceRef = resourceRef;
    return this;
  }

  /**
   * Switches to embedded-ingress mode (no {@code resourceRef}) and adds a rule for a host whose
   * paths lead to these Services in the Gslb's namespace.
   */
  public GslbStateBuilder withIngressRule(String host, String... services) {
    this.resourceRef = null;
    ingressRules.add(
        new GslbState.IngressRule(host, Arrays.stream(services).map(BackendRef::service).toList()));
    return this;
  }

  /** Strategy {@code roundRobin} (the default). */
  public GslbStateBuilder roundRobin() {
    this.type = "roundRobin";
    this.primaryGeoTag = null;
    return this;
  }

  /** Strategy {@code failover} with a primary geo tag. */
  public GslbStateBuilder failover(String primaryGeoTag) {
    this.type = "failover";
    this.primaryGeoTag = primaryGeoTag;
    return this;
  }

  /** Strategy {@code geoip}. */
  public GslbStateBuilder geoip() {
    this.type = "geoip";
    this.primaryGeoTag = null;
    return this;
  }

  /** Sets the strategy type as written, e.g. an unknown spelling. */
  public GslbStateBuilder withStrategyType(String type) {
    this.type = type;
    return this;
  }

  /** Sets {@code dnsTtlSeconds}; {@code null} leaves it unset. */
  public GslbStateBuilder withDnsTtl(Integer seconds) {
    this.dnsTtlSeconds = seconds;
    return this;
  }

  /** Adds a roundRobin weight for a geo tag. */
  public GslbStateBuilder withWeight(String geoTag, int weight) {
    this.weight.put(geoTag, weight);
    return this;
  }

  /** Sets {@code splitBrainThresholdSeconds}; {@code null} leaves it unset. */
  public GslbStateBuilder withSplitBrainThreshold(Integer seconds) {
    this.splitBrainThresholdSeconds = seconds;
    return this;
  }

  /** Sets the service health policy, {@code Any} or {@code All}. */
  public GslbStateBuilder withServiceHealthPolicy(String policy) {
    this.serviceHealthPolicy = policy;
    return this;
  }

  /** Adds or replaces an annotation. */
  public GslbStateBuilder withAnnotation(String key, String value) {
    annotations.put(key, value);
    return this;
  }

  /** Adds a normalisation problem. */
  public GslbStateBuilder withProblem(Problem problem) {
    problems.add(problem);
    return this;
  }

  /** The Gslb. */
  public GslbState build() {
    return new GslbState(
        namespace,
        name,
        uidSet ? uid : TestRecords.uidOf(ObjectRef.of("Gslb", namespace, name)),
        resourceRef,
        ingressRules,
        new GslbStrategy(type, dnsTtlSeconds, primaryGeoTag, weight, splitBrainThresholdSeconds),
        serviceHealthPolicy,
        annotations,
        problems);
  }
}
