package dev.cairn.strategyengine.placement;

/**
 * The annotation and label keys of the k8s-direct-dns contract that Cairn honours, plus Cairn's own
 * extension {@link #STALE_GRACE_PERIOD}.
 */
public final class AnnotationKeys {

  /** Route on/off switch; absent means enabled. */
  public static final String ENABLED = "directdns.meisterlala.dev/enabled";

  /** Route record TTL in seconds; absent means {@link PlacementDecider#DEFAULT_TTL_SECONDS}. */
  public static final String TTL = "directdns.meisterlala.dev/ttl";

  /** Route switch for resolving hostname targets; absent means the engine default. */
  public static final String RESOLVE_TARGET_HOSTNAMES =
      "directdns.meisterlala.dev/resolve-target-hostnames";

  /** Route resolver override, {@code host[:port]}. */
  public static final String DNS_SERVER = "directdns.meisterlala.dev/dns-server";

  /** Route pinning: comma-separated node names whose targets are published. */
  public static final String TARGET_NODES = "directdns.meisterlala.dev/target-nodes";

  /**
   * Cairn extension: the route's stale-endpoint grace period ({@code 90s}, {@code 5m}, {@code
   * 1h30m} or whole seconds), carried to the record-writer in {@code gracePeriodSeconds}.
   */
  public static final String STALE_GRACE_PERIOD = "directdns.meisterlala.dev/stale-grace-period";

  /** Route: extra hostnames, comma separated (external-dns convention). */
  public static final String EXTERNAL_DNS_HOSTNAME = "external-dns.alpha.kubernetes.io/hostname";

  /** Node: explicit publish target(s). */
  public static final String NODE_TARGET = "directdns.meisterlala.dev/target";

  /** Node: the k3s-provided external DNS name(s). */
  public static final String K3S_EXTERNAL_DNS = "k3s.io/external-dns";

  /** Node: the k3s-provided external IP(s), {@code v4} or {@code v4,v6}. */
  public static final String K3S_EXTERNAL_IP = "k3s.io/external-ip";

  /** The node label that carries the zone. */
  public static final String ZONE_LABEL = "topology.kubernetes.io/zone";

  private AnnotationKeys() {}

  /** The field path of an annotation, for problems: {@code metadata.annotations[<key>]}. */
  static String field(String key) {
    return "metadata.annotations[" + key + "]";
  }
}
