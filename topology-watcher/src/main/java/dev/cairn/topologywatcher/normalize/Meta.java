package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.topology.RouteState;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The metadata of a Kubernetes object that normalisation reads.
 *
 * @param namespace the namespace, {@code null} for cluster-scoped objects
 * @param name the name, never {@code null}
 * @param uid the uid, {@code null} when absent
 * @param labels the labels, never {@code null}
 * @param annotations the annotations, never {@code null}
 * @param controller the controller owner reference ({@code ownerReferences[]} with {@code
 *     controller: true}), {@code null} when none
 */
public record Meta(
    String namespace,
    String name,
    String uid,
    Map<String, String> labels,
    Map<String, String> annotations,
    RouteState.Controller controller) {

  /** Metadata without a controller. */
  public Meta(
      String namespace,
      String name,
      String uid,
      Map<String, String> labels,
      Map<String, String> annotations) {
    this(namespace, name, uid, labels, annotations, null);
  }

  public Meta {
    Objects.requireNonNull(name, "name");
    labels = withoutNullKeys(labels);
    annotations = withoutNullKeys(annotations);
  }

  /** A key-sorted, unmodifiable copy without {@code null} keys; empty for {@code null}. */
  private static Map<String, String> withoutNullKeys(Map<String, String> map) {
    if (map == null || map.isEmpty()) {
      return Map.of();
    }
    TreeMap<String, String> copy = new TreeMap<>();
    map.forEach(
        (k, v) -> {
          if (k != null) {
            copy.put(k, v);
          }
        });
    return Collections.unmodifiableMap(copy);
  }
}
