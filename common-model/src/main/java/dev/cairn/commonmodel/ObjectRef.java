package dev.cairn.commonmodel;

import java.util.Objects;

/**
 * The stable identity of a Kubernetes object, used as the Kafka key of every state topic.
 *
 * <p>The key form is {@code <kind>/<namespace>/<name>} for namespaced objects and {@code
 * <kind>/<name>} for cluster-scoped ones (Node). Kind is the Kubernetes kind as written in the API
 * ({@code HTTPRoute}, {@code Service}).
 *
 * @param kind the Kubernetes kind, never blank
 * @param namespace the namespace, {@code null} for cluster-scoped objects
 * @param name the object name, never blank
 */
public record ObjectRef(String kind, String namespace, String name) {

  public ObjectRef {
    if (kind == null || kind.isBlank() || kind.contains("/")) {
      throw new IllegalArgumentException("kind must be a non-blank word, got '" + kind + "'");
    }
    if (name == null || name.isBlank() || name.contains("/")) {
      throw new IllegalArgumentException("name must be non-blank without '/', got '" + name + "'");
    }
    if (namespace != null && namespace.isBlank()) {
      namespace = null;
    }
    if (namespace != null && namespace.contains("/")) {
      throw new IllegalArgumentException("namespace must not contain '/', got '" + namespace + "'");
    }
  }

  /** A namespaced reference. */
  public static ObjectRef of(String kind, String namespace, String name) {
    return new ObjectRef(kind, namespace, name);
  }

  /** A cluster-scoped reference. */
  public static ObjectRef cluster(String kind, String name) {
    return new ObjectRef(kind, null, name);
  }

  /**
   * Parses a key written by {@link #key()}.
   *
   * @throws IllegalArgumentException if the key has not two or three non-empty parts
   */
  public static ObjectRef parse(String key) {
    Objects.requireNonNull(key, "key");
    String[] parts = key.split("/", -1);
    if (parts.length == 3 && !parts[1].isBlank()) {
      return new ObjectRef(parts[0], parts[1], parts[2]);
    }
    if (parts.length == 2) {
      return new ObjectRef(parts[0], null, parts[1]);
    }
    throw new IllegalArgumentException(
        "key '" + key + "' is not <kind>/<namespace>/<name> or <kind>/<name>");
  }

  /** The Kafka key: {@code kind/namespace/name}, or {@code kind/name} when cluster-scoped. */
  public String key() {
    return namespace == null ? kind + "/" + name : kind + "/" + namespace + "/" + name;
  }

  /** {@code namespace/name}, or just the name when cluster-scoped; for logs and explanations. */
  public String namespacedName() {
    return namespace == null ? name : namespace + "/" + name;
  }

  @Override
  public String toString() {
    return key();
  }
}
