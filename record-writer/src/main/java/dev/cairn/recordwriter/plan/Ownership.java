package dev.cairn.recordwriter.plan;

import java.util.Map;

/**
 * How Cairn marks the DNSEndpoints it writes, and how it recognises them. A DNSEndpoint is Cairn's
 * when its {@value #MANAGED_BY_LABEL} label is {@value #MANAGED_BY_VALUE}; anything else is foreign
 * and is never modified or deleted (one writer per object, like external-dns's TXT registry owner).
 */
public final class Ownership {

  /** The label that names the writer of an object (Kubernetes recommended label). */
  public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";

  /** The value of {@link #MANAGED_BY_LABEL} on every object Cairn writes. */
  public static final String MANAGED_BY_VALUE = "cairn";

  /** The label selector of everything Cairn owns. */
  public static final String OWNED_SELECTOR = MANAGED_BY_LABEL + "=" + MANAGED_BY_VALUE;

  /** The annotation naming the source object, {@code <kind>/<namespace>/<name>}. */
  public static final String SOURCE_ANNOTATION = "cairn.dev/source";

  /**
   * The annotation holding the start of the stale-endpoint grace period. It is k8s-direct-dns's
   * key, so objects migrated from direct-dns keep their running timers.
   */
  public static final String STALE_SINCE_ANNOTATION = "directdns.meisterlala.dev/stale-since";

  private Ownership() {}

  /** True when the labels mark the object as written by Cairn. */
  public static boolean isOwned(Map<String, String> labels) {
    return labels != null && MANAGED_BY_VALUE.equals(labels.get(MANAGED_BY_LABEL));
  }
}
