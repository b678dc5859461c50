package dev.cairn.recordwriter.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.recordwriter.plan.ControllerRef;
import dev.cairn.recordwriter.plan.CurrentRecord;
import dev.cairn.recordwriter.plan.DesiredRecord;
import dev.cairn.recordwriter.plan.Endpoint;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Ownership;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DnsEndpointMapperTest {

  private final KubernetesSerialization serialization = new KubernetesSerialization();
  private final DnsEndpointMapper mapper = new DnsEndpointMapper(serialization);
  private final CrdSchema schema =
      CrdSchema.load("crds/dnsendpoints.externaldns.k8s.io.yaml", "v1alpha1");

  private final ControllerRef owner =
      new ControllerRef("gateway.networking.k8s.io/v1", "HTTPRoute", "web", "uid-1");
  private final DesiredRecord desired =
      new DesiredRecord(
          ObjectKey.of("shop", "httproute-web"),
          "HTTPRoute/shop/web",
          Map.of(Ownership.MANAGED_BY_LABEL, "cairn", "k8gb.io/dnstype", "local"),
          owner,
          null,
          List.of(
              new Endpoint(
                  "web.example.com",
                  "A",
                  30,
                  List.of("192.0.2.1"),
                  Map.of("strategy", "roundRobin"),
                  null,
                  Map.of()),
              Endpoint.of("web.example.com", "AAAA", 0, List.of("2001:db8::1"))));

  @Test
  void writesObjectsTheCrdSchemaAccepts() {
    GenericKubernetesResource r = mapper.toNew(desired);

    assertThat(schema.validate(mapper.toJsonMap(r))).isEmpty();
    assertThat(r.getApiVersion()).isEqualTo("externaldns.k8s.io/v1alpha1");
    assertThat(r.getKind()).isEqualTo("DNSEndpoint");
  }

  @Test
  void omitsTtlZeroAndEmptyLabels() {
    Map<String, Object> json = mapper.toJsonMap(mapper.toNew(desired));

    @SuppressWarnings("unchecked")
    List<Map<String, Object>> endpoints =
        (List<Map<String, Object>>) ((Map<String, Object>) json.get("spec")).get("endpoints");
    assertThat(endpoints.get(0)).containsEntry("recordTTL", 30L).containsKey("labels");
    assertThat(endpoints.get(1)).doesNotContainKeys("recordTTL", "labels");
  }

  @Test
  void readsBackWhatItWrote() {
    GenericKubernetesResource r = serialization.clone(mapper.toNew(desired));
    r.getMetadata().setResourceVersion("12");

    CurrentRecord c = mapper.toCurrent(r);

    assertThat(desired.matches(c)).isTrue();
    assertThat(c.version()).isEqualTo("12");
    assertThat(c.owned()).isTrue();
  }

  @Test
  void setsAControllerReferenceThatBlocksOwnerDeletion() {
    OwnerReference ref = mapper.toNew(desired).getMetadata().getOwnerReferences().get(0);

    assertThat(ref.getController()).isTrue();
    assertThat(ref.getBlockOwnerDeletion()).isTrue();
    assertThat(ref.getUid()).isEqualTo("uid-1");
    assertThat(ref.getKind()).isEqualTo("HTTPRoute");
  }

  @Test
  void updatesKeepOtherAnnotationsOwnersStatusAndTheResourceVersion() {
    GenericKubernetesResource base = serialization.clone(mapper.toNew(desired));
    base.getMetadata().setResourceVersion("41");
    base.getMetadata()
        .setAnnotations(
            Map.of(
                "kubectl.kubernetes.io/last-applied-configuration",
                "{}",
                Ownership.STALE_SINCE_ANNOTATION,
                "2026-03-14T12:00:00Z",
                Ownership.SOURCE_ANNOTATION,
                "HTTPRoute/shop/web"));
    base.getMetadata()
        .setOwnerReferences(
            List.of(
                new OwnerReferenceBuilder()
                    .withApiVersion("v1")
                    .withKind("ConfigMap")
                    .withName("keep")
                    .withUid("u")
                    .build(),
                new OwnerReferenceBuilder()
                    .withApiVersion("v1")
                    .withKind("HTTPRoute")
                    .withName("stale")
                    .withUid("old")
                    .withController(true)
                    .build()));
    base.setAdditionalProperty("status", Map.of("observedGeneration", 3));

    GenericKubernetesResource updated = mapper.toUpdated(base, desired);

    assertThat(updated.getMetadata().getResourceVersion()).isEqualTo("41");
    assertThat(updated.getMetadata().getAnnotations())
        .containsEntry("kubectl.kubernetes.io/last-applied-configuration", "{}")
        .doesNotContainKey(Ownership.STALE_SINCE_ANNOTATION);
    assertThat(updated.getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getName)
        .containsExactly("keep", "web");
    assertThat(updated.getAdditionalProperties()).containsKey("status");
    assertThat(base.getMetadata().getAnnotations()).containsKey(Ownership.STALE_SINCE_ANNOTATION);
  }

  @Test
  void anUpdateKeepsEverythingItDoesNotOwnAndLeavesTheObjectItStartedFromAsItWas() {
    // An object as the API serves it, with fields Cairn never writes.
    GenericKubernetesResource base =
        serialization.unmarshal(
            """
            {"apiVersion":"externaldns.k8s.io/v1alpha1","kind":"DNSEndpoint",
             "metadata":{"namespace":"shop","name":"web","resourceVersion":"41","generation":3,
               "uid":"u-1","creationTimestamp":"2026-11-30T00:00:00Z","finalizers":["keep/me"],
               "labels":{"team":"dns"},"annotations":{"note":"hand"},
               "managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"v1",
                 "fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{}}}],
               "ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"keep","uid":"c"}]},
             "spec":{"endpoints":[{"dnsName":"old.example.com","recordType":"A",
               "targets":["192.0.2.9"]}],"extra":{"x":[1,2]}},
             "status":{"observedGeneration":3},
             "somethingNew":{"a":"b"}}
            """,
            GenericKubernetesResource.class);
    String before = serialization.asJson(base);

    Map<String, Object> updated = mapper.toJsonMap(mapper.toUpdated(base, desired));

    assertThat(serialization.asJson(base)).isEqualTo(before);
    Map<String, Object> original = mapper.toJsonMap(base);
    assertThat(updated.get("status")).isEqualTo(original.get("status"));
    assertThat(updated.get("somethingNew")).isEqualTo(original.get("somethingNew"));
    assertThat(updated.get("apiVersion")).isEqualTo(original.get("apiVersion"));
    assertThat(updated.get("kind")).isEqualTo(original.get("kind"));
    Map<String, Object> spec = field(updated, "spec");
    Map<String, Object> originalSpec = field(original, "spec");
    assertThat(spec.get("extra")).isEqualTo(originalSpec.get("extra"));
    assertThat(spec.get("endpoints")).isNotEqualTo(originalSpec.get("endpoints"));
    Map<String, Object> metadata = field(updated, "metadata");
    Map<String, Object> originalMetadata = field(original, "metadata");
    for (String field :
        List.of(
            "namespace",
            "name",
            "resourceVersion",
            "generation",
            "uid",
            "creationTimestamp",
            "finalizers",
            "managedFields")) {
      assertThat(metadata.get(field)).as(field).isEqualTo(originalMetadata.get(field));
    }
    assertThat(metadata.get("labels")).isEqualTo(desired.labels());
    assertThat(field(metadata, "annotations")).containsEntry("note", "hand");
  }

  @Test
  void theSchemaCheckSeesEveryFieldButMetadataAsItIsSentAndGivesTheSameVerdicts() {
    GenericKubernetesResource base =
        serialization.unmarshal(
            """
            {"apiVersion":"externaldns.k8s.io/v1alpha1","kind":"DNSEndpoint",
             "metadata":{"name":"web","namespace":"shop","resourceVersion":"7",
               "labels":{"a":"b"},"annotations":{"note":"hand"}},
             "spec":{"endpoints":[{"dnsName":"old.example.com","recordType":"A",
               "targets":["192.0.2.9"],"recordTTL":60}],"extra":{"x":[1,2]}},
             "status":{"observedGeneration":3},
             "somethingNew":{"a":null}}
            """,
            GenericKubernetesResource.class);
    GenericKubernetesResource noMetadata = serialization.clone(mapper.toNew(desired));
    noMetadata.setMetadata(null);
    for (GenericKubernetesResource r :
        List.of(mapper.toNew(desired), mapper.toUpdated(base, desired), base, noMetadata)) {
      Map<String, Object> full = mapper.toJsonMap(r);
      Map<String, Object> expected = new java.util.LinkedHashMap<>(full);
      if (expected.containsKey("metadata")) {
        expected.put("metadata", Map.of());
      }

      Map<String, Object> input = mapper.toSchemaInput(r);

      assertThat(input).isEqualTo(expected);
      assertThat(schema.validate(input)).isEqualTo(schema.validate(full));
    }
    assertThat(schema.validate(mapper.toSchemaInput(base)))
        .as("the undeclared fields are still found")
        .isNotEmpty();
  }

  /** An object field of a JSON map. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> field(Map<String, Object> json, String name) {
    return (Map<String, Object>) json.get(name);
  }

  @Test
  void readsAnObjectOthersWroteLeniently() {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion("externaldns.k8s.io/v1alpha1");
    r.setKind("DNSEndpoint");
    r.setMetadata(new ObjectMetaBuilder().withNamespace("shop").withName("hand-made").build());
    r.setAdditionalProperty(
        "spec",
        Map.of(
            "endpoints",
            List.of(
                Map.of(
                    "dnsName", "X.example.com", "recordType", "a", "targets", List.of("192.0.2.9")),
                "garbage",
                Map.of("dnsName", "y.example.com"))));

    CurrentRecord c = mapper.toCurrent(r);

    assertThat(c.owned()).isFalse();
    assertThat(c.endpoints())
        .containsExactly(
            Endpoint.of("x.example.com", "A", 0, List.of("192.0.2.9")),
            Endpoint.of("y.example.com", "", 0, List.of()));
  }
}
