package dev.cairn.recordwriter.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.GslbStatus.Server;
import dev.cairn.commonmodel.decision.GslbStatus.ServiceRef;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.kube.CrdSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GslbStatusFormTest {

  static GslbStatus status(
      Map<String, String> health,
      Map<String, List<String>> records,
      String hosts,
      List<String> exposed,
      List<Server> servers) {
    return new GslbStatus(
        "shop", "storefront", "uid-1", "eu", health, records, hosts, exposed, servers, List.of());
  }

  static GslbStatus golden() {
    return status(
        Map.of("b.example.com", "Healthy", "a.example.com", "Unhealthy"),
        Map.of("b.example.com", List.of("192.0.2.2", "192.0.2.1", "192.0.2.2")),
        "b.example.com, a.example.com",
        List.of("2001:DB8:0:0::1", "192.0.2.1"),
        List.of(
            new Server(
                "b.example.com",
                List.of(new ServiceRef("shop", "web"), new ServiceRef("shop", "api"))),
            new Server("a.example.com", List.of(new ServiceRef("shop", "api")))));
  }

  /** The status as a Go controller or kubectl would store it: other order, plain maps. */
  static Map<String, Object> storedLikeGolden() {
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("serviceHealth", Map.of("a.example.com", "Unhealthy", "b.example.com", "Healthy"));
    status.put("healthyRecords", Map.of("b.example.com", List.of("192.0.2.1", "192.0.2.2")));
    status.put("geoTag", "eu");
    status.put("hosts", "a.example.com, b.example.com");
    status.put("loadBalancer", Map.of("exposedIps", List.of("192.0.2.1", "2001:db8::1")));
    status.put(
        "servers",
        List.of(
            Map.of(
                "host",
                "a.example.com",
                "services",
                List.of(Map.of("namespace", "shop", "name", "api"))),
            Map.of(
                "host",
                "b.example.com",
                "services",
                List.of(
                    Map.of("name", "web", "namespace", "shop"),
                    Map.of("name", "api", "namespace", "shop")))));
    return status;
  }

  @Test
  void rendersTheSchemaFieldsInNormalForm() {
    GslbStatusForm.Rendered r = GslbStatusForm.render(golden());

    assertThat(r.problems()).isEmpty();
    assertThat(r.fields())
        .containsOnlyKeys(
            "geoTag", "serviceHealth", "healthyRecords", "hosts", "loadBalancer", "servers");
    assertThat(r.fields().get("hosts")).isEqualTo("a.example.com, b.example.com");
    assertThat(r.fields().get("healthyRecords"))
        .isEqualTo(Map.of("b.example.com", List.of("192.0.2.1", "192.0.2.2")));
    assertThat(r.fields().get("loadBalancer"))
        .isEqualTo(Map.of("exposedIps", List.of("192.0.2.1", "2001:db8::1")));
    assertThat(r.fields().get("servers"))
        .isEqualTo(
            List.of(
                Map.of("host", "a.example.com", "services", List.of(ref("shop", "api"))),
                Map.of(
                    "host",
                    "b.example.com",
                    "services",
                    List.of(ref("shop", "api"), ref("shop", "web")))));
  }

  @Test
  void aStoredStatusInAnotherOrderIsTheSame() {
    assertThat(GslbStatusForm.known(storedLikeGolden()))
        .isEqualTo(GslbStatusForm.render(golden()).fields());
  }

  @Test
  void theRenderedFormIsAFixedPointOfNormalisation() {
    Map<String, Object> rendered = GslbStatusForm.render(golden()).fields();

    assertThat(GslbStatusForm.known(rendered)).isEqualTo(rendered);
    assertThat(GslbStatusForm.known(GslbStatusForm.known(storedLikeGolden())))
        .isEqualTo(GslbStatusForm.known(storedLikeGolden()));
  }

  @Test
  void emptyOptionalFieldsAreTheSameAsAbsentOnes() {
    GslbStatus bare = status(Map.of(), Map.of(), "", List.of(), List.of());
    Map<String, Object> stored = new HashMap<>();
    stored.put("geoTag", "eu");
    stored.put("serviceHealth", Map.of());
    stored.put("healthyRecords", Map.of());
    stored.put("hosts", " , ");
    stored.put("loadBalancer", Map.of("exposedIps", List.of()));
    stored.put("servers", List.of());

    assertThat(GslbStatusForm.render(bare).fields())
        .containsOnlyKeys("geoTag", "serviceHealth", "healthyRecords");
    assertThat(GslbStatusForm.known(stored)).isEqualTo(GslbStatusForm.render(bare).fields());
  }

  @Test
  void missingRequiredFieldsAreADifference() {
    GslbStatus bare = status(Map.of(), Map.of(), null, List.of(), List.of());

    assertThat(GslbStatusForm.known(null)).isEmpty();
    assertThat(GslbStatusForm.known(Map.of("geoTag", "eu")))
        .isNotEqualTo(GslbStatusForm.render(bare).fields());
  }

  @Test
  void aValueOfTheWrongShapeIsKeptSoItIsRewritten() {
    Map<String, Object> stored = storedLikeGolden();
    stored.put("healthyRecords", "b.example.com=192.0.2.1");

    assertThat(GslbStatusForm.known(stored).get("healthyRecords"))
        .isEqualTo("b.example.com=192.0.2.1");
    assertThat(GslbStatusForm.known(stored)).isNotEqualTo(GslbStatusForm.render(golden()).fields());
  }

  @Test
  void aServiceHealthChangeIsADifference() {
    Map<String, Object> stored = storedLikeGolden();
    stored.put("serviceHealth", Map.of("a.example.com", "Healthy", "b.example.com", "Healthy"));

    assertThat(GslbStatusForm.known(stored)).isNotEqualTo(GslbStatusForm.render(golden()).fields());
  }

  @Test
  void leavesOutExposedIpsThatAreNotAddressesAndNamesThem() {
    GslbStatus s =
        status(Map.of(), Map.of(), null, List.of("192.0.2.1", "lb.example.com"), List.of());

    GslbStatusForm.Rendered r = GslbStatusForm.render(s);

    assertThat(r.fields().get("loadBalancer"))
        .isEqualTo(Map.of("exposedIps", List.of("192.0.2.1")));
    assertThat(r.problems())
        .extracting(Problem::field, Problem::value)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "status.loadBalancer.exposedIps[1]", "lb.example.com"));
  }

  @Test
  void writesAMissingGeoTagAsEmptyAndSaysSo() {
    GslbStatus s =
        new GslbStatus("shop", "storefront", null, null, null, null, null, null, null, List.of());

    GslbStatusForm.Rendered r = GslbStatusForm.render(s);

    assertThat(r.fields()).containsEntry("geoTag", "");
    assertThat(r.problems()).extracting(Problem::field).containsExactly("status.geoTag");
  }

  @Test
  void mergeKeepsFieldsCairnDoesNotKnowAndDropsItsOwnThatAreGone() {
    Map<String, Object> stored = new HashMap<>(storedLikeGolden());
    stored.put("conditions", List.of(Map.of("type", "Ready")));
    GslbStatus bare = status(Map.of(), Map.of(), "", List.of(), List.of());

    Map<String, Object> merged = GslbStatusForm.merge(stored, GslbStatusForm.render(bare).fields());

    assertThat(merged)
        .containsOnlyKeys("conditions", "geoTag", "serviceHealth", "healthyRecords")
        .containsEntry("conditions", List.of(Map.of("type", "Ready")))
        .containsEntry("serviceHealth", Map.of());
  }

  @Test
  void aFieldCairnDoesNotKnowIsNoDifference() {
    Map<String, Object> stored = new HashMap<>(storedLikeGolden());
    stored.put("conditions", new ArrayList<>());

    assertThat(GslbStatusForm.known(stored)).isEqualTo(GslbStatusForm.render(golden()).fields());
  }

  @Test
  void hostsAreASetJoinedLikeK8gb() {
    assertThat(GslbStatusForm.hosts("b.example.com,a.example.com, b.example.com ,"))
        .isEqualTo("a.example.com, b.example.com");
    assertThat(GslbStatusForm.hosts(null)).isEmpty();
  }

  private static Map<String, Object> ref(String namespace, String name) {
    return Map.of("namespace", namespace, "name", name);
  }

  /**
   * A host's records with a missing target (a hand-written status: JSON {@code null} in the list)
   * lose that target, reported with its field; the rest of the status is still written. The null
   * used to be rendered as it was, so the whole status violated the Gslb CRD's status schema and
   * was never written.
   */
  @Test
  void aMissingTargetIsLeftOutAndTheStatusStillFitsTheSchema() {
    List<String> targets = new ArrayList<>();
    targets.add("192.0.2.1");
    targets.add(null);
    GslbStatus desired =
        status(
            Map.of("a.example.com", "Healthy"),
            Map.of("a.example.com", targets),
            "a.example.com",
            List.of(),
            List.of());

    GslbStatusForm.Rendered rendered = GslbStatusForm.render(desired);

    assertThat(rendered.fields().get("healthyRecords"))
        .isEqualTo(Map.of("a.example.com", List.of("192.0.2.1")));
    assertThat(rendered.problems())
        .extracting(Problem::field)
        .containsExactly("status.healthyRecords[a.example.com][1]");
    assertThat(
            CrdSchema.load("crds/k8gb.io_gslbs.yaml", "v1beta1")
                .validateField("status", GslbStatusForm.merge(null, rendered.fields())))
        .isEmpty();
  }
}
