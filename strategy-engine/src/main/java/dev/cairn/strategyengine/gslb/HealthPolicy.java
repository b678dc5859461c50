package dev.cairn.strategyengine.gslb;

/**
 * {@code spec.serviceHealthPolicy}: how the health of a host's Services combines (k8gb.md §4).
 *
 * <table>
 *   <caption>Host health</caption>
 *   <tr><th>policy</th><th>result</th></tr>
 *   <tr><td>(no Services)</td><td>NotFound</td></tr>
 *   <tr><td>Any</td><td>healthy &gt; 0: Healthy; else unhealthy &gt; 0: Unhealthy; else
 *       NotFound</td></tr>
 *   <tr><td>All</td><td>notFound &gt; 0: NotFound; else unhealthy &gt; 0: Unhealthy; else
 *       Healthy</td></tr>
 * </table>
 */
enum HealthPolicy {
  ANY("Any"),
  ALL("All");

  private final String text;

  HealthPolicy(String text) {
    this.text = text;
  }

  String text() {
    return text;
  }

  /** The host's health from the counts of its Services' health. */
  HostHealth combine(int healthy, int unhealthy, int notFound) {
    if (healthy + unhealthy + notFound == 0) {
      return HostHealth.NOT_FOUND;
    }
    if (this == ANY) {
      if (healthy > 0) {
        return HostHealth.HEALTHY;
      }
      return unhealthy > 0 ? HostHealth.UNHEALTHY : HostHealth.NOT_FOUND;
    }
    if (notFound > 0) {
      return HostHealth.NOT_FOUND;
    }
    return unhealthy > 0 ? HostHealth.UNHEALTHY : HostHealth.HEALTHY;
  }
}
