package dev.cairn.healthprober.config;

import dev.cairn.healthprober.kafka.OutboxPublisher;
import dev.cairn.healthprober.kafka.TopologyInputs;
import dev.cairn.healthprober.resolver.HostnameResolver;
import dev.cairn.healthprober.schedule.ProbeScheduler;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the prober's threads once the context is refreshed (after the topics were declared) and
 * stops them in reverse order on shutdown.
 */
final class ProberRuntime implements SmartLifecycle {

  private final TopologyInputs inputs;
  private final OutboxPublisher publisher;
  private final ProbeScheduler scheduler;
  private final HostnameResolver resolver;
  private volatile boolean running;

  ProberRuntime(
      TopologyInputs inputs,
      OutboxPublisher publisher,
      ProbeScheduler scheduler,
      HostnameResolver resolver) {
    this.inputs = inputs;
    this.publisher = publisher;
    this.scheduler = scheduler;
    this.resolver = resolver;
  }

  @Override
  public void start() {
    inputs.start();
    publisher.start();
    scheduler.start();
    resolver.start();
    running = true;
  }

  @Override
  public void stop() {
    running = false;
    resolver.close();
    scheduler.close();
    publisher.close();
    inputs.close();
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
