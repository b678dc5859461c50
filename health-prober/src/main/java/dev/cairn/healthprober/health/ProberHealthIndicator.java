package dev.cairn.healthprober.health;

import dev.cairn.healthprober.discovery.PeerDirectory;
import dev.cairn.healthprober.dns.DnsClient;
import dev.cairn.healthprober.host.Finding;
import dev.cairn.healthprober.kafka.Outbox;
import dev.cairn.healthprober.kafka.OutboxPublisher;
import dev.cairn.healthprober.kafka.TopologyInputs;
import dev.cairn.healthprober.resolver.HostnameResolver;
import dev.cairn.healthprober.schedule.ProbeScheduler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The prober's health, in the readiness group: UP once every topic reader has caught up and the DNS
 * reader and the publisher run; DOWN while catching up, when a reader stopped (e.g. a newer schema
 * version), or when a thread died. The details list the peers (servers, circuit state), the state
 * of discovery (last refresh, and whether the last good peer set is being kept), the hosts and what
 * could not be probed (such as label-selector resourceRefs), and the publish backlog.
 */
public final class ProberHealthIndicator implements HealthIndicator {

  private static final int MAX_FINDINGS = 20;

  private final TopologyInputs inputs;
  private final PeerDirectory directory;
  private final ProbeScheduler scheduler;
  private final HostnameResolver resolver;
  private final DnsClient client;
  private final Outbox outbox;
  private final OutboxPublisher publisher;

  public ProberHealthIndicator(
      TopologyInputs inputs,
      PeerDirectory directory,
      ProbeScheduler scheduler,
      HostnameResolver resolver,
      DnsClient client,
      Outbox outbox,
      OutboxPublisher publisher) {
    this.inputs = inputs;
    this.directory = directory;
    this.scheduler = scheduler;
    this.resolver = resolver;
    this.client = client;
    this.outbox = outbox;
    this.publisher = publisher;
  }

  @Override
  public Health health() {
    Health.Builder b;
    String blocked = inputs.blockedReason();
    if (blocked != null) {
      b = Health.down().withDetail("reason", blocked);
    } else if (!client.alive()) {
      b = Health.down().withDetail("reason", "the DNS reader thread stopped");
    } else if (!publisher.alive()) {
      b = Health.down().withDetail("reason", "the publisher thread stopped");
    } else if (!inputs.caughtUp() || !scheduler.ready()) {
      b = Health.down().withDetail("reason", "catching up with the topology topics");
    } else {
      b = Health.up();
    }
    b.withDetail("topics", inputs.describe());
    PeerDirectory.Status d = directory.status();
    Map<String, Object> discovery = new LinkedHashMap<>();
    discovery.put("enabled", directory.discovers());
    discovery.put("peersKnown", d.known());
    if (d.lastAttempt() != null) {
      discovery.put("lastRefresh", d.lastAttempt().toString());
    }
    if (d.lastSuccess() != null) {
      discovery.put("lastSuccess", d.lastSuccess().toString());
    }
    if (d.lastFailure() != null) {
      discovery.put(
          "lastFailure",
          d.lastFailure()
              + ": reached no edge server; keeping the peer set of "
              + (d.lastSuccess() == null ? "the configuration only" : d.lastSuccess()));
    }
    if (!d.problems().isEmpty()) {
      discovery.put("problems", d.problems());
    }
    b.withDetail("discovery", discovery);
    b.withDetail("peers", scheduler.describePeers());
    List<Finding> findings = scheduler.plan().findings();
    Map<String, Object> hosts = new LinkedHashMap<>();
    hosts.put("count", scheduler.plan().hosts().size());
    hosts.put("states", scheduler.states());
    hosts.put("notProbed", findings.size());
    if (!findings.isEmpty()) {
      hosts.put(
          "notProbedExamples",
          findings.stream().limit(MAX_FINDINGS).map(Finding::toString).toList());
    }
    b.withDetail("hosts", hosts);
    b.withDetail("hostnameResolutions", resolver.plan().keys().size());
    Map<String, Object> dns = new LinkedHashMap<>();
    dns.put("sourcePorts", client.sourcePorts());
    dns.put("inFlight", client.inFlight());
    dns.put("malformedReplies", client.malformed());
    b.withDetail("dns", dns);
    Map<String, Object> publishing = new LinkedHashMap<>();
    publishing.put("backlog", outbox.size());
    if (publisher.lastError() != null) {
      publishing.put("failing", publisher.lastError());
    }
    b.withDetail("publishing", publishing);
    return b.build();
  }
}
