package dev.cairn.healthprober.health;

import dev.cairn.healthprober.dns.DnsClient;
import dev.cairn.healthprober.kafka.OutboxPublisher;
import dev.cairn.healthprober.kafka.TopologyInputs;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether the prober's own threads still run ({@code proberThreads}, in the liveness group): the
 * DNS reader, without which no answer is read, the publisher, without which none is sent, and the
 * topic readers, without which the topology is not followed (a stop on a newer schema version is
 * not a failure: readiness reports it, and a restart would meet the same record). A thread that an
 * unexpected error ended does not come back, so DOWN asks the orchestrator to restart the process;
 * the readiness component {@code prober} says the same among its details.
 */
public final class ProberThreadsHealthIndicator implements HealthIndicator {

  private final DnsClient client;
  private final OutboxPublisher publisher;
  private final TopologyInputs inputs;

  public ProberThreadsHealthIndicator(
      DnsClient client, OutboxPublisher publisher, TopologyInputs inputs) {
    this.client = client;
    this.publisher = publisher;
    this.inputs = inputs;
  }

  @Override
  public Health health() {
    List<String> stopped = new ArrayList<>();
    if (client.readerStopped()) {
      stopped.add("cairn-dns-reader");
    }
    if (publisher.stopped()) {
      stopped.add("cairn-prober-publisher");
    }
    if (inputs.failure() != null) {
      stopped.add(inputs.failure());
    }
    if (stopped.isEmpty()) {
      return Health.up().build();
    }
    return Health.down()
        .withDetail("stopped", stopped)
        .withDetail("reason", "a prober thread stopped on an unexpected error; restart the process")
        .build();
  }
}
