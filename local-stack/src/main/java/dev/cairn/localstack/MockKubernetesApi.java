package dev.cairn.localstack;

import dev.cairn.commonmodel.codec.CairnJson;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscoveryBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.model.jackson.Jackson2JdkTypesModule;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One "cluster": the fabric8 mock Kubernetes API server on a loopback port, in CRUD mode with the
 * stack's own store ({@link IndexedCrudDispatcher}: fabric8's CRUD semantics, indexed, and watches
 * that honour resourceVersion and never stall the server), with the CRDs Cairn needs (HTTPRoute,
 * Gateway, Gslb, DNSEndpoint), the namespaces a new cluster has ({@code default}, {@code
 * kube-system}, ...), API discovery and OpenAPI v3 documents ({@link OpenApiV3}), so that {@code
 * kubectl --server <url>} gets, describes, explains and applies as against a cluster. The protobuf
 * bodies kubectl's generators send ({@code kubectl create namespace|configmap|service|ingress}) are
 * read as JSON ({@link ProtobufBodies}).
 */
final class MockKubernetesApi implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(MockKubernetesApi.class);

  /** The CRD manifests created at start, from {@code src/main/resources/crds}. */
  static final List<String> CRDS =
      List.of(
          "crds/httproutes.gateway.networking.k8s.io.yaml",
          "crds/grpcroutes.gateway.networking.k8s.io.yaml",
          "crds/tlsroutes.gateway.networking.k8s.io.yaml",
          "crds/tcproutes.gateway.networking.k8s.io.yaml",
          "crds/udproutes.gateway.networking.k8s.io.yaml",
          "crds/gateways.gateway.networking.k8s.io.yaml",
          "crds/virtualservices.networking.istio.io.yaml",
          "crds/gateways.networking.istio.io.yaml",
          "crds/k8gb.io_gslbs.yaml",
          "crds/dnsendpoints.externaldns.k8s.io.yaml");

  private final KubernetesMockServer server;
  private final DiscoveryDispatcher dispatcher;
  private final KubernetesClient client;

  private MockKubernetesApi(KubernetesMockServer server, DiscoveryDispatcher dispatcher) {
    this.server = server;
    this.dispatcher = dispatcher;
    this.client =
        new KubernetesClientBuilder()
            .withConfig(
                new io.fabric8.kubernetes.client.ConfigBuilder()
                    .withMasterUrl(url())
                    .withNamespace("default")
                    .withTrustCerts(true)
                    .build())
            // As the services build theirs: fabric8's serialization on Cairn's JSON factory.
            .withKubernetesSerialization(
                new KubernetesSerialization(
                    CairnJson.kubernetesMapperBuilder()
                        .addModule(new Jackson2JdkTypesModule())
                        .build(),
                    true))
            .build();
  }

  /**
   * Starts a mock API server on {@code 127.0.0.1:port} (0 picks a free port) and creates the CRDs.
   */
  static MockKubernetesApi start(int port) {
    return start(port, new IndexedCrudDispatcher());
  }

  /**
   * Starts a mock API server whose CRUD requests (everything but discovery) go to {@code crud}; the
   * benchmarks compare fabric8's own CRUD dispatcher with the one the stack uses.
   */
  static MockKubernetesApi start(int port, Dispatcher crud) {
    // The server's expectations (server.expect()) are not used: every request goes to crud.
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    MockWebServer web = new MockWebServer();
    DiscoveryDispatcher dispatcher = new DiscoveryDispatcher(crud, web);
    KubernetesMockServer server =
        new KubernetesMockServer(new Context(), web, responses, dispatcher, false);
    try {
      server.init(InetAddress.getByName("127.0.0.1"), port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the mock Kubernetes API on port " + port, e);
    }
    MockKubernetesApi api = new MockKubernetesApi(server, dispatcher);
    api.createCrds();
    api.createNamespaces();
    return api;
  }

  /** The API server URL, e.g. {@code http://127.0.0.1:28443}. */
  String url() {
    return "http://127.0.0.1:" + server.getPort();
  }

  /** A client for seeding and watching; owned by this object. */
  KubernetesClient client() {
    return client;
  }

  /** The number of requests the server has received so far (all methods). */
  int requestCount() {
    return server.getRequestCount();
  }

  /** How many recorded requests the server held on to (dropping them). */
  int recordedRequestsHeld() {
    return dispatcher.forgetRecorded();
  }

  /**
   * Told about every request the server has answered: its body (read before the dispatcher consumed
   * it; empty when there was none), its status, and the {@link System#nanoTime()} at which it
   * arrived at the dispatcher and at which its answer was ready (a write's watch events have been
   * sent by then). Called on the server's thread before the answer goes out: a listener must be
   * quick and must not block.
   */
  @FunctionalInterface
  interface RequestListener {
    void answered(
        RecordedRequest request, byte[] body, int status, long receivedNanos, long answeredNanos);
  }

  /** Adds a request listener (the benchmarks time the pipeline with it). */
  void addRequestListener(RequestListener listener) {
    dispatcher.listeners.add(listener);
  }

  /** Removes a request listener added before. */
  void removeRequestListener(RequestListener listener) {
    dispatcher.listeners.remove(listener);
  }

  /** The namespaces every cluster has from the start. */
  static final List<String> NAMESPACES =
      List.of("default", "kube-node-lease", "kube-public", "kube-system");

  /**
   * Creates the namespaces a new cluster has, as the API server does: active, labelled with their
   * name.
   */
  private void createNamespaces() {
    for (String name : NAMESPACES) {
      client
          .namespaces()
          .resource(
              new NamespaceBuilder()
                  .withNewMetadata()
                  .withName(name)
                  .addToLabels("kubernetes.io/metadata.name", name)
                  .endMetadata()
                  .withNewSpec()
                  .addToFinalizers("kubernetes")
                  .endSpec()
                  .withNewStatus()
                  .withPhase("Active")
                  .endStatus()
                  .build())
          .create();
    }
  }

  private void createCrds() {
    for (String path : CRDS) {
      try (InputStream in = MockKubernetesApi.class.getClassLoader().getResourceAsStream(path)) {
        if (in == null) {
          throw new IllegalStateException("CRD manifest " + path + " is not on the classpath");
        }
        CustomResourceDefinition crd =
            client.apiextensions().v1().customResourceDefinitions().load(in).item();
        client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
      } catch (IOException e) {
        throw new UncheckedIOException(path, e);
      }
    }
  }

  /**
   * The discovery documents kubectl reads before it can name a resource type ({@code /api}, {@code
   * /apis}, {@code /api/v1}, {@code /apis/<group>/<version>}), by path without query.
   */
  static Map<String, String> discoveryDocuments() {
    Map<String, String> docs = new HashMap<>();
    docs.put("/api", Serialization.asJson(new APIVersionsBuilder().withVersions("v1").build()));
    List<APIGroup> groups = new ArrayList<>();
    for (Map.Entry<String, List<APIResource>> e : ApiResources.BY_GROUP_VERSION.entrySet()) {
      String groupVersion = e.getKey();
      String path = groupVersion.equals("v1") ? "/api/v1" : "/apis/" + groupVersion;
      docs.put(
          path,
          Serialization.asJson(
              new APIResourceListBuilder()
                  .withGroupVersion(groupVersion)
                  .withResources(e.getValue())
                  .build()));
      if (!groupVersion.equals("v1")) {
        String group = groupVersion.substring(0, groupVersion.indexOf('/'));
        String version = groupVersion.substring(groupVersion.indexOf('/') + 1);
        var gv =
            new GroupVersionForDiscoveryBuilder()
                .withGroupVersion(groupVersion)
                .withVersion(version)
                .build();
        groups.add(
            new APIGroupBuilder()
                .withName(group)
                .withVersions(gv)
                .withPreferredVersion(gv)
                .build());
      }
    }
    docs.put("/apis", Serialization.asJson(new APIGroupListBuilder().withGroups(groups).build()));
    docs.putAll(OpenApiV3.documents(CRDS));
    return Map.copyOf(docs);
  }

  /**
   * Serves the discovery documents and hands every other request to the CRUD dispatcher.
   *
   * <p>fabric8's {@code MockWebServer} also keeps every request it receives, body included, in a
   * queue for its {@code takeRequest()}, which nothing here calls; the dispatcher empties that
   * queue, or a stack that runs for hours would hold every request it ever served (in the 10k
   * benchmark, 131,846 requests after the seeding).
   */
  static final class DiscoveryDispatcher extends Dispatcher {
    private final Map<String, String> documents = discoveryDocuments();
    private final Dispatcher crud;
    private final MockWebServer recorder;
    private final List<RequestListener> listeners = new CopyOnWriteArrayList<>();

    DiscoveryDispatcher(Dispatcher crud, MockWebServer recorder) {
      this.crud = crud;
      this.recorder = recorder;
    }

    /** Drops the requests the server has recorded; how many there were. */
    int forgetRecorded() {
      int dropped = 0;
      try {
        while (recorder.takeRequest(0, TimeUnit.NANOSECONDS) != null) {
          dropped++;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return dropped;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      forgetRecorded();
      if (listeners.isEmpty()) {
        return answer(request);
      }
      long received = System.nanoTime();
      // Reading a recorded body consumes it: keep a copy for the listeners.
      byte[] body = request.getBody() == null ? new byte[0] : request.getBody().getBytes();
      MockResponse response = answer(request);
      long answered = System.nanoTime();
      int status = response == null ? 0 : response.code();
      for (RequestListener listener : listeners) {
        try {
          listener.answered(request, body, status, received, answered);
        } catch (RuntimeException e) {
          log.atWarn().setCause(e).log("a request listener failed; the request is answered");
        }
      }
      return response;
    }

    private MockResponse answer(RecordedRequest request) {
      String path = request.getPath();
      int query = path.indexOf('?');
      String document = documents.get(query < 0 ? path : path.substring(0, query));
      if (document != null && "GET".equals(request.getMethod())) {
        return new MockResponse()
            .setResponseCode(200)
            .addHeader("Content-Type", "application/json")
            .setBody(document);
      }
      if (("POST".equals(request.getMethod()) || "PUT".equals(request.getMethod()))
          && ProtobufBodies.isProtobuf(request.getHeader("Content-Type"))) {
        try {
          request = asJson(request);
        } catch (ProtobufBodies.UnsupportedBody e) {
          return unsupportedMediaType(e.getMessage());
        }
      }
      return crud.dispatch(request);
    }

    /**
     * The request with its protobuf body (kubectl's typed clients send built-in kinds so) as JSON,
     * which the store reads.
     */
    static RecordedRequest asJson(RecordedRequest request) {
      byte[] body = request.getBody() == null ? new byte[0] : request.getBody().getBytes();
      byte[] json =
          ProtobufBodies.toJson(body).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      Headers headers =
          request
              .getHeaders()
              .newBuilder()
              .set("Content-Type", "application/json")
              .set("Content-Length", Integer.toString(json.length))
              .build();
      return new RecordedRequest(
          request.getHttpVersion(), request.method(), request.getPath(), headers, new Buffer(json));
    }

    private static MockResponse unsupportedMediaType(String message) {
      Status status =
          new StatusBuilder()
              .withStatus("Failure")
              .withCode(415)
              .withReason("UnsupportedMediaType")
              .withMessage(message)
              .build();
      return new MockResponse()
          .setResponseCode(415)
          .addHeader("Content-Type", "application/json")
          .setBody(Serialization.asJson(status));
    }

    @Override
    public void shutdown() {
      crud.shutdown();
    }
  }

  @Override
  public void close() {
    client.close();
    server.destroy();
  }
}
