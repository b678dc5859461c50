package dev.cairn.dnsresponder;

import static dev.cairn.dnsresponder.MockApi.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.dnsresponder.kube.DnsEndpointSource;
import dev.cairn.dnsresponder.store.EndpointSource;
import dev.cairn.dnsresponder.zone.EndpointInput;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The informer-backed endpoint source against the fabric8 mock API server (CRUD mode). */
class DnsEndpointSourceIT {

  private static final Map<String, String> LOCAL = Map.of("k8gb.io/dnstype", "local");

  /**
   * "Synced" means {@link EndpointSource#inputs()} is complete, whatever the informers' add
   * notifications are doing: they reach the handler on another thread, after the cache holds the
   * list. Here the first notification blocks that thread until the sync has been taken, so the
   * other objects' notifications are still queued when {@code synced()} builds from the source, as
   * happened by chance after a responder restart in the local stack (a synced responder answered
   * NXDOMAIN for a name it held).
   */
  @Test
  void inputsAreCompleteAtTheSyncWhileAddNotificationsAreStillQueued() throws Exception {
    try (MockApi api = new MockApi().start()) {
      api.apply("app", LOCAL, List.of(endpoint("app.cloud.example.com", "A", 30, "192.0.2.1")));
      api.apply("blog", LOCAL, List.of(endpoint("blog.cloud.example.com", "A", 30, "192.0.2.2")));
      api.apply("shop", LOCAL, List.of(endpoint("shop.cloud.example.com", "A", 30, "192.0.2.3")));
      CountDownLatch syncTaken = new CountDownLatch(1);
      CompletableFuture<List<String>> atSync = new CompletableFuture<>();
      DnsEndpointSource source = new DnsEndpointSource(api.client(), List.of("k8gb.io/dnstype"));
      try {
        source.start(
            new EndpointSource.Listener() {
              @Override
              public void changed() {
                try {
                  // holds the notification thread: the later adds wait behind this one
                  syncTaken.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }

              @Override
              public void synced() {
                try {
                  atSync.complete(names(source.inputs()));
                } catch (RuntimeException e) {
                  atSync.completeExceptionally(e);
                } finally {
                  syncTaken.countDown();
                }
              }
            });
        assertThat(atSync.get(30, TimeUnit.SECONDS))
            .as("the endpoints a build at the sync sees")
            .containsExactlyInAnyOrder(
                "app.cloud.example.com", "blog.cloud.example.com", "shop.cloud.example.com");
      } finally {
        syncTaken.countDown();
        source.close();
      }
    }
  }

  private static List<String> names(List<EndpointInput> inputs) {
    return inputs.stream().map(EndpointInput::dnsName).toList();
  }
}
