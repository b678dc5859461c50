package dev.cairn.recordwriter.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.validation.Problem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CrdSchemaTest {

  private final CrdSchema schema =
      CrdSchema.load("crds/dnsendpoints.externaldns.k8s.io.yaml", "v1alpha1");

  private static Map<String, Object> object(Object endpoints) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("apiVersion", "externaldns.k8s.io/v1alpha1");
    o.put("kind", "DNSEndpoint");
    o.put("metadata", Map.of("name", "x", "namespace", "y", "labels", Map.of("a", "b")));
    o.put("spec", Map.of("endpoints", endpoints));
    return o;
  }

  private static Map<String, Object> endpoint() {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("dnsName", "web.example.com");
    e.put("recordType", "A");
    e.put("recordTTL", 30L);
    e.put("targets", List.of("192.0.2.1"));
    e.put("labels", Map.of("strategy", "roundRobin"));
    e.put("providerSpecific", List.of(Map.of("name", "alias", "value", "true")));
    return e;
  }

  @Test
  void describesTheCrd() {
    assertThat(schema.description()).isEqualTo("externaldns.k8s.io/v1alpha1 DNSEndpoint");
  }

  @Test
  void acceptsAWellFormedObject() {
    assertThat(schema.validate(object(List.of(endpoint())))).isEmpty();
  }

  @Test
  void rejectsWrongTypesNamingTheField() {
    Map<String, Object> e = endpoint();
    e.put("recordTTL", "30");
    e.put("targets", "192.0.2.1");

    List<Problem> problems = schema.validate(object(List.of(e)));

    assertThat(problems)
        .extracting(Problem::field)
        .containsExactlyInAnyOrder("spec.endpoints[0].recordTTL", "spec.endpoints[0].targets");
  }

  @Test
  void rejectsFieldsTheServerWouldPrune() {
    Map<String, Object> e = endpoint();
    e.put("ttl", 30);

    List<Problem> problems = schema.validate(object(List.of(e)));

    assertThat(problems)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.field()).isEqualTo("spec.endpoints[0].ttl");
              assertThat(p.reason()).contains("would drop it");
            });
  }

  @Test
  void rejectsANonStringLabelValue() {
    Map<String, Object> e = endpoint();
    e.put("labels", Map.of("weight", 3));

    assertThat(schema.validate(object(List.of(e))))
        .extracting(Problem::field)
        .containsExactly("spec.endpoints[0].labels.weight");
  }

  @Test
  void checksTheKeywordsTheDnsEndpointCrdDoesNotUseYet() {
    Object crd =
        new org.yaml.snakeyaml.Yaml()
            .load(
                """
                spec:
                  group: g
                  names: {kind: K}
                  versions:
                    - name: v1
                      schema:
                        openAPIV3Schema:
                          type: object
                          required: [spec]
                          properties:
                            spec:
                              type: object
                              properties:
                                mode: {type: string, enum: [a, b]}
                                name: {type: string, pattern: '^[a-z]+$', maxLength: 5}
                                count: {type: integer, format: int32, minimum: 1}
                                items: {type: array, maxItems: 1}
                """);
    CrdSchema custom = CrdSchema.fromManifest("test", crd, "v1");

    assertThat(custom.validate(Map.of())).extracting(Problem::field).containsExactly("spec");
    assertThat(
            custom.validate(
                Map.of(
                    "spec",
                    Map.of(
                        "mode",
                        "c",
                        "name",
                        "ABCDEFG",
                        "count",
                        3_000_000_000L,
                        "items",
                        List.of(1, 2)))))
        .extracting(Problem::field)
        .containsExactlyInAnyOrder(
            "spec.mode", "spec.name", "spec.name", "spec.count", "spec.items");
  }

  @Test
  void failsClearlyForAMissingVersion() {
    assertThatThrownBy(() -> CrdSchema.load("crds/dnsendpoints.externaldns.k8s.io.yaml", "v9"))
        .hasMessageContaining("no version v9");
  }

  @Test
  void checksAGslbStatusAgainstTheStatusSchema() {
    CrdSchema gslb = CrdSchema.load("crds/k8gb.io_gslbs.yaml", "v1beta1");
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("geoTag", "eu");
    status.put("serviceHealth", Map.of("web.example.com", "Healthy"));
    status.put("healthyRecords", Map.of("web.example.com", List.of("192.0.2.1")));
    status.put("hosts", "web.example.com");
    status.put("loadBalancer", Map.of("exposedIps", List.of("192.0.2.1")));
    status.put(
        "servers",
        List.of(
            Map.of(
                "host",
                "web.example.com",
                "services",
                List.of(Map.of("namespace", "shop", "name", "web")))));

    assertThat(gslb.description()).isEqualTo("k8gb.io/v1beta1 Gslb");
    assertThat(gslb.validateField("status", status)).isEmpty();

    status.remove("serviceHealth");
    status.put("problems", List.of("spec.strategy.type: unknown"));
    status.put(
        "servers",
        List.of(Map.of("host", "web.example.com", "services", List.of(Map.of("name", "web")))));
    assertThat(gslb.validateField("status", status))
        .extracting(Problem::field)
        .containsExactlyInAnyOrder(
            "status.serviceHealth", "status.problems", "status.servers[0].services[0].namespace");
  }

  @Test
  void refusesToCheckAFieldTheSchemaDoesNotDeclare() {
    CrdSchema gslb = CrdSchema.load("crds/k8gb.io_gslbs.yaml", "v1beta1");

    assertThatThrownBy(() -> gslb.validateField("conditions", Map.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** As the API server: unknown fields apart from the schema's problems, and pruned on request. */
  @Test
  void listsUnknownFieldsApartAndPrunesThemAsTheApiServerDoes() {
    CrdSchema gslb = CrdSchema.load("crds/k8gb.io_gslbs.yaml", "v1beta1");
    Map<String, Object> strategy = new LinkedHashMap<>();
    strategy.put("type", "failover");
    strategy.put("dnsTtlSeconds", "thirty");
    strategy.put("primaryGeotag", "eu");
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("strategy", strategy);
    spec.put("extra", List.of(1));
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("apiVersion", "k8gb.io/v1beta1");
    object.put("kind", "Gslb");
    object.put("metadata", Map.of("name", "app", "anything", "left to the server"));
    object.put("spec", spec);

    CrdSchema.Checked kept = gslb.check(object, false);
    assertThat(kept.unknownFields()).containsExactly("spec.strategy.primaryGeotag", "spec.extra");
    assertThat(kept.problems())
        .extracting(Problem::field)
        .containsExactly("spec.strategy.dnsTtlSeconds");
    assertThat(strategy).containsKey("primaryGeotag");

    CrdSchema.Checked pruned = gslb.check(object, true);
    assertThat(pruned.unknownFields()).containsExactly("spec.strategy.primaryGeotag", "spec.extra");
    assertThat(strategy).containsOnlyKeys("type", "dnsTtlSeconds");
    assertThat(spec).containsOnlyKeys("strategy");
    assertThat(gslb.check(object, true).unknownFields()).isEmpty();
    assertThat(gslb.validate(object))
        .extracting(Problem::field)
        .containsExactly("spec.strategy.dnsTtlSeconds");

    Map<String, Object> status = new LinkedHashMap<>();
    status.put("geoTag", "eu");
    status.put("conditions", List.of());
    CrdSchema.Checked statusChecked = gslb.checkField("status", status, true);
    assertThat(statusChecked.unknownFields()).containsExactly("status.conditions");
    assertThat(statusChecked.problems())
        .extracting(Problem::field)
        .doesNotContain("status.conditions", "status.geoTag");
    assertThat(status).containsOnlyKeys("geoTag");
  }
}
