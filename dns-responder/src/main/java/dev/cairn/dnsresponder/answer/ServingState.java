package dev.cairn.dnsresponder.answer;

/** Where the records being served come from. */
public enum ServingState {
  /** Every informer has synced: the records are the cluster's current ones. */
  SYNCED("synced"),
  /** The API server was unreachable at start; the records come from the local snapshot file. */
  FROM_SNAPSHOT("from-snapshot"),
  /** Nothing to serve yet: names in the zones get SERVFAIL, never NXDOMAIN. */
  UNSYNCED("unsynced");

  private final String label;

  ServingState(String label) {
    this.label = label;
  }

  /** The name shown in health and metrics. */
  public String label() {
    return label;
  }
}
