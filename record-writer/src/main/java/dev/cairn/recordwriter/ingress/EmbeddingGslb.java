package dev.cairn.recordwriter.ingress;

import dev.cairn.recordwriter.plan.ObjectKey;
import java.util.Map;
import java.util.Objects;

/**
 * A Gslb as the embedded-Ingress plan reads it.
 *
 * @param key the Gslb's namespace and name (also the Ingress's)
 * @param uid the Gslb's uid, for the Ingress's owner reference
 * @param hasResourceRef true when {@code spec.resourceRef} is set (to anything): the Gslb balances
 *     that object, not an embedded ingress
 * @param refersToOwnIngress true when {@code spec.resourceRef} names the Ingress of the Gslb's own
 *     name and namespace (an embedded ingress taken over by hand)
 * @param ingress {@code spec.ingress} as the API gave it, {@code null} when absent
 */
public record EmbeddingGslb(
    ObjectKey key, String uid, boolean hasResourceRef, boolean refersToOwnIngress, Object ingress) {

  public EmbeddingGslb {
    Objects.requireNonNull(key, "key");
  }

  /**
   * Reads a Gslb's {@code spec} as the API gave it.
   *
   * @param key the Gslb's namespace and name
   * @param uid its uid
   * @param spec its {@code spec} tree, {@code null} when absent
   */
  public static EmbeddingGslb of(ObjectKey key, String uid, Object spec) {
    Map<?, ?> s = spec instanceof Map<?, ?> m ? m : Map.of();
    Object ref = s.get("resourceRef");
    return new EmbeddingGslb(key, uid, ref != null, namesOwnIngress(key, ref), s.get("ingress"));
  }

  /**
   * True when a resourceRef names the Ingress of the Gslb's name: kind Ingress, that name, no
   * namespace or the Gslb's, and no apiVersion or one of {@code networking.k8s.io}.
   */
  private static boolean namesOwnIngress(ObjectKey key, Object ref) {
    if (!(ref instanceof Map<?, ?> r)) {
      return false;
    }
    Object namespace = r.get("namespace");
    Object apiVersion = r.get("apiVersion");
    return "Ingress".equals(r.get("kind"))
        && key.name().equals(r.get("name"))
        && (namespace == null || "".equals(namespace) || key.namespace().equals(namespace))
        && (apiVersion == null
            || "".equals(apiVersion)
            || String.valueOf(apiVersion).startsWith("networking.k8s.io/"));
  }

  /** What the Gslb asks for. */
  public enum Shape {
    /** {@code spec.ingress} without a resourceRef: the Ingress is created and kept in line. */
    EMBEDDED,
    /** A resourceRef: no Ingress is wanted (one created before is deleted, or released). */
    REFERENCE,
    /**
     * Neither a resourceRef nor a usable {@code spec.ingress}: an invalid Gslb, which changes
     * nothing (an Ingress created before is kept as it is).
     */
    INVALID
  }

  /** What the Gslb asks for. */
  public Shape shape() {
    if (hasResourceRef) {
      return Shape.REFERENCE;
    }
    return ingress instanceof Map<?, ?> m && !m.isEmpty() ? Shape.EMBEDDED : Shape.INVALID;
  }
}
