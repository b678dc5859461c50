package dev.cairn.topologywatcher.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class DigestStoreTest {

  @Test
  void keepsTheDigestAndHandsFabric8OnlyKeyVersionAndKeptLabels() {
    DigestStore<EndpointSlice> store =
        new DigestStore<>(
            "ServiceEndpoints",
            EndpointSlice.class,
            slice -> "digest of " + slice.getMetadata().getName(),
            List.of("kubernetes.io/service-name"));
    EndpointSlice slice =
        new EndpointSliceBuilder()
            .withNewMetadata()
            .withNamespace("shop")
            .withName("web-1")
            .withResourceVersion("7")
            .addToLabels("kubernetes.io/service-name", "web")
            .addToLabels("other", "x")
            .addToAnnotations("big", "y".repeat(1000))
            .endMetadata()
            .withAddressType("IPv4")
            .build();

    assertThat(store.put(store.getKey(slice), slice)).isNull();

    assertThat(store.digest("shop/web-1")).isEqualTo("digest of web-1");
    EndpointSlice skeleton = store.get("shop/web-1");
    assertThat(skeleton.getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(skeleton.getMetadata().getName()).isEqualTo("web-1");
    assertThat(skeleton.getMetadata().getResourceVersion()).isEqualTo("7");
    assertThat(skeleton.getMetadata().getLabels()).containsOnlyKeys("kubernetes.io/service-name");
    assertThat(skeleton.getMetadata().getAnnotations()).isNullOrEmpty();
    assertThat(skeleton.getAddressType()).isNull();
    assertThat(store.isFullState()).isFalse();
    assertThat(store.remove("shop/web-1").getMetadata().getName()).isEqualTo("web-1");
    assertThat(store.digest("shop/web-1")).isNull();
    assertThat(store.size()).isZero();
  }

  @Test
  void anObjectThatCannotBeDigestedIsStoredAsFailed() {
    DigestStore<Node> store =
        new DigestStore<>(
            "Node",
            Node.class,
            node -> {
              throw new IllegalStateException("bug");
            },
            List.of());
    Node node = new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().build();

    store.put(store.getKey(node), node);

    assertThat(store.digest("node-a")).isSameAs(DigestStore.FAILED);
    assertThat(store.get("node-a").getMetadata().getNamespace()).isNull();
  }
}
