package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.strategyengine.placement.NodeDirectory;
import dev.cairn.strategyengine.placement.PlacementDecider;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.placement.ResolutionLookup;
import dev.cairn.strategyengine.stream.EngineMetrics.Trigger;
import dev.cairn.strategyengine.stream.EngineTopology.StoreType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Benchmarks of the placement core and the wired topology (not part of {@code verify}):
 *
 * <pre>
 * ./mvnw -o -pl strategy-engine -Pbench test -Dtest=PlacementBench -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * The cluster: 5,000 nodes in 50 zones (10 ingress nodes per zone), 10,000 HTTPRoutes in 100
 * namespaces, one Service of 5 ready endpoints per route (50,000 endpoints) spread over one or two
 * zones. Figures are printed; nothing is asserted.
 */
class PlacementBench {

  private static final int ZONES = 50;
  private static final int NODES_PER_ZONE = 100;
  private static final int INGRESS_PER_ZONE = 10;
  private static final int ROUTES = 10_000;
  private static final int NAMESPACES = 100;
  private static final int ENDPOINTS_PER_SERVICE = 5;
  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

  private final Random random = new Random(42);
  private final List<NodeState> nodes = nodes();
  private final List<RouteState> routes = new ArrayList<>();
  private final List<ServiceEndpoints> services = new ArrayList<>();

  PlacementBench() {
    for (int i = 0; i < ROUTES; i++) {
      String namespace = "ns-" + (i % NAMESPACES);
      String name = "route-" + i;
      routes.add(
          new RouteState(
              "HTTPRoute",
              "gateway.networking.k8s.io/v1",
              namespace,
              name,
              "uid-" + i,
              List.of(name + "." + namespace + ".example.com"),
              List.of(BackendRef.service("svc-" + i)),
              Map.of(),
              List.of()));
      services.add(endpoints(namespace, "svc-" + i));
    }
  }

  @Test
  void decideThroughputOnOneCore() {
    NodeDirectory directory = NodeDirectory.of(nodes);
    PlacementSettings settings = PlacementSettings.defaults();
    List<Map<String, ServiceEndpoints>> inputs = new ArrayList<>();
    for (ServiceEndpoints service : services) {
      inputs.add(Map.of(service.service(), service));
    }
    long checksum = 0;
    for (int round = 0; round < 30; round++) {
      checksum += decideAll(directory, settings, inputs);
    }
    int rounds = 30;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long start = System.nanoTime();
    long cpuStart = threads.getCurrentThreadCpuTime();
    for (int round = 0; round < rounds; round++) {
      checksum += decideAll(directory, settings, inputs);
    }
    double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e9;
    double seconds = (System.nanoTime() - start) / 1e9;
    long decisions = (long) rounds * ROUTES;
    System.out.printf(
        "decide(): %,d decisions; thread CPU %.2f s = %,.0f decisions/s per core"
            + " (wall %.2f s = %,.0f/s; checksum %d)%n",
        decisions, cpuSeconds, decisions / cpuSeconds, seconds, decisions / seconds, checksum);
  }

  private long decideAll(
      NodeDirectory directory,
      PlacementSettings settings,
      List<Map<String, ServiceEndpoints>> inputs) {
    long records = 0;
    for (int i = 0; i < ROUTES; i++) {
      TargetDecision decision =
          PlacementDecider.decide(
              routes.get(i), inputs.get(i), directory, ResolutionLookup.NONE, settings, NOW);
      records += decision.records().size();
    }
    return records;
  }

  @Test
  void changeLatencyInTheTopology() {
    // In-memory stores only: TopologyTestDriver commits and flushes every store after each input
    // record, which with RocksDB measures disk flushes, not the engine (Kafka Streams flushes per
    // commit interval).
    for (StoreType storeType : List.of(StoreType.IN_MEMORY)) {
      long heapBefore = heapAfterFullGc();
      try (EngineDriver driver =
          new EngineDriver(PlacementSettings.defaults(), NOW, storeType)) {
        long start = System.nanoTime();
        driver.synced();
        nodes.forEach(driver::node);
        services.forEach(driver::endpoints);
        routes.forEach(driver::route);
        int emitted = driver.read().size();
        System.out.printf(
            "%s: loaded %,d nodes, %,d endpoints, %,d routes in %.1f s (%,d decisions)%n",
            storeType,
            nodes.size(),
            services.size() * ENDPOINTS_PER_SERVICE,
            routes.size(),
            (System.nanoTime() - start) / 1e9,
            emitted);
        long heapLoaded = heapAfterFullGc();
        System.out.printf(
            "%s: heap after full GC %.1f MB with the engine loaded (%.1f MB before it, the"
                + " benchmark's own input lists included in both): engine state %.1f MB%n",
            storeType,
            heapLoaded / 1e6,
            heapBefore / 1e6,
            (heapLoaded - heapBefore) / 1e6);

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] nodeLatency = new long[200];
        long[] nodeCpu = new long[nodeLatency.length];
        long nodeRecomputations = 0;
        for (int i = 0; i < nodeLatency.length; i++) {
          int zone = random.nextInt(ZONES);
          NodeState ingress = ingress(zone, random.nextInt(INGRESS_PER_ZONE), 1 + i % 200);
          driver.metrics.reset();
          long t0 = System.nanoTime();
          long c0 = threads.getCurrentThreadCpuTime();
          driver.node(ingress);
          nodeCpu[i] = threads.getCurrentThreadCpuTime() - c0;
          nodeLatency[i] = System.nanoTime() - t0;
          nodeRecomputations += driver.metrics.recomputations(Trigger.NODE);
          driver.read();
        }
        long[] endpointLatency = new long[500];
        long[] endpointCpu = new long[endpointLatency.length];
        long endpointRecomputations = 0;
        for (int i = 0; i < endpointLatency.length; i++) {
          int route = random.nextInt(ROUTES);
          ServiceEndpoints moved = endpoints(routes.get(route).namespace(), "svc-" + route);
          driver.metrics.reset();
          long t0 = System.nanoTime();
          long c0 = threads.getCurrentThreadCpuTime();
          driver.endpoints(moved);
          endpointCpu[i] = threads.getCurrentThreadCpuTime() - c0;
          endpointLatency[i] = System.nanoTime() - t0;
          endpointRecomputations += driver.metrics.recomputations(Trigger.ENDPOINTS);
          driver.read();
        }
        report(storeType + " ingress Node change", nodeLatency, nodeRecomputations);
        report(storeType + " ingress Node change, thread CPU", nodeCpu, nodeRecomputations);
        report(storeType + " EndpointSlice change", endpointLatency, endpointRecomputations);
        report(
            storeType + " EndpointSlice change, thread CPU", endpointCpu, endpointRecomputations);
      }
    }
  }

  private static void report(String what, long[] nanos, long recomputations) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf(
        "%s: %d changes, %.1f routes recomputed per change, latency p50 %.2f ms, p99 %.2f ms,"
            + " max %.2f ms%n",
        what,
        nanos.length,
        recomputations / (double) nanos.length,
        sorted[sorted.length / 2] / 1e6,
        sorted[(int) (sorted.length * 0.99)] / 1e6,
        sorted[sorted.length - 1] / 1e6);
  }

  private ServiceEndpoints endpoints(String namespace, String service) {
    int zone = random.nextInt(ZONES);
    int secondZone = random.nextInt(4) == 0 ? random.nextInt(ZONES) : zone;
    List<EndpointState> endpoints = new ArrayList<>();
    for (int e = 0; e < ENDPOINTS_PER_SERVICE; e++) {
      int z = e % 2 == 0 ? zone : secondZone;
      String node = worker(z, INGRESS_PER_ZONE + random.nextInt(NODES_PER_ZONE - INGRESS_PER_ZONE));
      endpoints.add(
          new EndpointState(
              List.of("10.42." + e + "." + random.nextInt(250)), node, null, true, true, false));
    }
    return new ServiceEndpoints(namespace, service, endpoints, List.of());
  }

  private static List<NodeState> nodes() {
    List<NodeState> nodes = new ArrayList<>();
    for (int z = 0; z < ZONES; z++) {
      for (int n = 0; n < NODES_PER_ZONE; n++) {
        nodes.add(n < INGRESS_PER_ZONE ? ingress(z, n, 0) : node(worker(z, n), z, false, z, n, 0));
      }
    }
    return nodes;
  }

  private static NodeState ingress(int zone, int index, int generation) {
    return node("ingress-" + zone + "-" + index, zone, true, zone, index, generation);
  }

  private static String worker(int zone, int index) {
    return "worker-" + zone + "-" + index;
  }

  private static NodeState node(
      String name, int zone, boolean ingress, int a, int b, int generation) {
    return new NodeState(
        name,
        "zone-" + zone,
        null,
        ingress,
        List.of(
            new NodeAddress("ExternalIP", "203.0." + a + "." + (b + generation % 50)),
            new NodeAddress("InternalIP", "10." + a + "." + b + ".1")),
        Map.of(),
        List.of());
  }

  /** Used heap after two full collections, in bytes. */
  private static long heapAfterFullGc() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
