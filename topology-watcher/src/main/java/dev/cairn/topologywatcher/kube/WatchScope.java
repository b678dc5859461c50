package dev.cairn.topologywatcher.kube;

import java.util.List;

/**
 * What the informers list and watch.
 *
 * @param namespaces the namespaces of the namespaced kinds; empty means all namespaces
 * @param labelSelector a label selector for the namespaced kinds, {@code null} for none
 */
public record WatchScope(List<String> namespaces, String labelSelector) {

  public WatchScope {
    namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
  }

  /** All namespaces, no selector. */
  public static WatchScope everything() {
    return new WatchScope(List.of(), null);
  }
}
