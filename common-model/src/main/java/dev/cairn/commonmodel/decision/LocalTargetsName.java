package dev.cairn.commonmodel.decision;

/**
 * The name {@code localtargets-<host>} under which a cluster publishes the targets of a Gslb host
 * it serves (k8gb.md §3): the engine decides it, the record-writer withdraws it at once when the
 * cluster serves nothing, and the peers' probers ask for it. DNS is the only channel between
 * clusters, so every service spells it from here.
 */
public final class LocalTargetsName {

  /** The prefix of the first label. */
  public static final String PREFIX = "localtargets-";

  private LocalTargetsName() {}

  /** {@code localtargets-<host>}. */
  public static String of(String host) {
    return PREFIX + host;
  }

  /** Whether {@code dnsName} is a {@code localtargets-} name, in any case. */
  public static boolean is(String dnsName) {
    return dnsName.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
  }
}
