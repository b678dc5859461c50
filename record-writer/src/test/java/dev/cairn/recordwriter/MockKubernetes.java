package dev.cairn.recordwriter;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * The fabric8 mock API server in CRUD mode, with every write to DNSEndpoints recorded (method and
 * path) so tests can count requests at the server, and a hook to change an object between a
 * writer's read and its write.
 */
final class MockKubernetes implements AutoCloseable {

  static final ResourceDefinitionContext DNS_ENDPOINTS =
      new ResourceDefinitionContext.Builder()
          .withGroup("externaldns.k8s.io")
          .withVersion("v1alpha1")
          .withPlural("dnsendpoints")
          .withKind("DNSEndpoint")
          .withNamespaced(true)
          .build();

  /**
   * One write request seen by the server.
   *
   * @param method POST, PUT, PATCH or DELETE
   * @param namespace the object's namespace
   * @param name the object's name (from the body for a POST)
   * @param status the response status
   * @param atNanos when it was answered ({@link System#nanoTime()})
   */
  record Write(String method, String namespace, String name, int status, long atNanos) {}

  private final RecordingDispatcher dispatcher = new RecordingDispatcher();
  private final KubernetesMockServer server;
  private final KubernetesClient client;

  MockKubernetes(boolean installCrd) {
    server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    server.init();
    client = server.createClient();
    if (installCrd) {
      try (InputStream in =
          getClass()
              .getClassLoader()
              .getResourceAsStream("crds/dnsendpoints.externaldns.k8s.io.yaml")) {
        CustomResourceDefinition crd =
            client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
        client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  /** The URL to give a writer as {@code writer.kubernetes.master-url}. */
  String url() {
    return server.url("/");
  }

  KubernetesClient client() {
    return client;
  }

  GenericKubernetesResource get(String namespace, String name) {
    return client
        .genericKubernetesResources(DNS_ENDPOINTS)
        .inNamespace(namespace)
        .withName(name)
        .get();
  }

  GenericKubernetesResource create(GenericKubernetesResource r) {
    return client.genericKubernetesResources(DNS_ENDPOINTS).resource(r).create();
  }

  /** Writes to DNSEndpoints whose path names this object (namespace and name). */
  List<Write> writesTo(String namespace, String name) {
    return dispatcher.writes.stream()
        .filter(w -> w.namespace().equals(namespace) && w.name().equals(name))
        .toList();
  }

  /** Every write to DNSEndpoints. */
  List<Write> writes() {
    return List.copyOf(dispatcher.writes);
  }

  /**
   * Before the next PUT of this object reaches the store, replaces the stored object with {@code
   * edit} applied to the body the writer sent: a concurrent change that makes the writer's
   * resourceVersion stale.
   */
  void beforeNextUpdate(
      String namespace, String name, UnaryOperator<GenericKubernetesResource> edit) {
    dispatcher.hook.set(new Hook("/namespaces/" + namespace + "/dnsendpoints/" + name, edit));
  }

  @Override
  public void close() {
    client.close();
    server.destroy();
  }

  private static RecordedRequest copy(RecordedRequest request, String body) {
    return new RecordedRequest(
        "HTTP/1.1",
        request.method(),
        request.getPath(),
        request.getHeaders(),
        new Buffer().writeUtf8(body));
  }

  private record Hook(String pathSuffix, UnaryOperator<GenericKubernetesResource> edit) {}

  private final class RecordingDispatcher extends KubernetesCrudDispatcher {
    final List<Write> writes = new CopyOnWriteArrayList<>();
    final AtomicReference<Hook> hook = new AtomicReference<>();

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String path = request.getPath();
      String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
      String method = request.getMethod();
      boolean write =
          bare.contains("/dnsendpoints")
              && (method.equals("POST")
                  || method.equals("PUT")
                  || method.equals("PATCH")
                  || method.equals("DELETE"));
      if (!write) {
        return super.dispatch(request);
      }
      // The body can be read once: keep it and hand the dispatcher fresh copies.
      String body = request.getBody() == null ? "" : request.getUtf8Body();
      Hook h = hook.get();
      if (method.equals("PUT")
          && h != null
          && bare.endsWith(h.pathSuffix())
          && hook.compareAndSet(h, null)) {
        GenericKubernetesResource edited =
            h.edit()
                .apply(
                    client
                        .getKubernetesSerialization()
                        .unmarshal(body, GenericKubernetesResource.class));
        super.dispatch(copy(request, client.getKubernetesSerialization().asJson(edited)));
      }
      MockResponse response = super.dispatch(copy(request, body));
      String[] parts = bare.split("/");
      int ns = Arrays.asList(parts).indexOf("namespaces");
      String namespace = ns >= 0 && ns + 1 < parts.length ? parts[ns + 1] : "";
      String name =
          method.equals("POST")
              ? client
                  .getKubernetesSerialization()
                  .unmarshal(body, GenericKubernetesResource.class)
                  .getMetadata()
                  .getName()
              : parts[parts.length - 1];
      writes.add(new Write(method, namespace, name, response.code(), System.nanoTime()));
      return response;
    }
  }
}
