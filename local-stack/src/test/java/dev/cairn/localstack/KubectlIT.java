package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl against the local stack's mock API, the way the stack's banner suggests using
 * it: what a user types must work as on a cluster.
 */
class KubectlIT {

  private static final String NS = "apps";
  private static final ResourceDefinitionContext GSLBS =
      new ResourceDefinitionContext.Builder()
          .withGroup("k8gb.io")
          .withVersion("v1beta1")
          .withKind("Gslb")
          .withPlural("gslbs")
          .withNamespaced(true)
          .build();

  private MockKubernetesApi api;
  private KubernetesClient client;
  private InteropTool kubectl;

  @BeforeEach
  void start() {
    kubectl = InteropTool.findOrSkip("kubectl", "kubernetes-client");
    api = MockKubernetesApi.start(0, new IndexedCrudDispatcher(8, Duration.ZERO));
    client = api.client();
  }

  @AfterEach
  void stop() {
    if (api != null) {
      api.close();
    }
  }

  private List<String> kubectl(String... args) {
    String[] all = new String[args.length + 2];
    all[0] = "--server";
    all[1] = api.url();
    System.arraycopy(args, 0, all, 2, args.length);
    return kubectl.run(all);
  }

  private void gslb(String name, String strategy) {
    GenericKubernetesResource g = new GenericKubernetesResource();
    g.setApiVersion("k8gb.io/v1beta1");
    g.setKind("Gslb");
    g.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withNamespace(NS)
            .withName(name)
            .build());
    g.setAdditionalProperty(
        "spec",
        Map.of(
            "resourceRef",
            Map.of("apiVersion", "gateway.networking.k8s.io/v1", "kind", "HTTPRoute", "name", name),
            "strategy",
            Map.of("type", strategy, "dnsTtlSeconds", 30)));
    client.genericKubernetesResources(GSLBS).inNamespace(NS).resource(g).create();
  }

  private void warning(String regarding, String uid, String reason, String note) {
    client
        .events()
        .v1()
        .events()
        .inNamespace(NS)
        .resource(
            new EventBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName(regarding + "." + reason.toLowerCase(java.util.Locale.ROOT))
                .endMetadata()
                .withNewRegarding()
                .withApiVersion("k8gb.io/v1beta1")
                .withKind("Gslb")
                .withNamespace(NS)
                .withName(regarding)
                .withUid(uid)
                .endRegarding()
                .withType("Warning")
                .withReason(reason)
                .withNote(note)
                .withAction("Decide")
                .withReportingController("cairn.dev/record-writer")
                .withReportingInstance("writer-0")
                .withNewEventTime("2026-11-30T21:44:03.000000Z")
                .build())
        .create();
  }

  /** kubectl describe finds an object's Events with a typed client, which needs an EventList. */
  @Test
  void describeShowsTheEventsCairnRecordsOnAGslb() {
    gslb("shop", "roundRobin");
    String uid =
        client
            .genericKubernetesResources(GSLBS)
            .inNamespace(NS)
            .withName("shop")
            .get()
            .getMetadata()
            .getUid();
    warning("shop", uid, "RecordConflict", "DNSEndpoint apps/shop leaves out 2 names");

    String described = String.join("\n", kubectl("describe", "gslb", "shop", "-n", NS));

    assertThat(described)
        .contains("Events:")
        .contains("RecordConflict")
        .contains("DNSEndpoint apps/shop leaves out 2 names")
        .doesNotContain("Events:  <none>")
        .doesNotContain("Events:                     <none>");
  }

  @Test
  void getEventsListsThemInEveryNamespace() {
    gslb("shop", "roundRobin");
    warning("shop", "u-1", "InvalidSpec", "Gslb apps/shop: spec.strategy.type='random'");

    assertThat(kubectl("get", "events", "-A", "-o", "name"))
        .containsExactly("event/shop.invalidspec");
    assertThat(kubectl("get", "events.events.k8s.io", "-n", NS, "-o", "name"))
        .containsExactly("event.events.k8s.io/shop.invalidspec");
  }

  @Test
  void listsAreNamedAfterTheirKind() {
    gslb("shop", "roundRobin");

    assertThat(String.join("", kubectl("get", "--raw", "/apis/k8gb.io/v1beta1/gslbs")))
        .contains("\"kind\":\"GslbList\"")
        .contains("\"apiVersion\":\"k8gb.io/v1beta1\"");
    assertThat(String.join("", kubectl("get", "--raw", "/api/v1/namespaces/apps/events")))
        .contains("\"kind\":\"EventList\"");
    assertThat(String.join("", kubectl("get", "--raw", "/api/v1/nodes")))
        .contains("\"kind\":\"NodeList\"")
        .contains("\"items\":[]");
  }
}
