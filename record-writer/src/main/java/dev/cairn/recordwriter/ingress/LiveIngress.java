package dev.cairn.recordwriter.ingress;

import dev.cairn.recordwriter.plan.ObjectKey;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An Ingress as the API shows it, reduced to what the embedded-Ingress plan reads.
 *
 * @param key its namespace and name
 * @param uid its uid
 * @param version its resourceVersion, for conditional writes
 * @param labels its labels
 * @param annotations its annotations
 * @param owners its owner references
 * @param spec its {@code spec}
 * @param lastApplied the {@code spec.ingress} Cairn last wrote into it, read back from the {@value
 *     IngressPlan#LAST_APPLIED_ANNOTATION} annotation; {@code null} when absent or unreadable
 */
public record LiveIngress(
    ObjectKey key,
    String uid,
    String version,
    Map<String, String> labels,
    Map<String, String> annotations,
    List<OwnerRef> owners,
    Object spec,
    Object lastApplied) {

  public LiveIngress {
    Objects.requireNonNull(key, "key");
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    owners = owners == null ? List.of() : List.copyOf(owners);
  }

  /**
   * One owner reference.
   *
   * @param apiVersion the owner's apiVersion
   * @param kind the owner's kind
   * @param name the owner's name
   * @param uid the owner's uid
   * @param controller true for the controller reference (at most one per object)
   * @param blockOwnerDeletion whether the owner's foreground deletion waits for this object
   */
  public record OwnerRef(
      String apiVersion,
      String kind,
      String name,
      String uid,
      boolean controller,
      boolean blockOwnerDeletion) {

    /** True when this names a Gslb ({@code k8gb.io}, any version) of that name. */
    boolean isGslb(String gslbName) {
      return "Gslb".equals(kind)
          && apiVersion != null
          && apiVersion.startsWith(IngressPlan.GSLB_GROUP + "/")
          && Objects.equals(name, gslbName);
    }
  }

  /** The controller reference, if any. */
  OwnerRef controller() {
    return owners.stream().filter(OwnerRef::controller).findFirst().orElse(null);
  }
}
