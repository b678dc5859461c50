package dev.cairn.topologywatcher;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;

/**
 * A fabric8 mock API server in CRUD mode (expectations, when set, answer first), with a client and
 * the CRDs the watcher looks for.
 */
final class MockCluster implements AutoCloseable {

  private final KubernetesMockServer server;
  private final KubernetesClient client;

  MockCluster() {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            responses,
            new KubernetesMixedDispatcher(responses),
            false);
    server.init();
    client = server.createClient();
  }

  KubernetesMockServer server() {
    return server;
  }

  KubernetesClient client() {
    return client;
  }

  String url() {
    return server.url("/");
  }

  /**
   * Installs (or replaces) the Gateway API HTTPRoute CRD serving the given versions (the first is
   * stored).
   */
  void installHttpRouteCrd(String... versions) {
    installGatewayApiCrd("HTTPRoute", "httproutes", versions);
  }

  /**
   * Installs (or replaces) the Gateway API GRPCRoute CRD serving the given versions (the first is
   * stored).
   */
  void installGrpcRouteCrd(String... versions) {
    installGatewayApiCrd("GRPCRoute", "grpcroutes", versions);
  }

  /** Installs the Gateway API TLSRoute, TCPRoute and UDPRoute CRDs serving one version each. */
  void installTlsTcpUdpRouteCrds(String tls, String tcp, String udp) {
    installGatewayApiCrd("TLSRoute", "tlsroutes", tls);
    installGatewayApiCrd("TCPRoute", "tcproutes", tcp);
    installGatewayApiCrd("UDPRoute", "udproutes", udp);
  }

  /**
   * Installs (or replaces) the Gateway API Gateway CRD serving the given versions (the first is
   * stored).
   */
  void installGatewayCrd(String... versions) {
    installGatewayApiCrd("Gateway", "gateways", versions);
  }

  /**
   * Installs (or replaces) Istio's VirtualService and Gateway CRDs ({@code networking.istio.io})
   * serving the given versions (the first is stored).
   */
  void installIstioCrds(String... versions) {
    installCrd("networking.istio.io", "VirtualService", "virtualservices", versions);
    installCrd("networking.istio.io", "Gateway", "gateways", versions);
  }

  private void installGatewayApiCrd(String kind, String plural, String... versions) {
    installCrd("gateway.networking.k8s.io", kind, plural, versions);
  }

  private void installCrd(String group, String kind, String plural, String... versions) {
    List<CustomResourceDefinitionVersion> list = new ArrayList<>();
    for (int i = 0; i < versions.length; i++) {
      list.add(
          new CustomResourceDefinitionVersionBuilder()
              .withName(versions[i])
              .withServed(true)
              .withStorage(i == 0)
              .withNewSchema()
              .withNewOpenAPIV3Schema()
              .withType("object")
              .withXKubernetesPreserveUnknownFields(true)
              .endOpenAPIV3Schema()
              .endSchema()
              .build());
    }
    CustomResourceDefinition crd =
        new CustomResourceDefinitionBuilder()
            .withNewMetadata()
            .withName(plural + "." + group)
            .endMetadata()
            .withNewSpec()
            .withGroup(group)
            .withScope("Namespaced")
            .withNewNames()
            .withKind(kind)
            .withListKind(kind + "List")
            .withPlural(plural)
            .withSingular(kind.toLowerCase(Locale.ROOT))
            .endNames()
            .withVersions(list)
            .endSpec()
            .build();
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(crd)
        .createOr(NonDeletingOperation::update);
  }

  /** Installs k8gb's Gslb CRD (a verbatim copy of the chart's). */
  void installGslbCrd() {
    try (InputStream in = MockCluster.class.getResourceAsStream("/crds/k8gb.io_gslbs.yaml")) {
      CustomResourceDefinition crd =
          client.apiextensions().v1().customResourceDefinitions().load(in).item();
      client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    client.close();
    try {
      server.destroy();
    } catch (IllegalStateException e) {
      // fabric8's CRUD watch listener can hold the mock server's event loop while a watch the
      // stopped watcher closed drains (local-stack's IndexedCrudDispatcher explains and avoids
      // it), and the server's shutdown then gives up after its own timeout. The test's checks
      // are done by now; the next test starts its own server on another port.
      System.err.println("MockCluster: " + e.getMessage() + " (" + e.getCause() + "); continuing");
    }
  }
}
