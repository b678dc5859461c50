package dev.cairn.strategyengine.stream;

import dev.cairn.strategyengine.gslb.GslbReport;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last {@link GslbReport} of every Gslb this engine instance decides, for the explain API. A
 * report is derived by deciding and only ever read by a person asking, so it is kept as the object
 * (never encoded per decision) in one map per instance, written by the stream tasks and read by the
 * API's threads; a task removes the reports of its Gslbs when it is closed (revoked or stopped),
 * and a task starting decides everything again, which puts them back.
 */
public final class GslbReports {

  private final Map<String, GslbReport> reports = new ConcurrentHashMap<>();

  /** The report of the Gslb {@code key} ({@code Gslb/<ns>/<name>}), {@code null} when none. */
  public GslbReport get(String key) {
    return reports.get(key);
  }

  void put(String key, GslbReport report) {
    reports.put(key, report);
  }

  void remove(String key) {
    reports.remove(key);
  }
}
