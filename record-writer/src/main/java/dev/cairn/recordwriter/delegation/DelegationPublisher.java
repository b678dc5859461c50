package dev.cairn.recordwriter.delegation;

import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.recordwriter.kube.ServiceAddresses;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds the zone delegation ({@link DelegationRecords}) to the record loop as decisions of its own,
 * next to the engine's: once at start, before the decisions topic is read and before the writer may
 * write (so the published delegation is never taken for an orphan), and again whenever the name
 * server addresses change (the dns-responder Service's load-balancer addresses, when those are the
 * source).
 */
public final class DelegationPublisher {

  private static final Logger log = LoggerFactory.getLogger(DelegationPublisher.class);
  private static final Duration SERVICE_WAIT = Duration.ofSeconds(10);

  private final DelegationRecords.Spec spec;
  private final List<String> addresses;
  private final ServiceAddresses service;
  private final BiConsumer<String, TargetDecision> decisions;
  private boolean published;
  private final Map<String, TargetDecision> current = new ConcurrentHashMap<>();

  /**
   * A publisher.
   *
   * @param spec what to publish, {@code null} for nothing
   * @param addresses the configured addresses; when empty, {@code service}'s are used
   * @param service the Service to watch for addresses, {@code null} when they are configured
   * @param decisions where the decisions go, keyed by source ({@code RecordReconciler::onDecision})
   */
  public DelegationPublisher(
      DelegationRecords.Spec spec,
      List<String> addresses,
      ServiceAddresses service,
      BiConsumer<String, TargetDecision> decisions) {
    this.spec = spec;
    this.addresses = List.copyOf(addresses);
    this.service = service;
    this.decisions = decisions;
  }

  /** A publisher that publishes nothing ({@code writer.delegation.enabled=false}). */
  public static DelegationPublisher disabled() {
    return new DelegationPublisher(null, List.of(), null, (k, d) -> {});
  }

  /**
   * Publishes the delegation as known now, then follows the Service if there is one. With a
   * Service, it first waits (at most {@code SERVICE_WAIT}) for the Service to be listed, so a
   * restart does not publish "addresses unknown" first and the addresses a moment later.
   */
  public void start() {
    if (spec == null) {
      return;
    }
    if (!addresses.isEmpty() || service == null) {
      publish(addresses);
      return;
    }
    service.start(this::publish);
    long deadline = System.nanoTime() + SERVICE_WAIT.toNanos();
    try {
      while (!service.synced() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      if (!published) {
        if (!service.synced()) {
          log.atWarn()
              .addKeyValue("service", service.service())
              .log(
                  "Service {} not listed within {}; the published delegation is kept until it is",
                  service.service(),
                  SERVICE_WAIT);
        }
        publish(List.of());
      }
    }
  }

  /** The decision last published for a source key, {@code null} when it is not a delegation. */
  public TargetDecision decision(String source) {
    return current.get(source);
  }

  /** Stops following the Service. */
  public void stop() {
    if (service != null) {
      service.close();
    }
  }

  private synchronized void publish(List<String> nameServerAddresses) {
    published = true;
    for (TargetDecision d : DelegationRecords.decide(spec, nameServerAddresses)) {
      log.atInfo()
          .addKeyValue("dnsendpoint", d.namespace() + "/" + d.name())
          .addKeyValue("disposition", d.disposition())
          .log("zone delegation {}/{}: {}", d.namespace(), d.name(), d.explanation().summary());
      current.put(d.source().key(), d);
      decisions.accept(d.source().key(), d);
    }
  }
}
