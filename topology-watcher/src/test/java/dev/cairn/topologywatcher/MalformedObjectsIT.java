package dev.cairn.topologywatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.commonmodel.validation.Problem;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Objects whose fields have the wrong type, which a CRD without a schema (or one that preserves
 * unknown fields) lets through, on the fabric8 mock API in CRUD mode: each is published with a
 * problem naming the field, and the informer of its kind goes on listing and watching the others.
 */
class MalformedObjectsIT {

  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static final Duration WAIT = Duration.ofSeconds(60);

  private MockCluster cluster;
  private KubernetesClient kube;
  private String prefix;

  @BeforeEach
  void startCluster() {
    cluster = new MockCluster();
    kube = cluster.client();
    prefix = "malformed" + PREFIXES.incrementAndGet() + ".";
  }

  @AfterEach
  void stopCluster() {
    cluster.close();
  }

  private static ResourceDefinitionContext gatewayApi(String kind, String plural) {
    return new ResourceDefinitionContext.Builder()
        .withGroup("gateway.networking.k8s.io")
        .withVersion("v1")
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(true)
        .build();
  }

  private static final ResourceDefinitionContext HTTP_ROUTES =
      gatewayApi("HTTPRoute", "httproutes");
  private static final ResourceDefinitionContext GRPC_ROUTES =
      gatewayApi("GRPCRoute", "grpcroutes");
  private static final ResourceDefinitionContext GATEWAYS = gatewayApi("Gateway", "gateways");

  /** Creates or replaces an object given as JSON text: its kind, name and spec. */
  private void apply(ResourceDefinitionContext type, String name, String spec) {
    GenericKubernetesResource object =
        kube.getKubernetesSerialization()
            .unmarshal(
                """
                {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "%s",
                 "metadata": {"namespace": "shop", "name": "%s"},
                 "spec": %s}
                """
                    .formatted(type.getKind(), name, spec),
                GenericKubernetesResource.class);
    kube.genericKubernetesResources(type).resource(object).createOr(NonDeletingOperation::update);
  }

  private static final String BAD_ROUTE =
      """
      {"hostnames": 12345, "parentRefs": "public",
       "rules": [{"backendRefs": [{"name": 7, "port": "eighty"}]}]}
      """;

  private static String goodRoute(String host) {
    return """
        {"hostnames": ["%s"], "rules": [{"backendRefs": [{"name": "web", "port": 80}]}]}
        """
        .formatted(host);
  }

  @Test
  void aFieldOfTheWrongTypeIsAProblemOfItsObjectAndTheKindIsStillWatched() {
    cluster.installHttpRouteCrd("v1");
    cluster.installGrpcRouteCrd("v1");
    cluster.installGatewayCrd("v1");
    apply(HTTP_ROUTES, "bad", BAD_ROUTE);
    apply(HTTP_ROUTES, "good-before", goodRoute("before.example.com"));
    apply(GRPC_ROUTES, "bad-grpc", "{\"hostnames\": [\"grpc.example.com\"], \"rules\": \"x\"}");
    apply(GATEWAYS, "bad-gateway", "{\"gatewayClassName\": \"example\", \"listeners\": 443}");

    try (RunningWatcher watcher = RunningWatcher.start(cluster, prefix);
        TopicRecorder topics = new TopicRecorder(SharedBroker.bootstrapServers(), prefix)) {
      // The initial list of each kind succeeds, bad objects and all.
      await().atMost(WAIT).until(() -> topics.markers().stream().anyMatch(SyncMarker::synced));
      assertThat(topics.markers().stream().filter(SyncMarker::synced).findFirst().get())
          .extracting(SyncMarker::objectCounts)
          .satisfies(
              counts ->
                  assertThat(counts)
                      .containsEntry("HTTPRoute", 2)
                      .containsEntry("GRPCRoute", 1)
                      .containsEntry("Gateway", 1));

      RouteState bad = (RouteState) topics.latest(Topics.ROUTES, "HTTPRoute/shop/bad");
      assertThat(bad.problems())
          .containsExactly(
              new Problem("spec.hostnames", "12345", "expected a list of strings, found a number"),
              new Problem(
                  "spec.parentRefs", "public", "expected a list of objects, found a string"),
              new Problem(
                  "spec.rules[0].backendRefs[0].port",
                  "eighty",
                  "expected an integer, found a string"));
      assertThat(bad.hostnames()).isEmpty();
      assertThat(bad.backends()).containsExactly(new BackendRef(null, null, null, "7", null, null));
      RouteState before = (RouteState) topics.latest(Topics.ROUTES, "HTTPRoute/shop/good-before");
      assertThat(before.hostnames()).containsExactly("before.example.com");
      assertThat(before.problems()).isEmpty();
      RouteState grpc = (RouteState) topics.latest(Topics.ROUTES, "GRPCRoute/shop/bad-grpc");
      assertThat(grpc.hostnames()).containsExactly("grpc.example.com");
      assertThat(grpc.problems())
          .containsExactly(
              new Problem("spec.rules", "x", "expected a list of objects, found a string"));
      RouteState gateway = (RouteState) topics.latest(Topics.ROUTES, "Gateway/shop/bad-gateway");
      assertThat(gateway.problems())
          .containsExactly(
              new Problem("spec.listeners", "443", "expected a list of objects, found a number"));
      assertThat(watcher.get("/actuator/health").body())
          .contains("\"HTTPRoute\":{\"phase\":\"WATCHING\"")
          .contains("\"GRPCRoute\":{\"phase\":\"WATCHING\"")
          .contains("\"Gateway\":{\"phase\":\"WATCHING\"");

      // The informer goes on watching: a route created now is published, the bad one once fixed.
      apply(HTTP_ROUTES, "good-after", goodRoute("after.example.com"));
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                RouteState after =
                    (RouteState) topics.latest(Topics.ROUTES, "HTTPRoute/shop/good-after");
                assertThat(after).isNotNull();
                assertThat(after.hostnames()).containsExactly("after.example.com");
                assertThat(after.problems()).isEmpty();
              });
      apply(HTTP_ROUTES, "bad", goodRoute("fixed.example.com"));
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                RouteState fixed = (RouteState) topics.latest(Topics.ROUTES, "HTTPRoute/shop/bad");
                assertThat(fixed.hostnames()).containsExactly("fixed.example.com");
                assertThat(fixed.problems()).isEmpty();
              });

      // Breaking a good route publishes its problem; deleting a bad one publishes a tombstone.
      apply(HTTP_ROUTES, "good-before", BAD_ROUTE);
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(
                          ((RouteState) topics.latest(Topics.ROUTES, "HTTPRoute/shop/good-before"))
                              .problems())
                      .extracting(Problem::field)
                      .containsExactly(
                          "spec.hostnames",
                          "spec.parentRefs",
                          "spec.rules[0].backendRefs[0].port"));
      // Raw: the client itself would read the deleted object typed from the answer, and fail.
      kube.raw(
          cluster.url()
              + "apis/gateway.networking.k8s.io/v1/namespaces/shop/httproutes/good-before",
          "DELETE",
          null);
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  assertThat(topics.of(Topics.ROUTES, "HTTPRoute/shop/good-before"))
                      .last()
                      .extracting(TopicRecorder.Message::value)
                      .isNull());
      assertThat(topics.latest(Topics.ROUTES, "HTTPRoute/shop/good-after")).isNotNull();
      assertThat(topics.latest(Topics.ROUTES, "HTTPRoute/shop/bad")).isNotNull();
    }
  }
}
