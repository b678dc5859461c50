package dev.cairn.dnsresponder.zone;

import dev.cairn.commonmodel.Copies;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One {@code spec.endpoints[]} entry of a DNSEndpoint, as the zone builder sees it: plain values,
 * no Kubernetes types. The Kubernetes adapter maps each object to these; the snapshot file stores
 * them, so a snapshot read back from disk is built by exactly the same code.
 *
 * @param source the object that declared the endpoint, {@code namespace/name}
 * @param created the object's creation time, or {@code null} when unknown; older objects win
 *     conflicts
 * @param index the endpoint's position in {@code spec.endpoints}
 * @param dnsName {@code dnsName} as written (case and trailing dot are normalised by the builder)
 * @param recordType {@code recordType} as written, may be {@code null} or empty
 * @param ttlSeconds {@code recordTTL}; 0 or less means "use the default TTL"
 * @param targets {@code targets} as written; {@code null} where an element is not text (a shape the
 *     API server's schema refuses, but a hand-written object or snapshot file can hold), which the
 *     builder reports as an invalid target of that index
 * @param labels {@code labels} (k8gb's {@code strategy}, {@code weight-*} and geo tag labels)
 */
public record EndpointInput(
    String source,
    Instant created,
    int index,
    String dnsName,
    String recordType,
    long ttlSeconds,
    List<String> targets,
    Map<String, String> labels) {

  public EndpointInput {
    Objects.requireNonNull(source, "source");
    // Not List.copyOf: it refuses null elements, and one object's bad target would then fail
    // every build of the whole zone instead of being reported.
    targets = targets == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(targets));
    labels = Copies.sortedMap(labels);
  }

  /** The field path of this endpoint inside its object, e.g. {@code spec.endpoints[2]}. */
  public String path() {
    return "spec.endpoints[" + index + "]";
  }
}
