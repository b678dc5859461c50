package dev.cairn.recordwriter.metrics;

import dev.cairn.commonmodel.decision.GslbStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * k8gb's per-Gslb gauges, with k8gb's names and labels, so that dashboards and alerts written for
 * k8gb keep working: {@code k8gb_gslb_healthy_records}, {@code k8gb_gslb_healthy_local_records} and
 * {@code k8gb_gslb_service_status_num}, computed from the desired Gslb statuses the strategy-engine
 * publishes. Only the Lease holder exports them (k8gb runs one controller), so a query over all
 * pods counts each Gslb once; a new leader exports them from its own copy of the statuses.
 */
public final class GslbHealthMeters {

  /** The statuses of {@code k8gb_gslb_service_status_num}, as k8gb writes them. */
  static final List<String> SERVICE_STATUSES = List.of("Healthy", "Unhealthy", "NotFound");

  /**
   * What the gauges of one Gslb read.
   *
   * @param healthyRecords the targets across all hosts' healthy records
   * @param healthyLocalRecords this cluster's exposed addresses found in any healthy record
   * @param hostsByStatus hosts per {@link #SERVICE_STATUSES} entry, in that order
   */
  record Figures(long healthyRecords, long healthyLocalRecords, List<Long> hostsByStatus) {

    /** The figures of a status, as k8gb counts them. */
    static Figures of(GslbStatus status) {
      long healthy = 0;
      Set<String> targets = new HashSet<>();
      for (List<String> records : status.healthyRecords().values()) {
        if (records == null) {
          continue; // a host without records (the status writer reports and leaves it out)
        }
        for (String target : records) {
          if (target != null) { // a missing target, left out of the status as well
            healthy++;
            targets.add(target);
          }
        }
      }
      long local = status.exposedIps().stream().filter(targets::contains).count();
      List<Long> byStatus = new ArrayList<>();
      for (String s : SERVICE_STATUSES) {
        byStatus.add(status.serviceHealth().values().stream().filter(s::equals).count());
      }
      return new Figures(healthy, local, List.copyOf(byStatus));
    }
  }

  /** The gauges of one Gslb, and the values they read. */
  private record Exported(
      AtomicLong healthyRecords,
      AtomicLong healthyLocalRecords,
      List<AtomicLong> hostsByStatus,
      String geoTag,
      List<Meter> meters) {}

  private final MeterRegistry registry;
  private final Map<String, GslbStatus> statuses = new HashMap<>();
  private final Map<String, Exported> exported = new HashMap<>();
  private boolean leader;

  public GslbHealthMeters(MeterRegistry registry) {
    this.registry = registry;
  }

  /**
   * A desired status changed ({@code null}: the Gslb is gone). A status that does not name the Gslb
   * of its key (the status writer skips it as invalid) changes nothing: the key's last good status
   * stays exported, and the Gslb it names keeps its own gauges.
   */
  public synchronized void onStatus(String key, GslbStatus status) {
    if (status != null && !namesItsKey(key, status)) {
      return;
    }
    if (status == null) {
      statuses.remove(key);
      unexport(key);
      return;
    }
    statuses.put(key, status);
    if (leader) {
      export(key, status);
    }
  }

  private static boolean namesItsKey(String key, GslbStatus status) {
    try {
      return key.equals(status.ref().key());
    } catch (IllegalArgumentException e) {
      return false; // a name no Gslb can have
    }
  }

  /** This instance became the Lease holder, or stopped being it. */
  public synchronized void onLeadership(boolean leader) {
    this.leader = leader;
    if (leader) {
      statuses.forEach(this::export);
    } else {
      List.copyOf(exported.keySet()).forEach(this::unexport);
    }
  }

  /** The Gslbs whose gauges are exported. */
  public synchronized int exported() {
    return exported.size();
  }

  private void export(String key, GslbStatus status) {
    Figures figures = Figures.of(status);
    Exported current = exported.get(key);
    if (current != null && !current.geoTag().equals(String.valueOf(status.geoTag()))) {
      unexport(key);
      current = null;
    }
    if (current == null) {
      current = register(status);
      exported.put(key, current);
    }
    current.healthyRecords().set(figures.healthyRecords());
    current.healthyLocalRecords().set(figures.healthyLocalRecords());
    for (int i = 0; i < SERVICE_STATUSES.size(); i++) {
      current.hostsByStatus().get(i).set(figures.hostsByStatus().get(i));
    }
  }

  private Exported register(GslbStatus status) {
    Tags gslb = Tags.of("namespace", status.namespace(), "name", status.name());
    String geoTag = String.valueOf(status.geoTag());
    List<Meter> meters = new ArrayList<>();
    AtomicLong healthy = new AtomicLong();
    meters.add(
        Gauge.builder("k8gb.gslb.healthy.records", healthy, AtomicLong::get)
            .description("Targets across the Gslb's healthy records (k8gb's name)")
            .tags(gslb)
            .register(registry));
    AtomicLong local = new AtomicLong();
    meters.add(
        Gauge.builder("k8gb.gslb.healthy.local.records", local, AtomicLong::get)
            .description("This cluster's exposed addresses in the Gslb's healthy records")
            .tags(gslb)
            .tag("geotag", geoTag)
            .register(registry));
    List<AtomicLong> byStatus = new ArrayList<>();
    for (String s : SERVICE_STATUSES) {
      AtomicLong hosts = new AtomicLong();
      byStatus.add(hosts);
      meters.add(
          Gauge.builder("k8gb.gslb.service.status.num", hosts, AtomicLong::get)
              .description("The Gslb's hosts by service health (k8gb's name)")
              .tags(gslb)
              .tag("status", s)
              .register(registry));
    }
    return new Exported(healthy, local, List.copyOf(byStatus), geoTag, List.copyOf(meters));
  }

  private void unexport(String key) {
    Exported gone = exported.remove(key);
    if (gone != null) {
      gone.meters().forEach(registry::remove);
    }
  }
}
