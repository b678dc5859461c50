package dev.cairn.strategyengine.gslb;

/** The annotations Cairn reads from a Gslb: k8gb's (k8gb.md §1.2) and one of its own. */
public final class GslbAnnotations {

  /** Comma-separated IP addresses used as the local targets; beats every other source. */
  public static final String EXPOSED_IP_ADDRESSES = "k8gb.io/exposed-ip-addresses";

  /**
   * Comma-separated host names whose addresses are the local targets; beats {@link
   * #EXPOSED_IP_ADDRESSES}. The health-prober resolves them.
   */
  public static final String EXPOSED_HOSTNAMES = "k8gb.io/exposed-hostnames";

  /** The host of a Gslb whose resourceRef is a Service (which has no host names of its own). */
  public static final String HOSTNAME = "k8gb.io/hostname";

  /**
   * Cairn's own: {@code node-aware} or {@code gateway}, where the local targets of this Gslb come
   * from when its resourceRef is an HTTPRoute; overrides {@code engine.gslb.http-route-targets} for
   * this Gslb (a cluster migrating from k8gb can keep some Gslbs on their Gateway's addresses).
   */
  public static final String HTTP_ROUTE_TARGETS = "cairn.dev/http-route-targets";

  private GslbAnnotations() {}

  /** The field path of an annotation, for problems: {@code metadata.annotations[<key>]}. */
  static String field(String key) {
    return "metadata.annotations[" + key + "]";
  }
}
