package dev.cairn.dnsresponder;

import dev.cairn.dnsresponder.kube.DnsEndpointSource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The fabric8 mock API server in CRUD mode on a port chosen before it starts. */
final class MockApi implements AutoCloseable {

  private final int port;
  private KubernetesMockServer server;
  private KubernetesClient client;

  /** Reserves a free port; nothing listens on it until {@link #start()}. */
  MockApi() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      this.port = socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A client of the server (valid after {@link #start()}). */
  KubernetesClient client() {
    return client;
  }

  String url() {
    return "http://127.0.0.1:" + port;
  }

  /** Starts the server and creates the DNSEndpoint CRD. */
  MockApi start() {
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    server.init(InetAddress.getLoopbackAddress(), port);
    client =
        new KubernetesClientBuilder()
            .withConfig(new ConfigBuilder().withMasterUrl(url()).withNamespace("default").build())
            .build();
    try (InputStream in =
        MockApi.class
            .getClassLoader()
            .getResourceAsStream("crds/dnsendpoints.externaldns.k8s.io.yaml")) {
      CustomResourceDefinition crd =
          client.apiextensions().v1().customResourceDefinitions().load(in).item();
      client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  /** Creates or replaces a DNSEndpoint {@code ns/name} with the given labels and endpoints. */
  void apply(String name, Map<String, String> labels, List<Map<String, Object>> endpoints) {
    GenericKubernetesResource resource =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("externaldns.k8s.io/v1alpha1")
            .withKind("DNSEndpoint")
            .withNewMetadata()
            .withName(name)
            .withNamespace("ns")
            .withLabels(labels)
            .endMetadata()
            .withAdditionalProperties(Map.of("spec", Map.of("endpoints", endpoints)))
            .build();
    var resources =
        client.genericKubernetesResources(DnsEndpointSource.DNS_ENDPOINTS).inNamespace("ns");
    if (resources.withName(name).get() == null) {
      resources.resource(resource).create();
    } else {
      resources.resource(resource).update();
    }
  }

  void delete(String name) {
    client
        .genericKubernetesResources(DnsEndpointSource.DNS_ENDPOINTS)
        .inNamespace("ns")
        .withName(name)
        .delete();
  }

  /** One endpoint as the CRD writes it. */
  static Map<String, Object> endpoint(String dnsName, String type, long ttl, String... targets) {
    return Map.of(
        "dnsName", dnsName, "recordType", type, "recordTTL", ttl, "targets", List.of(targets));
  }

  @Override
  public void close() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      try {
        server.destroy();
      } catch (IllegalStateException e) {
        // fabric8's CRUD watch listener can hold the mock server's event loop while a watch that
        // was just closed drains (local-stack's IndexedCrudDispatcher explains and avoids it),
        // and the server's shutdown then gives up after its own timeout. The test's checks are
        // done by now; the next test starts its own server on another port.
        System.err.println("MockApi: " + e.getMessage() + " (" + e.getCause() + "); continuing");
      }
    }
  }
}
