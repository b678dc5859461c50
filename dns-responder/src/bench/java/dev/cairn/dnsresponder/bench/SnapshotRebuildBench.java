package dev.cairn.dnsresponder.bench;

import dev.cairn.dnsresponder.answer.AnswerView;
import dev.cairn.dnsresponder.answer.ServingState;
import dev.cairn.dnsresponder.zone.BuildResult;
import dev.cairn.dnsresponder.zone.EndpointInput;
import dev.cairn.dnsresponder.zone.SnapshotBuilder;
import dev.cairn.dnsresponder.zone.ZoneSnapshot;
import dev.cairn.dnsresponder.zone.ZoneSpec;
import dev.cairn.dnsresponder.zone.Zones;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What one rebuild of the served view costs under continuous change (the record-writer writing
 * DNSEndpoints during a failover, or one endpoint change at a time): {@code bench.objects}
 * (default 10,000) DNSEndpoints as Cairn writes them for Gslbs (the host with two A targets and its
 * {@code localtargets-} name with two), of which {@code bench.changed} (default 100) change
 * between rebuilds (the others keep their endpoint objects, as the responder's DNSEndpoint source
 * keeps them); each rebuild is the snapshot build and the view's compilation, as the responder's
 * zone cache does it: from nothing; from the served snapshot and view given every endpoint
 * ({@code SnapshotBuilder.build}, which compares every object with the snapshot's); and from the
 * served snapshot given only the objects that changed ({@code SnapshotBuilder.update}, what the
 * zone cache does). Prints thread CPU and bytes allocated per rebuild; nothing is asserted.
 *
 * <pre>
 * ./mvnw -o -pl dns-responder -Pbench test -Dtest=SnapshotRebuildBench -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
class SnapshotRebuildBench {

  private static final Zones ZONES =
      new Zones(
          List.of(
              new ZoneSpec(
                  "cloud.example.com",
                  List.of(new ZoneSpec.NameServer("ns1.cloud.example.com", List.of("192.0.2.53"))),
                  "hostmaster.cloud.example.com",
                  7200,
                  1800,
                  1209600,
                  30,
                  3600)));
  private static final SnapshotBuilder.Limits LIMITS = new SnapshotBuilder.Limits(30, 1_000_000);
  private static final Instant CREATED = Instant.parse("2026-11-30T00:00:00Z");

  private final int objects = Integer.getInteger("bench.objects", 10_000);
  private final int changed = Integer.getInteger("bench.changed", 100);
  private final int rounds = Integer.getInteger("bench.rounds", 200);

  /** The two endpoints of Gslb {@code g-i}, its targets picked by {@code version}. */
  private static List<EndpointInput> endpoints(int i, int version) {
    String host = "g-" + i + ".cloud.example.com";
    List<String> targets =
        version % 2 == 0
            ? List.of("198.51.100." + (1 + i % 250), "198.51.100." + (2 + i % 250))
            : List.of("203.0.113." + (1 + i % 250), "203.0.113." + (2 + i % 250));
    Map<String, String> labels = Map.of("k8gb.io/dnstype", "local");
    String source = "bench/g-" + i;
    return List.of(
        new EndpointInput(source, CREATED, 0, host, "A", 30, targets, labels),
        new EndpointInput(
            source,
            CREATED,
            1,
            "localtargets-" + host,
            "A",
            30,
            List.of("203.0.113." + (1 + i % 250), "203.0.113." + (2 + i % 250)),
            labels));
  }

  private enum Mode {
    FROM_NOTHING("from nothing"),
    EVERY_ENDPOINT("from the served snapshot and view, given every endpoint"),
    CHANGED_OBJECTS("from the served snapshot and view, given the changed objects");

    final String what;

    Mode(String what) {
      this.what = what;
    }
  }

  @Test
  void rebuildUnderContinuousChange() {
    for (int pass = 0; pass < 2; pass++) {
      for (Mode mode : Mode.values()) {
        run(mode);
      }
    }
  }

  private void run(Mode mode) {
    boolean reuse = mode != Mode.FROM_NOTHING;
    int[] versions = new int[objects];
    // As DnsEndpointSource: an object's endpoints are mapped again only when it changed.
    List<List<EndpointInput>> mapped = new ArrayList<>(objects);
    for (int i = 0; i < objects; i++) {
      mapped.add(endpoints(i, 0));
    }
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    AnswerView view = null;
    long cpu = 0;
    long allocated = 0;
    int next = 0;
    for (int round = -20; round < rounds; round++) { // 20 rounds of warm-up
      Map<String, List<EndpointInput>> changes = new LinkedHashMap<>();
      for (int c = 0; c < changed; c++) {
        versions[next]++;
        mapped.set(next, endpoints(next, versions[next]));
        changes.put("bench/g-" + next, mapped.get(next));
        next = (next + 1) % objects;
      }
      long cpuStart = threads.getCurrentThreadCpuTime();
      long allocatedStart = threads.getThreadAllocatedBytes(id);
      ZoneSnapshot previous = reuse && view != null ? view.snapshot() : null;
      BuildResult result;
      if (mode == Mode.CHANGED_OBJECTS && previous != null) {
        result = SnapshotBuilder.update(ZONES, LIMITS, Instant.now(), previous, changes);
      } else {
        // The list of every endpoint is the source's work, counted here as the source does it.
        List<EndpointInput> inputs = new ArrayList<>(objects * 2);
        mapped.forEach(inputs::addAll);
        result = SnapshotBuilder.build(ZONES, inputs, LIMITS, Instant.now(), previous);
      }
      ZoneSnapshot snapshot = ((BuildResult.Built) result).snapshot();
      view = AnswerView.serving(snapshot, ServingState.SYNCED, reuse ? view : null);
      if (round >= 0) {
        cpu += threads.getCurrentThreadCpuTime() - cpuStart;
        allocated += threads.getThreadAllocatedBytes(id) - allocatedStart;
      }
    }
    System.out.printf(
        "rebuild %s: %,d DNSEndpoints (%,d names), %,d changed per rebuild: %.1f ms of thread CPU"
            + " and %.1f MB allocated per rebuild (%d rebuilds)%n",
        mode.what,
        objects,
        view.snapshot().nameCount(),
        changed,
        cpu / 1e6 / rounds,
        allocated / 1e6 / rounds,
        rounds);
  }
}
