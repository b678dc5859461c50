package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;

/**
 * The end-to-end path of Cairn, shared by the system tests that run it on different brokers: an
 * HTTPRoute for {@code app.example.com} with a Service backend whose ready endpoint runs on a node
 * in zone {@code a}, where an ingress-role node has an ExternalIP. The watcher publishes, the
 * engine decides, the writer writes a DNSEndpoint with an A record of that ExternalIP. Marking the
 * endpoint not ready removes the record (after the grace period), and ready again restores it.
 */
final class PipelineScenario {

  /** direct-dns naming: {@code httproute-<name>-<sha1("default/app")[:8]>}. */
  static final String RECORD_NAME = "httproute-app-954f4d3c";

  static final String HOST = "app.example.com";
  static final String EXTERNAL_IP = "203.0.113.10";
  static final Duration PATIENCE = Duration.ofSeconds(90);

  private PipelineScenario() {}

  /** The one cluster of the scenario. */
  static final String CLUSTER = "eu";

  /**
   * Options for the scenario: one cluster, no sample data, a short grace period so removal is
   * observable.
   */
  static LocalStack.Options options() {
    return LocalStack.Options.defaults()
        .withClusters(java.util.List.of(CLUSTER))
        .withSample(false)
        .withGracePeriod(Duration.ofSeconds(2));
  }

  /** Creates the topology of the scenario. */
  static void createTopology(KubernetesClient client) {
    client
        .nodes()
        .resource(SampleTopology.node("ingress-a", "a", true, EXTERNAL_IP, "10.0.0.10", null))
        .create();
    client
        .nodes()
        .resource(SampleTopology.node("ingress-b", "b", true, "198.51.100.20", "10.0.0.20", null))
        .create();
    client
        .nodes()
        .resource(SampleTopology.node("worker-a", "a", false, null, "10.0.1.1", null))
        .create();
    client.services().resource(SampleTopology.service("default", "web")).create();
    client
        .discovery()
        .v1()
        .endpointSlices()
        .resource(
            SampleTopology.endpointSlice("default", "web", "web-1", "worker-a", "10.244.0.5", true))
        .create();
    client
        .resources(HTTPRoute.class)
        .resource(SampleTopology.route("default", "app", HOST, "web"))
        .create();
  }

  /** Waits until the DNSEndpoint has exactly the ExternalIP of the zone-a ingress node. */
  static void awaitRecordWithTarget(KubernetesClient client) {
    await("DNSEndpoint " + RECORD_NAME + " with A " + EXTERNAL_IP)
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () ->
                assertThat(DnsEndpoints.targets(record(client), HOST, "A"))
                    .containsExactly(EXTERNAL_IP));
  }

  /** Flips the readiness of the only endpoint of the web Service. */
  static void setReady(KubernetesClient client, boolean ready) {
    EndpointSlice slice =
        SampleTopology.endpointSlice("default", "web", "web-1", "worker-a", "10.244.0.5", ready);
    client.discovery().v1().endpointSlices().resource(slice).update();
  }

  /** Waits until the DNSEndpoint is gone. */
  static void awaitRecordDeleted(KubernetesClient client) {
    await("DNSEndpoint " + RECORD_NAME + " deleted")
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(200))
        .until(() -> record(client) == null);
  }

  static GenericKubernetesResource record(KubernetesClient client) {
    return DnsEndpoints.of(client).inNamespace("default").withName(RECORD_NAME).get();
  }

  /** The record's managed-by label, which marks Cairn's ownership. */
  static List<String> owners(KubernetesClient client) {
    GenericKubernetesResource r = record(client);
    return r == null || r.getMetadata().getLabels() == null
        ? List.of()
        : List.of(r.getMetadata().getLabels().getOrDefault("app.kubernetes.io/managed-by", ""));
  }
}
