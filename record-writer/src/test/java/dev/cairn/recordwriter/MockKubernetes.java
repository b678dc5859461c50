package dev.cairn.recordwriter;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * The fabric8 mock API server in CRUD mode, with every write to DNSEndpoints, Gslbs (and their
 * status subresource) and Events recorded (method and path) so tests can count requests at the
 * server, and hooks to change an object between a writer's read and its write.
 *
 * <p>The CRUD mock (8.0.0) writes {@code PUT .../status} without comparing the resourceVersion in
 * the body with the stored one; a real API server refuses a stale one with 409. This dispatcher
 * adds that check, so the writer's optimistic status writes are tested as a real server runs them.
 *
 * <p>{@link #delayWrites} holds the answers to DNSEndpoint and Gslb status writes back (without
 * blocking the server), so writes sent at the same time are in flight together at the server.
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

  static final ResourceDefinitionContext GSLBS =
      new ResourceDefinitionContext.Builder()
          .withGroup("k8gb.io")
          .withVersion("v1beta1")
          .withPlural("gslbs")
          .withKind("Gslb")
          .withNamespaced(true)
          .build();

  /** DNSEndpoint writes. */
  static final String DNS_ENDPOINT_WRITES = "dnsendpoints";

  /** Gslb writes (create, update, delete), not of the status. */
  static final String GSLB_WRITES = "gslbs";

  /** Writes of the Gslb status subresource. */
  static final String GSLB_STATUS_WRITES = "gslbs/status";

  /** {@code networking.k8s.io} Ingress writes. */
  static final String INGRESS_WRITES = "ingresses";

  /** {@code events.k8s.io} Event writes. */
  static final String EVENT_WRITES = "events";

  /**
   * One write request seen by the server.
   *
   * @param resource what was written ({@link #DNS_ENDPOINT_WRITES}, {@link #GSLB_STATUS_WRITES},
   *     ...)
   * @param method POST, PUT, PATCH or DELETE
   * @param namespace the object's namespace
   * @param name the object's name (from the body for a POST)
   * @param status the response status
   * @param atNanos when the server handled it ({@link System#nanoTime()}); the answer goes out
   *     then, or {@link #delayWrites} later
   */
  record Write(
      String resource, String method, String namespace, String name, int status, long atNanos) {}

  private final RecordingDispatcher dispatcher = new RecordingDispatcher();
  private final KubernetesMockServer server;
  private final KubernetesClient client;

  MockKubernetes(boolean installCrds) {
    server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    server.init();
    client = server.createClient();
    if (installCrds) {
      installCrd("crds/dnsendpoints.externaldns.k8s.io.yaml");
      installCrd("crds/k8gb.io_gslbs.yaml");
    }
  }

  private void installCrd(String resource) {
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
      CustomResourceDefinition crd =
          client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
      client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
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

  /** Creates a Gslb with a minimal spec (one host, round robin); returns it with its uid. */
  GenericKubernetesResource createGslb(String namespace, String name) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion("k8gb.io/v1beta1");
    r.setKind("Gslb");
    r.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
    r.setAdditionalProperty(
        "spec",
        Map.of(
            "resourceRef",
            Map.of("apiVersion", "gateway.networking.k8s.io/v1", "kind", "HTTPRoute", "name", name),
            "strategy",
            Map.of("type", "roundRobin")));
    return client.genericKubernetesResources(GSLBS).resource(r).create();
  }

  GenericKubernetesResource getGslb(String namespace, String name) {
    return client.genericKubernetesResources(GSLBS).inNamespace(namespace).withName(name).get();
  }

  /** The Events in a namespace ({@code events.k8s.io/v1}). */
  List<Event> events(String namespace) {
    return client.events().v1().events().inNamespace(namespace).list().getItems();
  }

  /** DNSEndpoint writes whose path names this object (namespace and name). */
  List<Write> writesTo(String namespace, String name) {
    return writesOf(DNS_ENDPOINT_WRITES, namespace, name);
  }

  /** Writes of one kind ({@link #GSLB_STATUS_WRITES}, ...) to one object. */
  List<Write> writesOf(String resource, String namespace, String name) {
    return dispatcher.writes.stream()
        .filter(
            w ->
                w.resource().equals(resource)
                    && w.namespace().equals(namespace)
                    && (name == null || w.name().equals(name)))
        .toList();
  }

  /** Every write of every kind, in the order the server handled them. */
  List<Write> everyWrite() {
    return List.copyOf(dispatcher.writes);
  }

  /** Every write to DNSEndpoints. */
  List<Write> writes() {
    return dispatcher.writes.stream()
        .filter(w -> w.resource().equals(DNS_ENDPOINT_WRITES))
        .toList();
  }

  /**
   * From now on, the answer to every DNSEndpoint and Gslb status write leaves the server {@code
   * delay} after the write was handled (a timer on the server's event loop, which serves other
   * requests meanwhile): a slow API server, so a writer's concurrent writes overlap there.
   */
  void delayWrites(Duration delay) {
    dispatcher.writeDelay = delay;
  }

  /**
   * From now on, DNSEndpoint creates are answered by a constant-time stub instead of the CRUD store
   * (whose every request scans all stored objects, so it slows as it fills): the object is kept in
   * a map, given a uid and a resourceVersion, and returned; a second create of a name is refused
   * with 409. No watch event is sent, and reads do not see these objects. For benchmarks that
   * measure the writer apart from the mock (each create is still recorded).
   */
  void answerCreatesInConstantTime() {
    dispatcher.stubCreates = true;
  }

  /**
   * Before the next PUT of this DNSEndpoint reaches the store, replaces the stored object with
   * {@code edit} applied to the body the writer sent: a concurrent change that makes the writer's
   * resourceVersion stale.
   */
  void beforeNextUpdate(
      String namespace, String name, UnaryOperator<GenericKubernetesResource> edit) {
    dispatcher.updateHook.set(new Hook("/namespaces/" + namespace + "/dnsendpoints/" + name, edit));
  }

  /**
   * Before the next status PUT of this Gslb reaches the store, replaces the stored Gslb, and its
   * status, with {@code edit} applied to it as stored: a concurrent change (by hand, or by another
   * writer) that makes the writer's resourceVersion stale.
   */
  void beforeNextStatusUpdate(
      String namespace, String name, UnaryOperator<GenericKubernetesResource> edit) {
    dispatcher.statusHook.set(
        new Hook("/namespaces/" + namespace + "/gslbs/" + name + "/status", edit));
  }

  /**
   * From now on, every Ingress write whose body contains {@code marker} is refused with 422 and
   * {@code message}, as an API server refuses an invalid object.
   */
  void refuseIngressesContaining(String marker, String message) {
    dispatcher.refusals.put(marker, message);
  }

  @Override
  public void close() {
    client.close();
    server.destroy();
  }

  private static RecordedRequest copy(RecordedRequest request, String body) {
    return request(request.method(), request.getPath(), request, body);
  }

  private static RecordedRequest request(
      HttpMethod method, String path, RecordedRequest like, String body) {
    return new RecordedRequest(
        "HTTP/1.1", method, path, like.getHeaders(), new Buffer().writeUtf8(body));
  }

  private static String resourceOf(String bare) {
    if (bare.contains("/dnsendpoints")) {
      return DNS_ENDPOINT_WRITES;
    }
    if (bare.contains("/apis/k8gb.io/") && bare.contains("/gslbs")) {
      return bare.endsWith("/status") ? GSLB_STATUS_WRITES : GSLB_WRITES;
    }
    if (bare.contains("/apis/networking.k8s.io/") && bare.contains("/ingresses")) {
      return INGRESS_WRITES;
    }
    if (bare.contains("/apis/events.k8s.io/") && bare.contains("/events")) {
      return EVENT_WRITES;
    }
    return null;
  }

  private record Hook(String pathSuffix, UnaryOperator<GenericKubernetesResource> edit) {}

  private final class RecordingDispatcher extends KubernetesCrudDispatcher {
    final List<Write> writes = new CopyOnWriteArrayList<>();
    final AtomicReference<Hook> updateHook = new AtomicReference<>();
    final AtomicReference<Hook> statusHook = new AtomicReference<>();
    volatile Duration writeDelay;
    volatile boolean stubCreates;
    final Map<String, String> refusals = new ConcurrentHashMap<>();
    final Map<String, Boolean> stubbed = new ConcurrentHashMap<>();
    final AtomicLong stubVersion = new AtomicLong(1_000_000_000L);

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String path = request.getPath();
      String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
      String method = request.getMethod();
      String resource = resourceOf(bare);
      boolean write =
          resource != null
              && (method.equals("POST")
                  || method.equals("PUT")
                  || method.equals("PATCH")
                  || method.equals("DELETE"));
      if (!write) {
        return super.dispatch(request);
      }
      // The body can be read once: keep it and hand the dispatcher fresh copies.
      String body = request.getBody() == null ? "" : request.getUtf8Body();
      MockResponse response;
      if (resource.equals(GSLB_STATUS_WRITES) && method.equals("PUT")) {
        response = statusUpdate(request, bare, body);
      } else if (stubCreates && resource.equals(DNS_ENDPOINT_WRITES) && method.equals("POST")) {
        response = stubCreate(body);
      } else if (resource.equals(INGRESS_WRITES) && refusal(body) != null) {
        response = invalid(refusal(body));
      } else {
        Hook h = updateHook.get();
        if (resource.equals(DNS_ENDPOINT_WRITES)
            && method.equals("PUT")
            && h != null
            && bare.endsWith(h.pathSuffix())
            && updateHook.compareAndSet(h, null)) {
          store(request, bare, h.edit().apply(unmarshal(body)));
        }
        response = super.dispatch(copy(request, body));
      }
      String[] parts = bare.split("/");
      int ns = Arrays.asList(parts).indexOf("namespaces");
      String namespace = ns >= 0 && ns + 1 < parts.length ? parts[ns + 1] : "";
      String name =
          method.equals("POST")
              ? unmarshal(body).getMetadata().getName()
              : resource.equals(GSLB_STATUS_WRITES)
                  ? parts[parts.length - 2]
                  : parts[parts.length - 1];
      writes.add(new Write(resource, method, namespace, name, response.code(), System.nanoTime()));
      Duration delay = writeDelay;
      if (delay != null && !resource.equals(EVENT_WRITES) && !resource.equals(GSLB_WRITES)) {
        response.setBodyDelay(delay);
      }
      return response;
    }

    private MockResponse stubCreate(String body) {
      GenericKubernetesResource r = unmarshal(body);
      String key = r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
      if (stubbed.putIfAbsent(key, Boolean.TRUE) != null) {
        return conflict("AlreadyExists", null);
      }
      r.getMetadata().setUid(UUID.randomUUID().toString());
      r.getMetadata().setResourceVersion(Long.toString(stubVersion.incrementAndGet()));
      r.getMetadata().setGeneration(1L);
      return new MockResponse()
          .setResponseCode(201)
          .setBody(client.getKubernetesSerialization().asJson(r));
    }

    /** A status PUT: run the hook, then refuse a stale resourceVersion as the API server does. */
    private MockResponse statusUpdate(RecordedRequest request, String bare, String body) {
      String objectPath = bare.substring(0, bare.length() - "/status".length());
      Hook h = statusHook.get();
      if (h != null && bare.endsWith(h.pathSuffix()) && statusHook.compareAndSet(h, null)) {
        GenericKubernetesResource stored = read(request, objectPath);
        if (stored != null) {
          GenericKubernetesResource edited = h.edit().apply(stored);
          store(request, objectPath, edited);
          store(request, bare, edited);
        }
      }
      GenericKubernetesResource stored = read(request, objectPath);
      String sent = unmarshal(body).getMetadata().getResourceVersion();
      if (stored != null
          && sent != null
          && !Objects.equals(sent, stored.getMetadata().getResourceVersion())) {
        return conflict(
            "Conflict",
            "Operation cannot be fulfilled on gslbs.k8gb.io \""
                + stored.getMetadata().getName()
                + "\": the object has been modified; please apply your"
                + " changes to the latest version and try again");
      }
      return super.dispatch(copy(request, body));
    }

    /** A 409 as the API server sends it: a Failure status with the reason (and message). */
    private String refusal(String body) {
      for (Map.Entry<String, String> r : refusals.entrySet()) {
        if (body.contains(r.getKey())) {
          return r.getValue();
        }
      }
      return null;
    }

    private MockResponse invalid(String message) {
      return new MockResponse()
          .setResponseCode(422)
          .setBody(
              client
                  .getKubernetesSerialization()
                  .asJson(
                      new StatusBuilder()
                          .withStatus("Failure")
                          .withReason("Invalid")
                          .withCode(422)
                          .withMessage(message)
                          .build()));
    }

    private MockResponse conflict(String reason, String message) {
      return new MockResponse()
          .setResponseCode(409)
          .setBody(
              client
                  .getKubernetesSerialization()
                  .asJson(
                      new StatusBuilder()
                          .withStatus("Failure")
                          .withReason(reason)
                          .withCode(409)
                          .withMessage(message)
                          .build()));
    }

    private GenericKubernetesResource read(RecordedRequest like, String objectPath) {
      MockResponse current = super.dispatch(request(HttpMethod.GET, objectPath, like, ""));
      return current.code() == 200 ? unmarshal(current.getBody().readUtf8()) : null;
    }

    /** Replaces the object stored at {@code path} (unconditionally: no resourceVersion). */
    private void store(RecordedRequest like, String path, GenericKubernetesResource r) {
      r.getMetadata().setResourceVersion(null);
      super.dispatch(
          request(HttpMethod.PUT, path, like, client.getKubernetesSerialization().asJson(r)));
    }

    private GenericKubernetesResource unmarshal(String json) {
      return client.getKubernetesSerialization().unmarshal(json, GenericKubernetesResource.class);
    }
  }
}
