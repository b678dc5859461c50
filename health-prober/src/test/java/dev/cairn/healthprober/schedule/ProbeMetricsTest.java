package dev.cairn.healthprober.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.health.ProbeStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class ProbeMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ProbeMetrics metrics = new ProbeMetrics(registry);

  private double results(String peer, ProbeStatus status) {
    return registry
        .get("cairn.prober.results")
        .tag("peer", peer)
        .tag("status", status.name())
        .counter()
        .count();
  }

  @Test
  void countsResultsPerPeerAndStatus() {
    metrics.result("eu", ProbeStatus.OK);
    metrics.result("eu", ProbeStatus.OK);
    metrics.result("eu", ProbeStatus.TIMEOUT);
    metrics.result("us", ProbeStatus.OK);
    metrics.skipped("us", 5);
    metrics.latency("eu", 2_000_000);

    assertThat(results("eu", ProbeStatus.OK)).isEqualTo(2.0);
    assertThat(results("eu", ProbeStatus.TIMEOUT)).isEqualTo(1.0);
    assertThat(results("us", ProbeStatus.OK)).isEqualTo(1.0);
    assertThat(registry.get("cairn.prober.probes.skipped").tag("peer", "us").counter().count())
        .isEqualTo(5.0);
    assertThat(registry.get("cairn.prober.probe.latency").tag("peer", "eu").timer().count())
        .isEqualTo(1);
  }

  @Test
  void forgetsEveryMeterOfAPeerThatIsGone() {
    metrics.result("eu", ProbeStatus.OK);
    metrics.result("eu", ProbeStatus.NXDOMAIN);
    metrics.skipped("eu", 1);
    metrics.latency("eu", 1_000);
    metrics.result("us", ProbeStatus.OK);

    metrics.forget("eu");

    assertThat(registry.find("cairn.prober.results").tag("peer", "eu").counters()).isEmpty();
    assertThat(registry.find("cairn.prober.probes.skipped").tag("peer", "eu").counters()).isEmpty();
    assertThat(registry.find("cairn.prober.probe.latency").tag("peer", "eu").timers()).isEmpty();
    assertThat(results("us", ProbeStatus.OK)).isEqualTo(1.0);
    metrics.result("eu", ProbeStatus.OK); // a peer that comes back starts from zero
    assertThat(results("eu", ProbeStatus.OK)).isEqualTo(1.0);
  }
}
