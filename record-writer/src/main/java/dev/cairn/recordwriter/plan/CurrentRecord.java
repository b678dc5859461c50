package dev.cairn.recordwriter.plan;

import dev.cairn.commonmodel.Copies;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A DNSEndpoint as it exists in the cluster, reduced to what the plan compares.
 *
 * @param key namespace and name
 * @param version the resourceVersion read, opaque; writes are conditional on it
 * @param labels all object labels
 * @param annotations all object annotations
 * @param controller the controller owner reference, or {@code null}
 * @param endpoints {@code spec.endpoints}, normalised and sorted
 */
public record CurrentRecord(
    ObjectKey key,
    String version,
    Map<String, String> labels,
    Map<String, String> annotations,
    ControllerRef controller,
    List<Endpoint> endpoints) {

  public CurrentRecord {
    Objects.requireNonNull(key, "key");
    labels = Copies.sortedMap(labels);
    annotations = Copies.sortedMap(annotations);
    endpoints = endpoints == null ? List.of() : Endpoint.sorted(endpoints);
  }

  /** True when Cairn wrote this object ({@link Ownership#isOwned}). */
  public boolean owned() {
    return Ownership.isOwned(labels);
  }

  /** The {@link Ownership#SOURCE_ANNOTATION} value, or {@code null}. */
  public String source() {
    return annotations.get(Ownership.SOURCE_ANNOTATION);
  }

  /** The raw {@link Ownership#STALE_SINCE_ANNOTATION} value, or {@code null}. */
  public String staleSince() {
    return annotations.get(Ownership.STALE_SINCE_ANNOTATION);
  }

  /** Who holds this object, in words: the other manager, or the Cairn source. */
  public String holder() {
    if (owned()) {
      return source() == null ? "cairn (no source annotation)" : "cairn source " + source();
    }
    String manager = labels.get(Ownership.MANAGED_BY_LABEL);
    if (manager != null) {
      return Ownership.MANAGED_BY_LABEL + "=" + manager;
    }
    if (controller != null) {
      return "controller " + controller.kind() + "/" + controller.name();
    }
    return "unmanaged (no " + Ownership.MANAGED_BY_LABEL + " label)";
  }
}
