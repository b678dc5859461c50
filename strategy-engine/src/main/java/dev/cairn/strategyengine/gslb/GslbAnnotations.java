package dev.cairn.strategyengine.gslb;

/** The k8gb annotations Cairn reads from a Gslb (k8gb.md §1.2). */
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

  private GslbAnnotations() {}

  /** The field path of an annotation, for problems: {@code metadata.annotations[<key>]}. */
  static String field(String key) {
    return "metadata.annotations[" + key + "]";
  }
}
