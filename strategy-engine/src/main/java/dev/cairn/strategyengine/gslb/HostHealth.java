package dev.cairn.strategyengine.gslb;

/**
 * The health of one Gslb host in this cluster, as k8gb writes it to {@code status.serviceHealth}.
 * Only {@link #HEALTHY} lets the host serve local targets; the other two differ only in the status.
 */
public enum HostHealth {
  /** At least one Service (Any) or every Service (All) has a ready endpoint with an address. */
  HEALTHY("Healthy"),
  /** The Services exist, but not enough of them have a ready endpoint. */
  UNHEALTHY("Unhealthy"),
  /** The host has no Service, or a Service it needs is missing. */
  NOT_FOUND("NotFound");

  private final String text;

  HostHealth(String text) {
    this.text = text;
  }

  /** The status text: {@code Healthy}, {@code Unhealthy} or {@code NotFound}. */
  public String text() {
    return text;
  }
}
