package dev.cairn.recordwriter.ingress;

import dev.cairn.recordwriter.ingress.LiveIngress.OwnerRef;
import dev.cairn.recordwriter.plan.ObjectKey;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Gslb as the API shows it, reduced to what {@link GslbFromIngressPlan} reads.
 *
 * @param key its namespace and name
 * @param uid its uid
 * @param version its resourceVersion, for conditional writes
 * @param labels its labels
 * @param annotations its annotations
 * @param owners its owner references
 * @param spec its {@code spec}, empty when it has none
 */
public record LiveGslbObject(
    ObjectKey key,
    String uid,
    String version,
    Map<String, String> labels,
    Map<String, String> annotations,
    List<OwnerRef> owners,
    Map<String, Object> spec) {

  public LiveGslbObject {
    Objects.requireNonNull(key, "key");
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    owners = owners == null ? List.of() : List.copyOf(owners);
    spec = spec == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(spec));
  }

  /** The controller reference, if any. */
  OwnerRef controller() {
    return owners.stream().filter(OwnerRef::controller).findFirst().orElse(null);
  }
}
