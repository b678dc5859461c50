package dev.cairn.commonmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ObjectRefTest {

  @Test
  void namespacedKeyIsKindNamespaceName() {
    ObjectRef ref = ObjectRef.of("HTTPRoute", "default", "app");

    assertThat(ref.key()).isEqualTo("HTTPRoute/default/app");
    assertThat(ref.namespacedName()).isEqualTo("default/app");
    assertThat(ref).hasToString("HTTPRoute/default/app");
  }

  @Test
  void clusterScopedKeyIsKindName() {
    ObjectRef ref = ObjectRef.cluster("Node", "worker-a1");

    assertThat(ref.namespace()).isNull();
    assertThat(ref.key()).isEqualTo("Node/worker-a1");
    assertThat(ref.namespacedName()).isEqualTo("worker-a1");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "HTTPRoute/default/app",
        "Service/shop/storefront",
        "Node/worker-a1",
        "Gslb/shop/storefront",
        "Ingress/kube-system/dashboard"
      })
  void parsesTheKeysItWrites(String key) {
    ObjectRef ref = ObjectRef.parse(key);

    assertThat(ref.key()).isEqualTo(key);
    assertThat(ObjectRef.parse(ref.key())).isEqualTo(ref);
  }

  @ParameterizedTest
  @CsvSource({"HTTPRoute/default/app, HTTPRoute, default, app", "Node/n1, Node, , n1"})
  void parsesIntoItsParts(String key, String kind, String namespace, String name) {
    assertThat(ObjectRef.parse(key)).isEqualTo(new ObjectRef(kind, namespace, name));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @ValueSource(
      strings = {
        "",
        "Node",
        "/",
        "//",
        "///",
        "a/b/c/d",
        "/default/app",
        "HTTPRoute/default/",
        "HTTPRoute//app",
        "Node/",
        "/n1",
        " /n1",
        "HTTPRoute/ /app"
      })
  void rejectsKeysWithoutTwoOrThreeNonEmptyParts(String key) {
    assertThatThrownBy(() -> ObjectRef.parse(key))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'");
  }

  @Test
  void rejectsAMissingKey() {
    assertThatThrownBy(() -> ObjectRef.parse(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void rejectsPartsThatWouldBreakTheKey() {
    assertThatThrownBy(() -> ObjectRef.of("HTTP/Route", "default", "app"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("kind");
    assertThatThrownBy(() -> ObjectRef.of("HTTPRoute", "de/fault", "app"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("namespace");
    assertThatThrownBy(() -> ObjectRef.of("HTTPRoute", "default", "a/pp"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name");
    assertThatThrownBy(() -> ObjectRef.of(" ", "default", "app"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ObjectRef.of("HTTPRoute", "default", null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aBlankNamespaceMeansClusterScoped() {
    assertThat(ObjectRef.of("Node", "", "n1")).isEqualTo(ObjectRef.cluster("Node", "n1"));
  }
}
