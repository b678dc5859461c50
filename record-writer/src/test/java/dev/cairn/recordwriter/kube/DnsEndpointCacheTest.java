package dev.cairn.recordwriter.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Ownership;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DnsEndpointCacheTest {

  private final DnsEndpointCache cache = new DnsEndpointCache();
  private final ObjectKey key = ObjectKey.of("shop", "web");

  private static GenericKubernetesResource object(String version, boolean owned, String source) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace("shop")
            .withName("web")
            .withResourceVersion(version)
            .withLabels(owned ? Map.of(Ownership.MANAGED_BY_LABEL, "cairn") : Map.of())
            .withAnnotations(
                source == null ? Map.of() : Map.of(Ownership.SOURCE_ANNOTATION, source))
            .build());
    return r;
  }

  @Test
  void neverRollsBackToAnOlderVersion() {
    cache.observe(object("10", true, "HTTPRoute/shop/web"));
    cache.observe(object("9", true, "HTTPRoute/shop/old"));

    assertThat(cache.get(key).orElseThrow().getMetadata().getResourceVersion()).isEqualTo("10");
    assertThat(cache.keysOfSource("HTTPRoute/shop/web")).containsExactly(key);
    assertThat(cache.keysOfSource("HTTPRoute/shop/old")).isEmpty();
  }

  @Test
  void aLateEventDoesNotResurrectADeletedObject() {
    cache.observe(object("10", true, null));
    cache.forget(key, "11");
    cache.observe(object("10", true, null));

    assertThat(cache.get(key)).isEmpty();
    cache.observe(object("12", true, null));
    assertThat(cache.get(key)).isPresent();
  }

  @Test
  void aListTakenWhileADeleteWasInFlightDoesNotResurrectTheObject() {
    cache.observe(object("10", true, "HTTPRoute/shop/web"));
    cache.forget(key, "10"); // deleted with resourceVersion 10 as precondition

    cache.replaceOwned(List.of(object("10", true, "HTTPRoute/shop/web")), "10");

    assertThat(cache.get(key)).isEmpty();
    assertThat(cache.ownedKeys()).isEmpty();
    assertThat(cache.keysOfSource("HTTPRoute/shop/web")).isEmpty();
  }

  @Test
  void filesObjectsByOwnership() {
    cache.observe(object("3", false, null));

    assertThat(cache.isForeign(key)).isTrue();
    assertThat(cache.ownedKeys()).isEmpty();
    assertThat(cache.get(key)).isPresent();

    cache.observe(object("4", true, "HTTPRoute/shop/web"));
    assertThat(cache.isForeign(key)).isFalse();
    assertThat(cache.ownedKeys()).containsExactly(key);
  }

  @Test
  void aListReplacesTheOwnedViewButKeepsNewerWrites() {
    cache.observe(object("5", true, "HTTPRoute/shop/web"));
    GenericKubernetesResource other = object("6", true, "HTTPRoute/shop/other");
    other.getMetadata().setName("other");
    cache.observe(other);

    cache.replaceOwned(List.of(), "5");

    assertThat(cache.ownedKeys()).containsExactly(ObjectKey.of("shop", "other"));
    assertThat(cache.keysOfSource("HTTPRoute/shop/web")).isEmpty();
  }
}
