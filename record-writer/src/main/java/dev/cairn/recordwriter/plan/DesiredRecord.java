package dev.cairn.recordwriter.plan;

import dev.cairn.commonmodel.Copies;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A DNSEndpoint as Cairn wants it. The labels are the object's complete label set (Cairn owns the
 * object); of the annotations, Cairn sets {@link Ownership#SOURCE_ANNOTATION} and {@link
 * Ownership#STALE_SINCE_ANNOTATION} and leaves the others alone.
 *
 * @param key namespace and name
 * @param source the source key written to {@link Ownership#SOURCE_ANNOTATION}
 * @param labels the complete object labels, {@link Ownership#MANAGED_BY_LABEL} included
 * @param controller the controller owner reference to set, or {@code null} for none
 * @param staleSince the grace-period start annotation value, or {@code null} for none
 * @param endpoints the endpoints, normalised and sorted
 */
public record DesiredRecord(
    ObjectKey key,
    String source,
    Map<String, String> labels,
    ControllerRef controller,
    String staleSince,
    List<Endpoint> endpoints) {

  public DesiredRecord {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(source, "source");
    labels = Copies.sortedMap(labels);
    endpoints = Endpoint.sorted(endpoints == null ? List.of() : endpoints);
    if (!Ownership.isOwned(labels)) {
      throw new IllegalArgumentException("a desired record must carry " + Ownership.OWNED_SELECTOR);
    }
  }

  /** True when the current object already is what this record describes: no write is needed. */
  public boolean matches(CurrentRecord current) {
    return current.key().equals(key)
        && current.endpoints().equals(endpoints)
        && current.labels().equals(labels)
        && source.equals(current.source())
        && Objects.equals(staleSince, current.staleSince())
        && Objects.equals(controller, current.controller());
  }
}
