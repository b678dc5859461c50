package dev.cairn.dnsresponder.health;

import dev.cairn.dnsresponder.server.DnsServer;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Whether every DNS listener thread still serves ({@code dnsListeners}, part of liveness and
 * readiness). A listener thread that an unexpected error stopped answers nothing more; DOWN makes
 * the orchestrator restart the process instead of leaving it up and silent.
 */
@Component("dnsListenersHealthIndicator")
class ListenerHealthIndicator implements HealthIndicator {

  private final DnsServer server;

  ListenerHealthIndicator(DnsServer server) {
    this.server = server;
  }

  @Override
  public Health health() {
    Map<String, String> stopped = server.stoppedListeners();
    if (stopped.isEmpty()) {
      return Health.up().withDetail("listeners", server.listeners()).build();
    }
    return Health.down()
        .withDetail("listeners", server.listeners())
        .withDetail("stopped", stopped)
        .withDetail(
            "reason",
            stopped.size()
                + " listener thread(s) stopped on an unexpected error; restart the process")
        .build();
  }
}
